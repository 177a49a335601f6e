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

import com.google.common.collect.ImmutableSet;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoOutputFile;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import static io.trino.plugin.paimon.hdfs.HdfsFileSystemFactory.doAs;
import static java.util.Objects.requireNonNull;

/**
 * Trino's file system contract over a Hadoop file system, in the Hadoop client's own semantics (a hierarchical file
 * system: real directories, real renames). Every call runs as the user of the query's identity.
 */
final class HdfsFileSystem
        implements TrinoFileSystem
{
    private final UserGroupInformation user;
    private final FileSystemResolver fileSystems;

    HdfsFileSystem(UserGroupInformation user, FileSystemResolver fileSystems)
    {
        this.user = requireNonNull(user, "user is null");
        this.fileSystems = requireNonNull(fileSystems, "fileSystems is null");
    }

    @FunctionalInterface
    interface FileSystemResolver
    {
        FileSystem fileSystem(Path path)
                throws IOException;
    }

    static Path hadoopPath(Location location)
    {
        return new Path(location.toString());
    }

    @Override
    public TrinoInputFile newInputFile(Location location)
    {
        return new HdfsInputFile(location, OptionalLong.empty(), Optional.empty(), this);
    }

    @Override
    public TrinoInputFile newInputFile(Location location, long length)
    {
        return new HdfsInputFile(location, OptionalLong.of(length), Optional.empty(), this);
    }

    @Override
    public TrinoInputFile newInputFile(Location location, long length, Instant lastModified)
    {
        return new HdfsInputFile(location, OptionalLong.of(length), Optional.of(lastModified), this);
    }

    @Override
    public TrinoOutputFile newOutputFile(Location location)
    {
        return new HdfsOutputFile(location, this);
    }

    @Override
    public void deleteFile(Location location)
            throws IOException
    {
        Path path = hadoopPath(location);
        run(path, fileSystem -> {
            FileStatus status;
            try {
                status = fileSystem.getFileStatus(path);
            }
            catch (FileNotFoundException e) {
                return null;
            }
            if (status.isDirectory()) {
                throw new IOException("Cannot delete %s: it is a directory".formatted(location));
            }
            if (!fileSystem.delete(path, false) && fileSystem.exists(path)) {
                throw new IOException("Failed to delete " + location);
            }
            return null;
        });
    }

    @Override
    public void deleteDirectory(Location location)
            throws IOException
    {
        Path path = hadoopPath(location);
        run(path, fileSystem -> {
            FileStatus status;
            try {
                status = fileSystem.getFileStatus(path);
            }
            catch (FileNotFoundException e) {
                return null;
            }
            if (!status.isDirectory()) {
                throw new IOException("Cannot delete directory %s: it is a file".formatted(location));
            }
            if (!fileSystem.delete(path, true) && fileSystem.exists(path)) {
                throw new IOException("Failed to delete directory " + location);
            }
            return null;
        });
    }

    @Override
    public void renameFile(Location source, Location target)
            throws IOException
    {
        Path sourcePath = hadoopPath(source);
        Path targetPath = hadoopPath(target);
        run(sourcePath, fileSystem -> {
            if (!fileSystem.getFileStatus(sourcePath).isFile()) {
                throw new IOException("Cannot rename %s: it is not a file".formatted(source));
            }
            rename(fileSystem, sourcePath, source, targetPath, target);
            return null;
        });
    }

    @Override
    public FileIterator listFiles(Location location)
            throws IOException
    {
        Path path = hadoopPath(location);
        return run(path, fileSystem -> {
            try {
                if (!fileSystem.getFileStatus(path).isDirectory()) {
                    throw new IOException("Cannot list files of %s: it is a file".formatted(location));
                }
                return new HdfsFileIterator(location, fileSystem.makeQualified(path), fileSystem.listFiles(path, true));
            }
            catch (FileNotFoundException e) {
                return FileIterator.empty();
            }
        });
    }

    @Override
    public Optional<Boolean> directoryExists(Location location)
            throws IOException
    {
        Path path = hadoopPath(location);
        return run(path, fileSystem -> {
            try {
                return Optional.of(fileSystem.getFileStatus(path).isDirectory());
            }
            catch (FileNotFoundException e) {
                return Optional.of(false);
            }
        });
    }

    @Override
    public void createDirectory(Location location)
            throws IOException
    {
        Path path = hadoopPath(location);
        run(path, fileSystem -> {
            // mkdirs fails (FileAlreadyExistsException or false) when the path or a parent is a file
            if (!fileSystem.mkdirs(path)) {
                throw new IOException("Failed to create directory " + location);
            }
            return null;
        });
    }

    @Override
    public void renameDirectory(Location source, Location target)
            throws IOException
    {
        Path sourcePath = hadoopPath(source);
        Path targetPath = hadoopPath(target);
        run(sourcePath, fileSystem -> {
            if (!fileSystem.getFileStatus(sourcePath).isDirectory()) {
                throw new IOException("Cannot rename directory %s: it is not a directory".formatted(source));
            }
            rename(fileSystem, sourcePath, source, targetPath, target);
            return null;
        });
    }

    // Hadoop's rename moves the source into the target when the target is a directory, so an existing target is refused first
    private static void rename(FileSystem fileSystem, Path sourcePath, Location source, Path targetPath, Location target)
            throws IOException
    {
        if (fileSystem.exists(targetPath)) {
            throw new FileAlreadyExistsException(target.toString(), source.toString(), "target exists");
        }
        Path parent = targetPath.getParent();
        if (parent != null && !fileSystem.mkdirs(parent)) {
            throw new IOException("Failed to create directory %s for %s".formatted(parent, target));
        }
        if (!fileSystem.rename(sourcePath, targetPath)) {
            throw new IOException("Failed to rename %s to %s".formatted(source, target));
        }
    }

    @Override
    public Set<Location> listDirectories(Location location)
            throws IOException
    {
        Path path = hadoopPath(location);
        return run(path, fileSystem -> {
            FileStatus[] statuses;
            try {
                if (!fileSystem.getFileStatus(path).isDirectory()) {
                    throw new IOException("Cannot list directories of %s: it is a file".formatted(location));
                }
                statuses = fileSystem.listStatus(path);
            }
            catch (FileNotFoundException e) {
                return ImmutableSet.of();
            }
            ImmutableSet.Builder<Location> directories = ImmutableSet.builder();
            for (FileStatus status : statuses) {
                if (status.isDirectory()) {
                    directories.add(location.appendPath(status.getPath().getName()).appendSuffix("/"));
                }
            }
            return directories.build();
        });
    }

    @Override
    public Optional<Location> createTemporaryDirectory(Location targetPath, String temporaryPrefix, String relativePrefix)
            throws IOException
    {
        // the relative prefix keeps the directory beside the target, so it can be renamed there
        Location temporary = targetPath.appendPath(relativePrefix).appendPath(UUID.randomUUID().toString());
        createDirectory(temporary);
        return Optional.of(temporary);
    }

    /** Runs the action as this file system's user, with the Hadoop file system that holds the path. */
    <T> T run(Path path, FileSystemAction<T> action)
            throws IOException
    {
        FileSystem fileSystem = fileSystems.fileSystem(path);
        return doAs(user, (PrivilegedExceptionAction<T>) () -> action.apply(fileSystem));
    }

    @FunctionalInterface
    interface FileSystemAction<T>
    {
        T apply(FileSystem fileSystem)
                throws IOException;
    }
}
