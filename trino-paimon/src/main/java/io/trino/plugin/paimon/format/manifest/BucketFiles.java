package io.trino.plugin.paimon.format.manifest;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The live files of one bucket of one partition: the unit a read split covers, since a bucket's sorted runs overlap
 * and must be merged together.
 */
public record BucketFiles(BinaryRow partition, int bucket, List<ManifestEntry> files)
{
    public BucketFiles
    {
        requireNonNull(partition, "partition is null");
        files = ImmutableList.copyOf(files);
    }
}
