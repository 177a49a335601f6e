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

/** The measured times of one case, in nanoseconds: the benchmarks report their median and spread. */
record Timing(long[] nanos)
{
    static Timing of(List<Long> nanos)
    {
        return new Timing(nanos.stream().mapToLong(Long::longValue).toArray());
    }

    double medianMillis()
    {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return (sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0) / 1e6;
    }

    double minMillis()
    {
        return Arrays.stream(nanos).min().orElseThrow() / 1e6;
    }

    double maxMillis()
    {
        return Arrays.stream(nanos).max().orElseThrow() / 1e6;
    }

    double rowsPerSecond(long rows)
    {
        return rows / (medianMillis() / 1e3);
    }

    String spread()
    {
        return "%,.0f..%,.0f ms".formatted(minMillis(), maxMillis());
    }
}
