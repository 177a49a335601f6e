package io.trino.plugin.paimon.write;

import io.trino.parquet.writer.ParquetWriter;

/** What Trino 476's Parquet writer tells of its size: the bytes written out and the bytes buffered, apart. */
final class ParquetWriterSizes
{
    private ParquetWriterSizes() {}

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
