package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

/**
 * The newest record wins, its row kind included, so a newest retraction removes the key (merge-semantics §4). With
 * {@code ignore-delete}, retractions are skipped and the newest add wins.
 */
public final class DeduplicateMergeFunction
        implements MergeFunction
{
    private final boolean ignoreDelete;
    private Page page;
    private int position;
    private byte kind;

    public DeduplicateMergeFunction(boolean ignoreDelete)
    {
        this.ignoreDelete = ignoreDelete;
    }

    @Override
    public void reset()
    {
        page = null;
    }

    @Override
    public void add(Page page, int position, byte kind)
    {
        if (ignoreDelete && KeyValueLayout.isRetract(kind)) {
            return;
        }
        this.page = page;
        this.position = position;
        this.kind = kind;
    }

    @Override
    public void emitResult(OutputPageBuilder output)
    {
        if (page != null && !KeyValueLayout.isRetract(kind)) {
            output.add(page, position);
        }
    }
}
