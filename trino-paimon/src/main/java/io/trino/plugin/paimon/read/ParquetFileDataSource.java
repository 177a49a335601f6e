package io.trino.plugin.paimon.read;

import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * Trino's Parquet reader over a file of the warehouse, read through {@code TrinoFileSystem}.
 */
final class ParquetFileDataSource
        extends AbstractParquetDataSource
{
    private final TrinoInput input;

    ParquetFileDataSource(TrinoInputFile file, long fileSize, ParquetReaderOptions options)
            throws IOException
    {
        super(new ParquetDataSourceId(file.location().toString()), fileSize, options);
        this.input = requireNonNull(file, "file is null").newInput();
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        input.readFully(position, buffer, bufferOffset, bufferLength);
    }

    @Override
    public void close()
            throws IOException
    {
        input.close();
    }
}
