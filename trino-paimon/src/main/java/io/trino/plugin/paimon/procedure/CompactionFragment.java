package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.write.WrittenFile;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What the compaction of one bucket did, for the commit: the files it replaced (by name) and the files it wrote.
 */
public record CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles)
{
    public CompactionFragment
    {
        requireNonNull(partition, "partition is null");
        compactedFiles = ImmutableList.copyOf(compactedFiles);
        writtenFiles = ImmutableList.copyOf(writtenFiles);
    }
}
