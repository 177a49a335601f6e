package io.trino.plugin.paimon.format.row;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A Paimon timestamp value: milliseconds since the epoch plus the nanoseconds within that millisecond, the way
 * Paimon stores TIMESTAMP and TIMESTAMP_LTZ values (wall clock as if UTC for the former, the instant for the latter).
 */
public record Timestamp(long epochMillis, int nanosOfMillisecond)
{
    public Timestamp
    {
        checkArgument(nanosOfMillisecond >= 0 && nanosOfMillisecond < 1_000_000, "nanosOfMillisecond out of range: %s", nanosOfMillisecond);
    }

    public static Timestamp ofEpochMicros(long epochMicros)
    {
        return new Timestamp(Math.floorDiv(epochMicros, 1000), Math.floorMod(epochMicros, 1000) * 1000);
    }
}
