package io.trino.plugin.paimon.read;

import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.orc.AbstractOrcDataSource;
import io.trino.orc.OrcDataSourceId;
import io.trino.orc.OrcReaderOptions;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * Trino's ORC reader over a file of the warehouse, read through {@code TrinoFileSystem}.
 */
final class OrcFileDataSource
        extends AbstractOrcDataSource
{
    private final TrinoInput input;

    OrcFileDataSource(TrinoInputFile file, long fileSize, OrcReaderOptions options)
            throws IOException
    {
        super(new OrcDataSourceId(file.location().toString()), fileSize, options);
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
