package io.trino.plugin.paimon.read;

/**
 * Bytes and time spent reading the files of one split, reported to Trino by the page source.
 */
final class ReadStatistics
{
    private long bytes;
    private long nanos;

    void add(long bytes, long nanos)
    {
        this.bytes += bytes;
        this.nanos += nanos;
    }

    long bytes()
    {
        return bytes;
    }

    long nanos()
    {
        return nanos;
    }
}
