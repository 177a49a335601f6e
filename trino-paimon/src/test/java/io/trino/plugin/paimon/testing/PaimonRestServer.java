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
        RESTCatalogServer server = null;
        try {
            server = new RESTCatalogServer("file://" + root.resolve("data"), new BearTokenAuthProvider(TOKEN), config, warehouse);
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
