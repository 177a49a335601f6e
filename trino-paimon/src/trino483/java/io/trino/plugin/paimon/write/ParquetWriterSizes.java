package io.trino.plugin.paimon.write;

import io.trino.parquet.writer.ParquetWriter;

/**
 * What Trino 483's Parquet writer tells of its size: only the bytes written out plus an estimate of those buffered,
 * together (exact once the writer is closed). The end of a row group cannot be told from it, so files written here
 * get no page indexes.
 */
final class ParquetWriterSizes
{
    private ParquetWriterSizes() {}

    /** Whether the bytes written out are known exactly, so a row group's end is seen as it is written. */
    static boolean rowGroupEndsKnown()
    {
        return false;
    }

    static long writtenBytes(ParquetWriter writer)
    {
        return writer.getEstimatedWrittenBytes();
    }

    static long estimatedSize(ParquetWriter writer)
    {
        return writer.getEstimatedWrittenBytes();
    }
}
