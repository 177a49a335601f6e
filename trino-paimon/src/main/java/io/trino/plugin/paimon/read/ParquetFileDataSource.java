/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
