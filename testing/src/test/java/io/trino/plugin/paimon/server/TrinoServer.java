package io.trino.plugin.paimon.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * A stock Trino 476 started by the repository's launcher ({@code testing/bin/run-trino --skip-build}), the way a
 * user starts it: the plugin folder built by plugin-assembly, the configuration in {@code etc/}.
 */
final class TrinoServer
        implements AutoCloseable
{
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(4);

    private final Process process;
    private final int port;
    private final Path logFile;
    private final List<String> launcherOutput = new ArrayList<>();

    private TrinoServer(Process process, int port, Path logFile)
    {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.logFile = requireNonNull(logFile, "logFile is null");
    }

    static TrinoServer start(Path repositoryRoot, Path localRoot)
            throws Exception
    {
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder(
                "bash",
                repositoryRoot.resolve("testing/bin/run-trino").toString(),
                "--skip-build",
                "--port", String.valueOf(port),
                "--local-root", localRoot.toString())
                .redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home.for.server", System.getProperty("java.home")));
        Process process = builder.start();
        TrinoServer server = new TrinoServer(process, port, repositoryRoot.resolve("testing/target/trino-run-" + port + "/server.log"));
        try {
            server.awaitReady();
        }
        catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
        return server;
    }

    Connection connect()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", "test");
        return DriverManager.getConnection("jdbc:trino://127.0.0.1:%s/paimon".formatted(port), properties);
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

    private void awaitReady()
            throws Exception
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

        // right after start, queries can fail with "No nodes available to run query"
        SQLException lastFailure = null;
        while (System.nanoTime() < deadline) {
            try (Connection connection = connect()) {
                connection.createStatement().executeQuery("SELECT 1").close();
                return;
            }
            catch (SQLException e) {
                lastFailure = e;
                Thread.sleep(500);
            }
        }
        throw new AssertionError("Trino does not answer queries", lastFailure);
    }

    @Override
    public void close()
            throws Exception
    {
        // SIGTERM to the launcher, which stops the server it started
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
