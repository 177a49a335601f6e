package io.trino.plugin.paimon.write;

import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import org.apache.parquet.format.CompressionCodec;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** A Parquet data file written by Trino's Parquet writer in the schema Paimon gives it ({@link ParquetFileSchema}). */
final class ParquetFormatFileWriter
        implements FormatFileWriter
{
    private final List<DataFileColumn> columns;
    private final ParquetWriter writer;

    ParquetFormatFileWriter(OutputStream output, List<DataFileColumn> columns, CompressionCodec compression)
    {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        ParquetFileSchema schema = new ParquetFileSchema(columns);
        this.writer = new ParquetWriter(
                output,
                schema.messageType(),
                schema.primitiveTypes(),
                ParquetWriterOptions.builder().build(),
                compression,
                "trino-paimon",
                // int96 timestamps hold the wall clock (TIMESTAMP) or the instant (LTZ) as if in UTC
                Optional.of(DateTimeZone.UTC),
                Optional.empty());
    }

    @Override
    public void write(Page page)
            throws IOException
    {
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < blocks.length; i++) {
            DataFileColumn column = columns.get(i);
            blocks[i] = ParquetFileSchema.toStorage(column.type(), column.trinoType(), page.getBlock(i));
        }
        writer.write(new Page(page.getPositionCount(), blocks));
    }

    @Override
    public long writtenBytes()
    {
        return writer.getWrittenBytes();
    }

    /** Row groups written plus the encoded rows buffered for the next one, as Paimon measures a Parquet file. */
    @Override
    public long estimatedSize()
    {
        return writer.getWrittenBytes() + writer.getBufferedBytes();
    }

    @Override
    public long retainedBytes()
    {
        return writer.getRetainedBytes();
    }

    @Override
    public void close()
            throws IOException
    {
        writer.close();
    }
}
