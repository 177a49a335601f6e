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
import io.trino.filesystem.TrinoInputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.hdfs.HdfsFileSystem.hadoopPath;
import static java.util.Objects.requireNonNull;

/** A file read through Hadoop's seekable stream: positional reads for {@link TrinoInput}, never the whole file at once. */
final class HdfsInputFile
        implements TrinoInputFile
{
    private final Location location;
    private final Path path;
    private final HdfsFileSystem fileSystem;
    private OptionalLong length;
    private Optional<Instant> lastModified;

    HdfsInputFile(Location location, OptionalLong length, Optional<Instant> lastModified, HdfsFileSystem fileSystem)
    {
        this.location = requireNonNull(location, "location is null");
        location.verifyValidFileLocation();
        this.path = hadoopPath(location);
        this.length = requireNonNull(length, "length is null");
        this.lastModified = requireNonNull(lastModified, "lastModified is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    }

    @Override
    public TrinoInput newInput()
            throws IOException
    {
        return new HdfsInput(location, open(), this);
    }

    @Override
    public TrinoInputStream newStream()
            throws IOException
    {
        return new HdfsInputStream(location, open());
    }

    private FSDataInputStream open()
            throws IOException
    {
        try {
            return fileSystem.run(path, fileSystem -> fileSystem.open(path));
        }
        catch (FileNotFoundException e) {
            throw withLocation(e);
        }
    }

    @Override
    public long length()
            throws IOException
    {
        if (length.isEmpty()) {
            loadStatus();
        }
        return length.getAsLong();
    }

    @Override
    public Instant lastModified()
            throws IOException
    {
        if (lastModified.isEmpty()) {
            loadStatus();
        }
        return lastModified.orElseThrow();
    }

    private void loadStatus()
            throws IOException
    {
        FileStatus status;
        try {
            status = fileSystem.run(path, fileSystem -> fileSystem.getFileStatus(path));
        }
        catch (FileNotFoundException e) {
            throw withLocation(e);
        }
        if (!status.isFile()) {
            throw new FileNotFoundException("Not a file: " + location);
        }
        if (length.isEmpty()) {
            length = OptionalLong.of(status.getLen());
        }
        if (lastModified.isEmpty()) {
            lastModified = Optional.of(Instant.ofEpochMilli(status.getModificationTime()));
        }
    }

    @Override
    public boolean exists()
            throws IOException
    {
        try {
            return fileSystem.run(path, fileSystem -> fileSystem.getFileStatus(path)).isFile();
        }
        catch (FileNotFoundException e) {
            return false;
        }
    }

    @Override
    public Location location()
    {
        return location;
    }

    private FileNotFoundException withLocation(FileNotFoundException e)
    {
        FileNotFoundException named = new FileNotFoundException("File does not exist: " + location);
        named.initCause(e);
        return named;
    }

    @Override
    public String toString()
    {
        return location.toString();
    }
}
