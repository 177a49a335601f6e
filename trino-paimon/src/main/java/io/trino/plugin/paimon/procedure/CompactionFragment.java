package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.write.WrittenFile;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the compaction of one bucket did, for the commit: the files it replaced (by name) and the files it wrote.
 *
 * @param deletionVectors the bucket's deletion-vector index after a lookup compaction, which marks rows of files it
 * leaves in place; empty when the compaction read the bucket's vectors into its output, so they are dropped
 */
public record CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles, Optional<DeletionVectorFile> deletionVectors)
{
    public CompactionFragment
    {
        requireNonNull(partition, "partition is null");
        compactedFiles = ImmutableList.copyOf(compactedFiles);
        writtenFiles = ImmutableList.copyOf(writtenFiles);
        requireNonNull(deletionVectors, "deletionVectors is null");
    }

    public CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles)
    {
        this(partition, bucket, compactedFiles, writtenFiles, Optional.empty());
    }
}
