package io.trino.plugin.paimon.read;

/**
 * Files opened, row groups read and skipped, bytes read and time spent reading the files of one split, reported to
 * Trino by the page source.
 */
final class ReadMetrics
{
    private long filesOpened;
    private long rowGroupsRead;
    private long rowGroupsSkipped;
    private long bytes;
    private long nanos;

    void fileOpened()
    {
        filesOpened++;
    }

    void rowGroups(int total, int read)
    {
        rowGroupsRead += read;
        rowGroupsSkipped += total - read;
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

    long rowGroupsRead()
    {
        return rowGroupsRead;
    }

    long rowGroupsSkipped()
    {
        return rowGroupsSkipped;
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
