package io.trino.plugin.paimon.read;

/**
 * Files opened, bytes read and time spent reading the files of one split, reported to Trino by the page source.
 */
final class ReadMetrics
{
    private long filesOpened;
    private long bytes;
    private long nanos;

    void fileOpened()
    {
        filesOpened++;
    }

    void add(long bytes, long nanos)
    {
        this.bytes += bytes;
        this.nanos += nanos;
    }

    long filesOpened()
    {
        return filesOpened;
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
