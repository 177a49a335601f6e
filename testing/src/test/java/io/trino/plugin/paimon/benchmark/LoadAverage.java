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
