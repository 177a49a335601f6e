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
package io.trino.plugin.paimon.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * One stock Trino 476 process started by the repository's launcher ({@code testing/bin/run-trino --skip-build}), the
 * way a user starts it: the plugin folder built by plugin-assembly, the configuration in {@code etc/}.
 */
public final class TrinoServer
        implements AutoCloseable
{
    static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(4);

    private final Process process;
    private final int port;
    private final Path logFile;
    // a worker (--worker-of) takes no queries: only a coordinator is asked for its active nodes
    private final boolean coordinator;
    private final List<String> launcherOutput = new ArrayList<>();

    private TrinoServer(Process process, int port, Path logFile, boolean coordinator)
    {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.logFile = requireNonNull(logFile, "logFile is null");
        this.coordinator = coordinator;
    }

    /**
     * Starts the launcher with the given role arguments ({@code --coordinator-only}, {@code --worker-of PORT}, or
     * none for a single node) on the given port; {@link #awaitStarted} waits for the server.
     */
    public static TrinoServer launch(Path repositoryRoot, Path localRoot, int port, List<String> roleArguments)
            throws IOException
    {
        // the Trino release to run the plugin built for it on (-Dit.trino.version=483 in the 483 lane)
        return launch(repositoryRoot, localRoot, port, System.getProperty("paimon.trino.version", "476"), roleArguments);
    }

    /** As {@link #launch(Path, Path, int, List)}, on the given Trino release (476 or 483) with the plugin built for it. */
    public static TrinoServer launch(Path repositoryRoot, Path localRoot, int port, String trinoVersion, List<String> roleArguments)
            throws IOException
    {
        List<String> command = new ArrayList<>(List.of(
                "bash",
                repositoryRoot.resolve("testing/bin/run-trino").toString(),
                "--skip-build",
                "--trino-version", trinoVersion,
                "--port", String.valueOf(port),
                "--local-root", localRoot.toString()));
        command.addAll(roleArguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home.for.server", System.getProperty("java.home")));
        return new TrinoServer(builder.start(), port, repositoryRoot.resolve("testing/target/trino-run-" + port + "/server.log"), !roleArguments.contains("--worker-of"));
    }

    int port()
    {
        return port;
    }

    public Connection connect()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", "test");
        return DriverManager.getConnection("jdbc:trino://127.0.0.1:%s/paimon".formatted(port), properties);
    }

    /** The coordinator's JSON document of a query ({@code GET /v1/query/ID}): its final statistics, operator by operator. */
    public String queryInfoJson(String queryId)
            throws IOException, InterruptedException
    {
        // HTTP/1.1 only: the client's default, HTTP/2, asks for an h2c upgrade, and now and then it read the server's
        // HTTP/1.1 answer to a large document as HTTP/2 frames ("Frame type(34) … exceeds MAX_FRAME_SIZE")
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:%s/v1/query/%s".formatted(port, queryId)))
                    .header("X-Trino-User", "test")
                    .build();
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("GET /v1/query/%s: HTTP %s %s".formatted(queryId, response.statusCode(), response.body()));
            }
            return response.body();
        }
    }

    String previousServerLog()
    {
        Path previous = logFile.resolveSibling(logFile.getFileName() + ".1");
        try {
            return Files.exists(previous) ? Files.readString(previous, UTF_8) : "";
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String serverLog()
    {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, UTF_8) : "";
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the launcher reports the server started ("SERVER STARTED" in its log). */
    public void awaitStarted()
            throws IOException
    {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
        String line;
        while ((line = output.readLine()) != null) {
            launcherOutput.add(line);
            if (line.startsWith("Trino is running")) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Trino did not start in time:\n" + String.join("\n", launcherOutput));
            }
        }
        if (line == null) {
            throw new AssertionError("The launcher exited before Trino started:\n%s\n--- server log ---\n%s".formatted(String.join("\n", launcherOutput), serverLog()));
        }
        // keep draining the launcher's output so it never blocks on a full pipe
        Thread drainer = new Thread(() -> {
            try {
                while (output.readLine() != null) {
                    // discard
                }
            }
            catch (IOException _) {
                // the launcher is gone
            }
        });
        drainer.setDaemon(true);
        drainer.start();
        if (coordinator) {
            awaitActiveNode(deadline);
        }
    }

    // "SERVER STARTED" comes before the node announces itself; a query scheduled meanwhile fails with "No nodes
    // available", and the scheduler keeps that empty node map for seconds, so wait until the node is listed active
    private void awaitActiveNode(long deadline)
            throws IOException
    {
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection connection = connect();
                    Statement statement = connection.createStatement();
                    ResultSet nodes = statement.executeQuery("SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'")) {
                if (nodes.next() && nodes.getLong(1) > 0) {
                    return;
                }
            }
            catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(500);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
        throw new AssertionError("Trino listed no active node in time", last);
    }

    /** SIGKILL to the server and the launcher, as a crash of the machine would stop them; returns once they are gone. */
    void kill()
            throws Exception
    {
        List<ProcessHandle> processes = new ArrayList<>(process.descendants().toList());
        processes.add(process.toHandle());
        processes.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : processes) {
            if (!awaitExit(handle, Duration.ofSeconds(60))) {
                throw new AssertionError("Process %s outlived SIGKILL".formatted(handle.pid()));
            }
        }
    }

    /**
     * Polls until the process is gone: {@code ProcessHandle.onExit} completes through the common fork-join pool, which
     * has one thread on two cores, so a test that holds that thread (a blocked client) would hold the wait with it.
     */
    private static boolean awaitExit(ProcessHandle handle, Duration timeout)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (handle.isAlive()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    @Override
    public void close()
            throws Exception
    {
        // SIGTERM to the launcher, which stops the server it started
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        // the server can outlive its launcher: it must not keep running after the test
        for (ProcessHandle handle : started) {
            if (handle.isAlive()) {
                handle.destroy();
                if (!awaitExit(handle, Duration.ofSeconds(30))) {
                    handle.destroyForcibly();
                }
            }
        }
    }
}
