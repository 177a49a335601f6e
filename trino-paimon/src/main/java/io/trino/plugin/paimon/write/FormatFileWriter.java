package io.trino.plugin.paimon.write;

import io.trino.spi.Page;

import java.io.IOException;

/**
 * The bytes of one data file in one format: takes pages whose channels are the file's columns ({@link DataFileColumn}
 * in file order, blocks of the columns' Trino types) and encodes them as Paimon's writer of that format would. What a
 * file holds and how it is described in the manifest is the caller's ({@link KeyValueFileWriter}); this knows only
 * the encoding.
 */
interface FormatFileWriter
{
    void write(Page page)
            throws IOException;

    /** Bytes already handed to the output stream. */
    long writtenBytes();

    /** The size the file would have if closed now, as Paimon estimates it when deciding to roll. */
    long estimatedSize();

    long retainedBytes();

    /** Finishes the file and closes the output stream. */
    void close()
            throws IOException;
}
