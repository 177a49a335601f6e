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
