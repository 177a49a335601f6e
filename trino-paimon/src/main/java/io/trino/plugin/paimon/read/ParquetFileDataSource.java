package io.trino.plugin.paimon.read;

import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import java.io.IOException;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Trino's Parquet reader over a file of the warehouse, read through {@code TrinoFileSystem}. Past the end of the
 * file it serves the {@link Lz4RawColumnChunks} it was given, decompressed.
 */
final class ParquetFileDataSource
        extends AbstractParquetDataSource
{
    private final TrinoInput input;
    private final long fileSize;
    private Optional<Lz4RawColumnChunks> movedChunks = Optional.empty();
    private long movedBytesServed;

    ParquetFileDataSource(TrinoInputFile file, long fileSize, ParquetReaderOptions options)
            throws IOException
    {
        super(new ParquetDataSourceId(file.location().toString()), fileSize, options);
        this.input = requireNonNull(file, "file is null").newInput();
        this.fileSize = fileSize;
    }

    /** Serves these chunks at the addresses past the end of the file that the footer Trino reads gives them. */
    void serve(Lz4RawColumnChunks chunks)
    {
        movedChunks = Optional.of(chunks);
    }

    /** The bytes read from the file: the decompressed bytes of moved chunks, served from memory, are not counted. */
    long fileReadBytes()
    {
        return getReadBytes() - movedBytesServed;
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        if (position >= fileSize && movedChunks.isPresent()) {
            movedChunks.get().read(this, position, buffer, bufferOffset, bufferLength);
            movedBytesServed += bufferLength;
            return;
        }
        input.readFully(position, buffer, bufferOffset, bufferLength);
    }

    @Override
    public void close()
            throws IOException
    {
        input.close();
    }
}
