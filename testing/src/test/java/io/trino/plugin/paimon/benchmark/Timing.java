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
