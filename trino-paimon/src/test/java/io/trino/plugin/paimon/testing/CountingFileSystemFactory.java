package io.trino.plugin.paimon.testing;

import com.google.common.collect.ConcurrentHashMultiset;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import io.trino.filesystem.TrinoOutputFile;
import io.trino.spi.security.ConnectorIdentity;

import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A file system factory that counts, per file, how often the connector opens a file to read it ({@code newStream}
 * or {@code newInput} on an input file), and passes everything on to the file system it wraps.
 */
public final class CountingFileSystemFactory
        implements TrinoFileSystemFactory
{
    private final TrinoFileSystemFactory delegate;
    private final Multiset<Location> reads = ConcurrentHashMultiset.create();

    public CountingFileSystemFactory(TrinoFileSystemFactory delegate)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public TrinoFileSystem create(ConnectorIdentity identity)
    {
        return new CountingFileSystem(delegate.create(identity));
    }

    /** Files opened for reading since the last reset, each as often as it was opened. */
    public Multiset<Location> reads()
    {
        return ImmutableMultiset.copyOf(reads);
    }

    public void reset()
    {
        reads.clear();
    }

    private final class CountingFileSystem
            implements TrinoFileSystem
    {
        private final TrinoFileSystem delegate;

        CountingFileSystem(TrinoFileSystem delegate)
        {
            this.delegate = requireNonNull(delegate, "delegate is null");
        }

        @Override
        public TrinoInputFile newInputFile(Location location)
        {
            return new CountingInputFile(delegate.newInputFile(location));
        }

        @Override
        public TrinoInputFile newInputFile(Location location, long length)
        {
            return new CountingInputFile(delegate.newInputFile(location, length));
        }

        @Override
        public TrinoInputFile newInputFile(Location location, long length, Instant lastModified)
        {
            return new CountingInputFile(delegate.newInputFile(location, length, lastModified));
        }

        @Override
        public TrinoOutputFile newOutputFile(Location location)
        {
            return delegate.newOutputFile(location);
        }

        @Override
        public void deleteFile(Location location)
                throws IOException
        {
            delegate.deleteFile(location);
        }

        @Override
        public void deleteFiles(Collection<Location> locations)
                throws IOException
        {
            delegate.deleteFiles(locations);
        }

        @Override
        public void deleteDirectory(Location location)
                throws IOException
        {
            delegate.deleteDirectory(location);
        }

        @Override
        public void renameFile(Location source, Location target)
                throws IOException
        {
            delegate.renameFile(source, target);
        }

        @Override
        public FileIterator listFiles(Location location)
                throws IOException
        {
            return delegate.listFiles(location);
        }

        @Override
        public Optional<Boolean> directoryExists(Location location)
                throws IOException
        {
            return delegate.directoryExists(location);
        }

        @Override
        public void createDirectory(Location location)
                throws IOException
        {
            delegate.createDirectory(location);
        }

        @Override
        public void renameDirectory(Location source, Location target)
                throws IOException
        {
            delegate.renameDirectory(source, target);
        }

        @Override
        public Set<Location> listDirectories(Location location)
                throws IOException
        {
            return delegate.listDirectories(location);
        }

        @Override
        public Optional<Location> createTemporaryDirectory(Location targetPath, String temporaryPrefix, String relativePrefix)
                throws IOException
        {
            return delegate.createTemporaryDirectory(targetPath, temporaryPrefix, relativePrefix);
        }
    }

    private final class CountingInputFile
            implements TrinoInputFile
    {
        private final TrinoInputFile delegate;

        CountingInputFile(TrinoInputFile delegate)
        {
            this.delegate = requireNonNull(delegate, "delegate is null");
        }

        @Override
        public TrinoInput newInput()
                throws IOException
        {
            reads.add(delegate.location());
            return delegate.newInput();
        }

        @Override
        public TrinoInputStream newStream()
                throws IOException
        {
            reads.add(delegate.location());
            return delegate.newStream();
        }

        @Override
        public long length()
                throws IOException
        {
            return delegate.length();
        }

        @Override
        public Instant lastModified()
                throws IOException
        {
            return delegate.lastModified();
        }

        @Override
        public boolean exists()
                throws IOException
        {
            return delegate.exists();
        }

        @Override
        public Location location()
        {
            return delegate.location();
        }
    }
}
