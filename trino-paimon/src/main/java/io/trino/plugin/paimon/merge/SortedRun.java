package io.trino.plugin.paimon.merge;

import com.google.common.collect.ImmutableList;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Files whose key ranges do not overlap, in key order: read one after the other they yield each key at most once,
 * in key order (merge-semantics §2.2).
 *
 * @param <F> the file description
 */
public record SortedRun<F>(List<F> files)
{
    public SortedRun
    {
        files = ImmutableList.copyOf(files);
        checkArgument(!files.isEmpty(), "a sorted run has files");
    }

    public static <F> SortedRun<F> of(F file)
    {
        return new SortedRun<>(ImmutableList.of(file));
    }
}
