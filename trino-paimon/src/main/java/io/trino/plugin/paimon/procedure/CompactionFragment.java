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
 * @param changelogFiles the changelog the compaction produced ({@code changelog-producer} = {@code full-compaction})
 */
public record CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles, Optional<DeletionVectorFile> deletionVectors, List<WrittenFile> changelogFiles)
{
    public CompactionFragment
    {
        requireNonNull(partition, "partition is null");
        compactedFiles = ImmutableList.copyOf(compactedFiles);
        writtenFiles = ImmutableList.copyOf(writtenFiles);
        requireNonNull(deletionVectors, "deletionVectors is null");
        // fragments staged before compactions wrote changelog have none
        changelogFiles = changelogFiles == null ? ImmutableList.of() : ImmutableList.copyOf(changelogFiles);
    }

    public CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles, Optional<DeletionVectorFile> deletionVectors)
    {
        this(partition, bucket, compactedFiles, writtenFiles, deletionVectors, List.of());
    }

    public CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles)
    {
        this(partition, bucket, compactedFiles, writtenFiles, Optional.empty());
    }

    /** The data and changelog files the compaction wrote. */
    public List<WrittenFile> allWrittenFiles()
    {
        return ImmutableList.<WrittenFile>builder().addAll(writtenFiles).addAll(changelogFiles).build();
    }
}
