package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

/**
 * Folds the records of one key, given oldest to newest in merge order, into at most one row (Paimon's
 * reset / add / result contract, merge-semantics §2.6). The result goes straight into the output; a result of a
 * retract kind (-U, -D) is not emitted.
 */
public interface MergeFunction
{
    void reset();

    void add(Page page, int position, byte kind);

    /** Adds the key's row to the output, unless the key yields none. */
    void emitResult(OutputPageBuilder output);
}
