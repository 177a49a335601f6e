package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static java.util.Objects.requireNonNull;

/**
 * One bucket of one partition (for an append table: one file), or, for a bucket larger than {@code max_split_size},
 * some of its sections: the files of a section overlap in key ranges and are merged together, so a section is never
 * spread over several splits.
 */
public record PaimonSplit(String partition, int bucket, List<PaimonDataFile> files, SplitWeight splitWeight)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(PaimonSplit.class);

    public PaimonSplit
    {
        requireNonNull(partition, "partition is null");
        files = ImmutableList.copyOf(files);
        requireNonNull(splitWeight, "splitWeight is null");
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return splitWeight;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE
                + estimatedSizeOf(partition)
                + estimatedSizeOf(files, file -> estimatedSizeOf(file.path()) + file.minKey().length + file.maxKey().length + 96L)
                + splitWeight.getRetainedSizeInBytes();
    }
}
