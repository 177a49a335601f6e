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
package io.trino.plugin.paimon.testing;

import com.google.common.collect.ImmutableMap;
import io.opentelemetry.api.OpenTelemetry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.s3.S3FileSystemConfig;
import io.trino.filesystem.s3.S3FileSystemFactory;
import io.trino.filesystem.s3.S3FileSystemStats;
import io.trino.spi.security.ConnectorIdentity;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static com.google.common.base.Preconditions.checkState;
import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;

/**
 * An S3-compatible server in this process: S3Proxy over a temporary folder (its filesystem store, which honours
 * {@code If-None-Match: *} with a hard link, so of two conditional PUTs of one key exactly one wins), listening on
 * 127.0.0.1 with signed requests, holding one bucket. Its objects are files under {@link #bucketFolder()}.
 */
public final class S3Server
        implements AutoCloseable
{
    public static final String BUCKET = "paimon";
    public static final String ACCESS_KEY = "paimon-access-key";
    public static final String SECRET_KEY = "paimon-secret-key";
    public static final String REGION = "us-east-1";

    private final Path root;
    private final BlobStore blobStore;
    private final S3Proxy proxy;
    private S3FileSystemFactory fileSystemFactory;

    private S3Server(Path root, BlobStore blobStore, S3Proxy proxy)
    {
        this.root = root;
        this.blobStore = blobStore;
        this.proxy = proxy;
    }

    public static S3Server start()
            throws Exception
    {
        Path root = Files.createTempDirectory("paimon-s3");
        BlobStore blobStore = new FilesystemNio2BlobStore(root.toString());
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(blobStore)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                // Trino lists with x-amz-optional-object-attributes (restore status), which S3Proxy does not know
                .ignoreUnknownHeaders(true)
                .build();
        try {
            proxy.start();
            checkState(proxy.getState().equals("STARTED"), "S3Proxy did not start: %s", proxy.getState());
            blobStore.createContainer(BUCKET);
            return new S3Server(root, blobStore, proxy);
        }
        catch (Throwable e) {
            proxy.stop();
            deleteRecursively(root, ALLOW_INSECURE);
            throw e;
        }
    }

    public URI endpoint()
    {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    /** The folder that holds the bucket's objects, one file per key. */
    public Path bucketFolder()
    {
        return root.resolve(BUCKET);
    }

    /** A warehouse location in the bucket, e.g. {@code s3://paimon/warehouse}. */
    public String warehouse(String name)
    {
        return "s3://%s/%s".formatted(BUCKET, name);
    }

    /** The catalog file of a {@code paimon} catalog over a warehouse on this server, as docs/catalogs-and-file-systems.md shows. */
    public Map<String, String> catalogProperties(String warehouse)
    {
        return ImmutableMap.<String, String>builder()
                .put("paimon.warehouse", warehouse)
                .put("fs.native-s3.enabled", "true")
                .put("s3.endpoint", endpoint().toString())
                .put("s3.region", REGION)
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", ACCESS_KEY)
                .put("s3.aws-secret-key", SECRET_KEY)
                .buildOrThrow();
    }

    /** Trino's S3 file system over this server, configured as {@link #catalogProperties} configures it; one client, closed with the server. */
    public synchronized TrinoFileSystemFactory fileSystemFactory()
    {
        if (fileSystemFactory != null) {
            return fileSystemFactory;
        }
        S3FileSystemConfig config = new S3FileSystemConfig()
                .setEndpoint(endpoint().toString())
                .setRegion(REGION)
                .setPathStyleAccess(true)
                .setAwsAccessKey(ACCESS_KEY)
                .setAwsSecretKey(SECRET_KEY);
        fileSystemFactory = new S3FileSystemFactory(OpenTelemetry.noop(), config, new S3FileSystemStats());
        return fileSystemFactory;
    }

    /**
     * Copies every file under the local folder to the same relative keys under the target location, through Trino's
     * S3 file system: how a warehouse Paimon Java wrote on local disk is put on this server (Paimon Java's own S3
     * file IO, {@code paimon-s3}, runs Hadoop 3.3's S3A, whose login calls {@code Subject.getSubject}, which Java
     * 24 and newer refuse).
     */
    public void upload(Path folder, Location target)
            throws IOException
    {
        TrinoFileSystem fileSystem = fileSystemFactory().create(ConnectorIdentity.ofUser("test"));
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Location location = target.appendPath(folder.relativize(file).toString().replace(File.separatorChar, '/'));
                fileSystem.newOutputFile(location).createOrOverwrite(Files.readAllBytes(file));
            }
        }
    }

    /** Copies every object under the location to the same relative paths under the local folder; the reverse of {@link #upload}. */
    public void download(Location source, Path folder)
            throws IOException
    {
        TrinoFileSystem fileSystem = fileSystemFactory().create(ConnectorIdentity.ofUser("test"));
        String prefix = source.path().endsWith("/") ? source.path() : source.path() + "/";
        FileIterator files = fileSystem.listFiles(source);
        while (files.hasNext()) {
            Location location = files.next().location();
            Path file = folder.resolve(location.path().substring(prefix.length()));
            Files.createDirectories(file.getParent());
            try (InputStream input = fileSystem.newInputFile(location).newStream()) {
                Files.write(file, input.readAllBytes());
            }
        }
    }

    @Override
    public void close()
            throws Exception
    {
        try {
            if (fileSystemFactory != null) {
                fileSystemFactory.destroy();
            }
            try {
                proxy.stop();
            }
            catch (TimeoutException e) {
                // on a loaded machine Jetty's graceful stop can outlast its timeout; the connectors are closed by then
                // and nothing is served any more, so the test's cleanup goes on
            }
            blobStore.close();
        }
        finally {
            try {
                deleteRecursively(root, ALLOW_INSECURE);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
