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

import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.auth.BearTokenAuthProvider;
import org.apache.paimon.rest.responses.ConfigResponse;

import java.nio.file.Files;
import java.nio.file.Path;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static java.util.Objects.requireNonNull;

/**
 * Paimon's own REST catalog server ({@code RESTCatalogServer} of Paimon 1.4.2) over a temporary folder, with a bearer
 * token, and Paimon Java's REST catalog client on it: the other side of the REST catalog tests. Closing it closes the
 * client, stops the server and removes the folder.
 */
public final class PaimonRestServer
        implements AutoCloseable
{
    public static final String TOKEN = "the-bearer-token";

    private final Path root;
    private final RESTCatalogServer server;
    private final PaimonJavaCatalog paimon;

    private PaimonRestServer(Path root, RESTCatalogServer server, PaimonJavaCatalog paimon)
    {
        this.root = requireNonNull(root, "root is null");
        this.server = requireNonNull(server, "server is null");
        this.paimon = requireNonNull(paimon, "paimon is null");
    }

    /**
     * @param config the defaults and overrides the server gives its clients
     * @param database created at once, through Paimon Java
     */
    public static PaimonRestServer start(String folderPrefix, String warehouse, ConfigResponse config, String database)
            throws Exception
    {
        Path root = Files.createTempDirectory(folderPrefix);
        return start(root, "file://" + root.resolve("data"), warehouse, config, database);
    }

    /**
     * A server over a plain folder path, as {@code RESTCatalogServer} is often started: it hands out locations without
     * a scheme ({@code /tmp/…/data/db.db/t}), which Paimon's clients read as local files.
     */
    public static PaimonRestServer startOnLocalPath(String folderPrefix, String warehouse, ConfigResponse config, String database)
            throws Exception
    {
        Path root = Files.createTempDirectory(folderPrefix);
        return start(root, root.resolve("data").toString(), warehouse, config, database);
    }

    /** The folder under which the server keeps its tables. */
    public Path dataFolder()
    {
        return root.resolve("data");
    }

    /**
     * A server whose tables lie in the bucket of an S3 server: it hands out {@code s3://} locations, which Trino opens
     * through S3Proxy and Paimon Java through {@link BucketFolderFileIO}.
     */
    public static PaimonRestServer startOnS3(String folderPrefix, S3Server s3, String warehouse, ConfigResponse config, String database)
            throws Exception
    {
        // Paimon's test server keeps its files with a local file IO whatever the location's scheme, at the location's
        // path: the temporary folder's "data". That is made a link to the same path inside the bucket's folder, so
        // the server's files are the bucket's objects under that key.
        Path root = Files.createTempDirectory(folderPrefix);
        String key = root.toAbsolutePath().toString().replaceFirst("^/+", "") + "/data";
        Path inBucket = Files.createDirectories(s3.bucketFolder().resolve(key));
        Files.createSymbolicLink(root.resolve("data"), inBucket);
        BucketFolderFileIO.serve(S3Server.BUCKET, s3.bucketFolder());
        return start(root, "s3://%s/%s".formatted(S3Server.BUCKET, key), warehouse, config, database);
    }

    private static PaimonRestServer start(Path root, String dataLocation, String warehouse, ConfigResponse config, String database)
            throws Exception
    {
        RESTCatalogServer server = null;
        try {
            server = new RESTCatalogServer(dataLocation, new BearTokenAuthProvider(TOKEN), config, warehouse);
            server.start();
            PaimonJavaCatalog paimon = PaimonJavaCatalog.onRest(server.getUrl(), warehouse, TOKEN);
            paimon.createDatabase(database);
            return new PaimonRestServer(root, server, paimon);
        }
        catch (Exception | Error e) {
            if (server != null) {
                server.shutdown();
            }
            deleteRecursively(root, ALLOW_INSECURE);
            throw e;
        }
    }

    public String url()
    {
        return server.getUrl();
    }

    public RESTCatalogServer server()
    {
        return server;
    }

    public PaimonJavaCatalog paimon()
    {
        return paimon;
    }

    @Override
    public void close()
            throws Exception
    {
        try {
            paimon.close();
        }
        finally {
            try {
                server.shutdown();
            }
            finally {
                deleteRecursively(root, ALLOW_INSECURE);
            }
        }
    }
}
