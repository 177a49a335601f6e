package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.format.manifest.DataFileMeta;

import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;

/**
 * Record count, size, file count and newest file of a group of data files (a partition, a bucket), as the system
 * tables that summarise files show them.
 */
final class FileTotals
{
    private long records;
    private long bytes;
    private long files;
    private long lastUpdateMillis = Long.MIN_VALUE;

    void add(DataFileMeta file)
    {
        records += file.rowCount();
        bytes += file.fileSize();
        files++;
        if (file.creationTimeMillis().isPresent()) {
            lastUpdateMillis = Math.max(lastUpdateMillis, file.creationTimeMillis().getAsLong());
        }
    }

    long records()
    {
        return records;
    }

    long bytes()
    {
        return bytes;
    }

    long files()
    {
        return files;
    }

    /** The creation time of the newest file as a TIMESTAMP WITH TIME ZONE value; null when no file records one. */
    Long lastUpdateTime()
    {
        return lastUpdateMillis == Long.MIN_VALUE ? null : packDateTimeWithZone(lastUpdateMillis, UTC_KEY);
    }
}
