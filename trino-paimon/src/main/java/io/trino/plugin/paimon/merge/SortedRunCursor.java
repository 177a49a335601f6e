package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

import java.io.Closeable;

/**
 * Reads one sorted run record by record, in key order, one page at a time. Each page holds every channel of the
 * {@link KeyValueLayout}, already loaded, and stays valid after the cursor moves on (merged keys may still
 * refer to it).
 */
public interface SortedRunCursor
        extends Closeable
{
    /** Moves to the next record; false when the run is exhausted. Starts before the first record. */
    boolean advance();

    Page page();

    int position();

    /** LSM level of the file the current record comes from. */
    int level();

    /** Bytes of memory the cursor holds (its current page and reader buffers). */
    long memoryUsage();

    @Override
    void close();
}
