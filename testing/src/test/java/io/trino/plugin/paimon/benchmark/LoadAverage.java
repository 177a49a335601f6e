/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.trino.plugin.paimon.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load, printed beside every benchmark's figures: these machines are shared, and it says how much. */
final class LoadAverage
{
    private LoadAverage() {}

    /** The 1, 5 and 15 minute load averages and run queue as {@code /proc/loadavg} has them, else the 1 minute one. */
    static String now()
    {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        }
        catch (IOException e) {
            return "%.2f (1 min)".formatted(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}
