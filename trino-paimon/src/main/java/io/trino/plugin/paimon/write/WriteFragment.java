package io.trino.plugin.paimon.write;

import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/** What a page sink hands the coordinator's commit: one data file or one dynamic-bucket index file it wrote. */
public record WriteFragment(Optional<WrittenFile> dataFile, Optional<WrittenIndexFile> indexFile)
{
    public WriteFragment
    {
        checkArgument(dataFile.isPresent() != indexFile.isPresent(), "a fragment is one data file or one index file");
    }

    public static WriteFragment of(WrittenFile file)
    {
        return new WriteFragment(Optional.of(file), Optional.empty());
    }

    public static WriteFragment of(WrittenIndexFile file)
    {
        return new WriteFragment(Optional.empty(), Optional.of(file));
    }
}
