package io.trino.plugin.paimon.write;

import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;

/**
 * What differs in Trino's Parquet writer between releases, as Trino 476 has it: it tells the bytes written out and
 * those buffered apart, and encodes byte arrays a dictionary cannot hold as PLAIN.
 */
final class ParquetWriters
{
    private ParquetWriters() {}

    /** Options every data file is written with, before the table's layout. */
    static ParquetWriterOptions.Builder options()
    {
        return ParquetWriterOptions.builder();
    }

    /** Whether the bytes written out are known exactly, so a row group's end is seen as it is written. */
    static boolean rowGroupEndsKnown()
    {
        return true;
    }

    static long writtenBytes(ParquetWriter writer)
    {
        return writer.getWrittenBytes();
    }

    static long estimatedSize(ParquetWriter writer)
    {
        return writer.getWrittenBytes() + writer.getBufferedBytes();
    }
}
