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
package io.trino.plugin.paimon.hdfs;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import org.apache.hadoop.fs.FSDataInputStream;

import java.io.EOFException;
import java.io.IOException;

import static java.util.Objects.checkFromIndexSize;
import static java.util.Objects.requireNonNull;

/** Positional reads ({@code pread}) of an open Hadoop stream: each read names its own offset, so none moves a shared position. */
final class HdfsInput
        implements TrinoInput
{
    private final Location location;
    private final FSDataInputStream input;
    private final TrinoInputFile file;
    private boolean closed;

    HdfsInput(Location location, FSDataInputStream input, TrinoInputFile file)
    {
        this.location = requireNonNull(location, "location is null");
        this.input = requireNonNull(input, "input is null");
        this.file = requireNonNull(file, "file is null");
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        ensureOpen();
        checkFromIndexSize(offset, length, buffer.length);
        if (position < 0) {
            throw new IOException("Negative position %s reading %s".formatted(position, location));
        }
        try {
            input.readFully(position, buffer, offset, length);
        }
        catch (EOFException e) {
            EOFException named = new EOFException("Read of %s bytes at %s is past the end of %s".formatted(length, position, location));
            named.initCause(e);
            throw named;
        }
    }

    @Override
    public int readTail(byte[] buffer, int offset, int length)
            throws IOException
    {
        ensureOpen();
        checkFromIndexSize(offset, length, buffer.length);
        long fileLength = file.length();
        int readLength = (int) Math.min(fileLength, length);
        readFully(fileLength - readLength, buffer, offset, readLength);
        return readLength;
    }

    private void ensureOpen()
            throws IOException
    {
        if (closed) {
            throw new IOException("Input closed: " + location);
        }
    }

    @Override
    public void close()
            throws IOException
    {
        if (!closed) {
            closed = true;
            input.close();
        }
    }

    @Override
    public String toString()
    {
        return location.toString();
    }
}
