package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

/**
 * Folds the records of one key, given oldest to newest in merge order, into at most one row (Paimon's
 * reset / add / result contract, merge-semantics §2.6). A result is a record: a position in a page, either one
 * of the inputs or a page the function built. Results of a retract kind are dropped by the caller.
 */
public interface MergeFunction
{
    void reset();

    void add(Page page, int position, byte kind);

    /** Whether the key yields a row. */
    boolean hasResult();

    Page resultPage();

    int resultPosition();

    byte resultKind();
}
