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

import java.util.Arrays;
import java.util.List;

/**
 * The {@code --trino-versions=476,483} flag of the benchmarks that run on real servers: one server per release, each
 * with the plugin built for it, side by side over the same tables. The other arguments go on to {@link IntegerFlags}.
 */
record TrinoReleases(List<String> versions, String[] otherArguments)
{
    private static final String FLAG = "--trino-versions=";
    private static final List<String> BUILT = List.of("476", "483");

    TrinoReleases
    {
        versions = List.copyOf(versions);
        otherArguments = otherArguments.clone();
    }

    /** The releases given, or those of {@code defaultVersions} (comma-separated; empty: none) when the flag is absent. */
    static TrinoReleases parse(String[] args, String defaultVersions)
    {
        String versions = defaultVersions;
        for (String arg : args) {
            if (arg.startsWith(FLAG)) {
                versions = arg.substring(FLAG.length());
            }
        }
        List<String> parsed = Arrays.stream(versions.split(",")).map(String::trim).filter(version -> !version.isEmpty()).distinct().toList();
        for (String version : parsed) {
            if (!BUILT.contains(version)) {
                throw new IllegalArgumentException("%s%s: the plugin is built for Trino %s".formatted(FLAG, versions, BUILT));
            }
        }
        return new TrinoReleases(parsed, Arrays.stream(args).filter(arg -> !arg.startsWith(FLAG)).toArray(String[]::new));
    }
}
