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

import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.security.ConnectorIdentity;
import jakarta.annotation.PreDestroy;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * File systems over Hadoop's client for the schemes it serves here ({@code hdfs}, {@code viewfs} and those the
 * configuration maps). Hadoop file systems are opened here, one per (scheme, authority, user), outside Hadoop's
 * process-wide cache, and all closed when the catalog shuts down, which also ends their client threads.
 */
public final class HdfsFileSystemFactory
        implements TrinoFileSystemFactory
{
    private static final Logger log = Logger.get(HdfsFileSystemFactory.class);

    private final HdfsEnvironment environment;
    private final Map<FileSystemKey, FileSystem> fileSystems = new ConcurrentHashMap<>();
    private volatile boolean closed;

    @Inject
    public HdfsFileSystemFactory(HdfsEnvironment environment)
    {
        this.environment = requireNonNull(environment, "environment is null");
    }

    @Override
    public TrinoFileSystem create(ConnectorIdentity identity)
    {
        UserGroupInformation user = environment.user(identity);
        return new HdfsFileSystem(user, path -> fileSystem(user, path));
    }

    private FileSystem fileSystem(UserGroupInformation user, Path path)
            throws IOException
    {
        if (closed) {
            throw new IOException("The catalog is shut down: its Hadoop file systems are closed");
        }
        URI uri = path.toUri();
        FileSystemKey key = new FileSystemKey(
                uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT),
                uri.getAuthority() == null ? "" : uri.getAuthority().toLowerCase(Locale.ROOT),
                user.getUserName());
        FileSystem fileSystem = fileSystems.get(key);
        if (fileSystem != null) {
            return fileSystem;
        }
        FileSystem opened = doAs(user, () -> FileSystem.newInstance(uri, environment.configuration()));
        FileSystem existing = fileSystems.putIfAbsent(key, opened);
        if (existing != null) {
            opened.close();
            return existing;
        }
        return opened;
    }

    /**
     * Runs the action as the user, with this plugin's class loader as the thread's context class loader: Hadoop
     * finds its file systems and security providers through it (ServiceLoader), and a query thread may carry another.
     */
    static <T> T doAs(UserGroupInformation user, PrivilegedExceptionAction<T> action)
            throws IOException
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(HdfsFileSystemFactory.class.getClassLoader())) {
            return user.doAs(action);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(e.getMessage());
        }
    }

    @PreDestroy
    public void close()
    {
        closed = true;
        for (FileSystem fileSystem : fileSystems.values()) {
            try {
                fileSystem.close();
            }
            catch (IOException | RuntimeException e) {
                log.warn(e, "Failed to close Hadoop file system %s", fileSystem.getUri());
            }
        }
        fileSystems.clear();
    }

    private record FileSystemKey(String scheme, String authority, String user)
    {
        FileSystemKey
        {
            requireNonNull(scheme, "scheme is null");
            requireNonNull(authority, "authority is null");
            requireNonNull(user, "user is null");
        }
    }
}
