package io.trino.plugin.paimon.format.manifest;

import io.trino.plugin.paimon.format.row.BinaryRow;

/**
 * What part of a snapshot a scan needs, so that manifests and entries outside it are skipped while reading.
 * Both checks may answer true when unsure; neither may answer false for something that can match.
 */
public interface ScanFilter
{
    ScanFilter ALL = new ScanFilter() {};

    /** Whether a manifest can hold matching entries, judged by its partition stats and bucket and level ranges. */
    default boolean mayMatch(ManifestFileMeta manifest)
    {
        return true;
    }

    /** Whether files of this partition are needed. */
    default boolean matchesPartition(BinaryRow partition)
    {
        return true;
    }

    /** Whether files of this bucket, written when the table had totalBuckets buckets, are needed. */
    default boolean matchesBucket(int bucket, int totalBuckets)
    {
        return true;
    }
}
