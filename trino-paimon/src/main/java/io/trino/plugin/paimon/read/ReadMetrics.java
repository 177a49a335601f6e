package io.trino.plugin.paimon.read;

/**
 * Files opened, row groups read and skipped, records read and those whose values were never read, sections read straight through or merged, bytes read and
 * time spent reading the files of one split, reported to Trino by the page source.
 */
final class ReadMetrics
{
    private long filesOpened;
    private long rowGroupsRead;
    private long rowGroupsSkipped;
    private long records;
    private long recordsValuesUnread;
    private long sectionsPassedThrough;
    private long sectionsMerged;
    private long sortedRuns;
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

    void recordsRead(int count)
    {
        records += count;
    }

    void valuesUnread(int count)
    {
        recordsValuesUnread += count;
    }

    void section(int runs)
    {
        sortedRuns += runs;
        if (runs == 1) {
            sectionsPassedThrough++;
        }
        else {
            sectionsMerged++;
        }
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

    long records()
    {
        return records;
    }

    long recordsValuesUnread()
    {
        return recordsValuesUnread;
    }

    long sectionsPassedThrough()
    {
        return sectionsPassedThrough;
    }

    long sectionsMerged()
    {
        return sectionsMerged;
    }

    long sortedRuns()
    {
        return sortedRuns;
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
