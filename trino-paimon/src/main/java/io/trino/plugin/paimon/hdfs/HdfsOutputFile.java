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
import io.trino.filesystem.TrinoOutputFile;
import io.trino.memory.context.AggregatedMemoryContext;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.viewfs.ViewFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.UUID;

import static io.trino.plugin.paimon.hdfs.HdfsFileSystem.hadoopPath;
import static java.util.Objects.requireNonNull;

/**
 * A file written through Hadoop's client. {@link #create} fails when the file exists (HDFS's create without
 * overwrite is exclusive). {@link #createExclusive} publishes the whole content at once: it is written to a hidden
 * file beside the target and renamed onto it, and HDFS refuses, atomically in its NameNode, a rename onto an existing
 * file, so of two writers publishing one file exactly one succeeds, and no reader sees it half written.
 */
final class HdfsOutputFile
        implements TrinoOutputFile
{
    private final Location location;
    private final Path path;
    private final HdfsFileSystem fileSystem;

    HdfsOutputFile(Location location, HdfsFileSystem fileSystem)
    {
        this.location = requireNonNull(location, "location is null");
        location.verifyValidFileLocation();
        this.path = hadoopPath(location);
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    }

    @Override
    public OutputStream create(AggregatedMemoryContext memoryContext)
            throws IOException
    {
        // the Hadoop client buffers a packet at a time in its own memory, which Trino's memory context cannot see
        try {
            return fileSystem.run(path, fileSystem -> fileSystem.create(path, false));
        }
        catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            throw alreadyExists(e);
        }
    }

    @Override
    public void createOrOverwrite(byte[] data)
            throws IOException
    {
        fileSystem.run(path, fileSystem -> {
            try (FSDataOutputStream output = fileSystem.create(path, true)) {
                output.write(data);
            }
            return null;
        });
    }

    @Override
    public void createExclusive(byte[] data)
            throws IOException
    {
        fileSystem.run(path, fileSystem -> {
            if (!renamesExclusively(fileSystem)) {
                throw new UnsupportedOperationException("The Hadoop file system of %s (%s) may replace an existing file on rename, so it has no exclusive create".formatted(location, fileSystem.getScheme()));
            }
            if (fileSystem.exists(path)) {
                throw new FileAlreadyExistsException(location.toString());
            }
            Path temporary = new Path(path.getParent(), ".%s.%s.tmp".formatted(path.getName(), UUID.randomUUID()));
            try (FSDataOutputStream output = fileSystem.create(temporary, false)) {
                output.write(data);
            }
            boolean renamed;
            try {
                renamed = fileSystem.rename(temporary, path);
            }
            catch (IOException | RuntimeException e) {
                deleteQuietly(fileSystem, temporary);
                throw e;
            }
            if (!renamed) {
                deleteQuietly(fileSystem, temporary);
                if (fileSystem.exists(path)) {
                    throw new FileAlreadyExistsException(location.toString());
                }
                throw new IOException("Failed to rename %s onto %s".formatted(temporary, location));
            }
            return null;
        });
    }

    // HDFS refuses a rename onto an existing file (ViewFileSystem passes the rename to the mount's file system);
    // other Hadoop file systems (the local one, object stores) may replace the target
    private static boolean renamesExclusively(FileSystem fileSystem)
    {
        if (fileSystem instanceof DistributedFileSystem) {
            return true;
        }
        if (fileSystem instanceof ViewFileSystem viewFileSystem) {
            FileSystem[] targets = viewFileSystem.getChildFileSystems();
            if (targets.length == 0) {
                return false;
            }
            for (FileSystem target : targets) {
                if (!renamesExclusively(target)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static void deleteQuietly(FileSystem fileSystem, Path temporary)
    {
        try {
            fileSystem.delete(temporary, false);
        }
        catch (IOException _) {
            // a leftover hidden file is harmless: readers of metadata never list dot files
        }
    }

    private FileAlreadyExistsException alreadyExists(org.apache.hadoop.fs.FileAlreadyExistsException cause)
    {
        FileAlreadyExistsException exception = new FileAlreadyExistsException(location.toString());
        exception.initCause(cause);
        return exception;
    }

    @Override
    public Location location()
    {
        return location;
    }

    @Override
    public String toString()
    {
        return location.toString();
    }
}
