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
import io.trino.filesystem.TrinoInputStream;
import org.apache.hadoop.fs.FSDataInputStream;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/** A sequential read of a Hadoop stream, which can seek. */
final class HdfsInputStream
        extends TrinoInputStream
{
    private final Location location;
    private final FSDataInputStream input;
    private boolean closed;

    HdfsInputStream(Location location, FSDataInputStream input)
    {
        this.location = requireNonNull(location, "location is null");
        this.input = requireNonNull(input, "input is null");
    }

    @Override
    public long getPosition()
            throws IOException
    {
        ensureOpen();
        return input.getPos();
    }

    @Override
    public void seek(long position)
            throws IOException
    {
        ensureOpen();
        if (position < 0) {
            throw new IOException("Negative seek position %s in %s".formatted(position, location));
        }
        input.seek(position);
    }

    @Override
    public int read()
            throws IOException
    {
        ensureOpen();
        return input.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length)
            throws IOException
    {
        ensureOpen();
        return input.read(buffer, offset, length);
    }

    @Override
    public long skip(long n)
            throws IOException
    {
        ensureOpen();
        return input.skip(n);
    }

    @Override
    public int available()
            throws IOException
    {
        ensureOpen();
        return input.available();
    }

    private void ensureOpen()
            throws IOException
    {
        if (closed) {
            throw new IOException("Input stream closed: " + location);
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
}
