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
package io.trino.plugin.paimon.catalog.rest;

import io.airlift.units.Duration;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import io.trino.filesystem.TrinoOutputFile;
import io.trino.filesystem.UriLocation;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * A table's file system opened with the table's data token. When the storage refuses the token (HTTP 403), the
 * failure names the table and the catalog's server, and the token is forgotten so that the next use asks the server
 * for a new one; any other failure passes through as it is.
 * <p>
 * Opening, listing, creating and deleting files are checked here. A read of an already opened file that the storage
 * refuses reports the file, as every read failure does.
 */
final class DataTokenFileSystem
        implements TrinoFileSystem
{
    private final TrinoFileSystem delegate;
    private final SchemaTableName table;
    private final Runnable forgetToken;

    DataTokenFileSystem(TrinoFileSystem delegate, SchemaTableName table, Runnable forgetToken)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.table = requireNonNull(table, "table is null");
        this.forgetToken = requireNonNull(forgetToken, "forgetToken is null");
    }

    @Override
    public TrinoInputFile newInputFile(Location location)
    {
        return new InputFile(delegate.newInputFile(location));
    }

    @Override
    public TrinoInputFile newInputFile(Location location, long length)
    {
        return new InputFile(delegate.newInputFile(location, length));
    }

    @Override
    public TrinoInputFile newInputFile(Location location, long length, Instant lastModified)
    {
        return new InputFile(delegate.newInputFile(location, length, lastModified));
    }

    @Override
    public TrinoOutputFile newOutputFile(Location location)
    {
        return new OutputFile(delegate.newOutputFile(location));
    }

    @Override
    public void deleteFile(Location location)
            throws IOException
    {
        checked(location, () -> {
            delegate.deleteFile(location);
            return null;
        });
    }

    @Override
    public void deleteFiles(Collection<Location> locations)
            throws IOException
    {
        checked(locations.stream().findFirst().orElse(null), () -> {
            delegate.deleteFiles(locations);
            return null;
        });
    }

    @Override
    public void deleteDirectory(Location location)
            throws IOException
    {
        checked(location, () -> {
            delegate.deleteDirectory(location);
            return null;
        });
    }

    @Override
    public void renameFile(Location source, Location target)
            throws IOException
    {
        checked(source, () -> {
            delegate.renameFile(source, target);
            return null;
        });
    }

    @Override
    public FileIterator listFiles(Location location)
            throws IOException
    {
        FileIterator files = checked(location, () -> delegate.listFiles(location));
        // S3 lists page by page, so a later page can be refused too
        return new FileIterator()
        {
            @Override
            public boolean hasNext()
                    throws IOException
            {
                return checked(location, files::hasNext);
            }

            @Override
            public FileEntry next()
                    throws IOException
            {
                return checked(location, files::next);
            }
        };
    }

    @Override
    public Optional<Boolean> directoryExists(Location location)
            throws IOException
    {
        return checked(location, () -> delegate.directoryExists(location));
    }

    @Override
    public void createDirectory(Location location)
            throws IOException
    {
        checked(location, () -> {
            delegate.createDirectory(location);
            return null;
        });
    }

    @Override
    public void renameDirectory(Location source, Location target)
            throws IOException
    {
        checked(source, () -> {
            delegate.renameDirectory(source, target);
            return null;
        });
    }

    @Override
    public Set<Location> listDirectories(Location location)
            throws IOException
    {
        return checked(location, () -> delegate.listDirectories(location));
    }

    @Override
    public Optional<Location> createTemporaryDirectory(Location targetPath, String temporaryPrefix, String relativePrefix)
            throws IOException
    {
        return checked(targetPath, () -> delegate.createTemporaryDirectory(targetPath, temporaryPrefix, relativePrefix));
    }

    @Override
    public Optional<UriLocation> preSignedUri(Location location, Duration ttl)
            throws IOException
    {
        return checked(location, () -> delegate.preSignedUri(location, ttl));
    }

    private <T> T checked(Location location, FileOperation<T> operation)
            throws IOException
    {
        try {
            return operation.run();
        }
        catch (IOException | RuntimeException e) {
            if (!refused(e)) {
                throw e;
            }
            forgetToken.run();
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "The storage refused the data token the REST catalog server gave for table '%s' (access denied to %s)".formatted(table, location), e);
        }
    }

    // S3's refusal of the credentials, as Trino's S3 file system reports it (the AWS SDK's "Status Code: 403")
    private static boolean refused(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && (message.contains("Status Code: 403") || message.contains("Access Denied"))) {
                return true;
            }
        }
        return false;
    }

    private interface FileOperation<T>
    {
        T run()
                throws IOException;
    }

    private final class InputFile
            implements TrinoInputFile
    {
        private final TrinoInputFile file;

        private InputFile(TrinoInputFile file)
        {
            this.file = requireNonNull(file, "file is null");
        }

        @Override
        public TrinoInput newInput()
                throws IOException
        {
            return checked(file.location(), file::newInput);
        }

        @Override
        public TrinoInputStream newStream()
                throws IOException
        {
            return checked(file.location(), file::newStream);
        }

        @Override
        public long length()
                throws IOException
        {
            return checked(file.location(), file::length);
        }

        @Override
        public Instant lastModified()
                throws IOException
        {
            return checked(file.location(), file::lastModified);
        }

        @Override
        public boolean exists()
                throws IOException
        {
            return checked(file.location(), file::exists);
        }

        @Override
        public Location location()
        {
            return file.location();
        }
    }

    private final class OutputFile
            implements TrinoOutputFile
    {
        private final TrinoOutputFile file;

        private OutputFile(TrinoOutputFile file)
        {
            this.file = requireNonNull(file, "file is null");
        }

        @Override
        public OutputStream create()
                throws IOException
        {
            return checked(file.location(), file::create);
        }

        @Override
        public void createOrOverwrite(byte[] data)
                throws IOException
        {
            checked(file.location(), () -> {
                file.createOrOverwrite(data);
                return null;
            });
        }

        @Override
        public void createExclusive(byte[] data)
                throws IOException
        {
            checked(file.location(), () -> {
                file.createExclusive(data);
                return null;
            });
        }

        @Override
        public OutputStream create(AggregatedMemoryContext memoryContext)
                throws IOException
        {
            return checked(file.location(), () -> file.create(memoryContext));
        }

        @Override
        public Location location()
        {
            return file.location();
        }
    }
}
