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

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A real Hive Metastore 4.0.1 with an embedded Derby database, listening on 127.0.0.1, in its own JVM on JDK 17 (Hive
 * 4 needs {@code Subject.getSubject}, which JDK 24 and newer refuse), its Derby tables made by Hive's schema tool. Its
 * class path and distribution are resolved by Maven from {@code testing/hive-metastore/pom.xml}, so none of its
 * libraries reaches the tests' or the plugin's class path.
 */
public final class HiveMetastoreServer
        implements AutoCloseable
{
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final String MAIN_CLASS = "org.apache.hadoop.hive.metastore.HiveMetaStore";
    private static final String SCHEMA_TOOL_CLASS = "org.apache.hadoop.hive.metastore.tools.schematool.MetastoreSchemaTool";

    private final Path directory;
    private final Process process;
    private final int port;

    private HiveMetastoreServer(Path directory, Process process, int port)
    {
        this.directory = directory;
        this.process = process;
        this.port = port;
    }

    /** Starts a metastore whose default warehouse folder is {@code warehouse}, and waits until it accepts connections. */
    public static HiveMetastoreServer start(Path warehouse)
            throws IOException, InterruptedException
    {
        return start(warehouse, List.of(), Map.of());
    }

    /**
     * As {@link #start(Path)}, with more JVM arguments for the server (e.g. {@code -Djava.security.krb5.conf}), and
     * Hadoop's {@code core-site.xml} for the server written from {@code coreSite} when not empty: Hadoop's security
     * (Kerberos) is configured only through that file on the class path. Metastore settings go in as
     * {@code -Dmetastore.…} arguments, which the metastore reads over its defaults.
     */
    public static HiveMetastoreServer start(Path warehouse, List<String> jvmArguments, Map<String, String> coreSite)
            throws IOException, InterruptedException
    {
        Path directory = Files.createTempDirectory("hive-metastore");
        int port = freePort();
        String classPath = classPath();
        if (!coreSite.isEmpty()) {
            Path configuration = Files.createDirectories(directory.resolve("conf"));
            StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
            coreSite.forEach((name, value) -> xml.append("  <property><name>%s</name><value>%s</value></property>%n".formatted(name, value)));
            Files.writeString(configuration.resolve("core-site.xml"), xml.append("</configuration>\n"), UTF_8);
            classPath = configuration + File.pathSeparator + classPath;
        }
        String database = "-Djavax.jdo.option.ConnectionURL=jdbc:derby:;databaseName=" + directory.resolve("metastore_db") + ";create=true";
        // Hive's own schema scripts make the tables of transactions and locks too, which DataNucleus would not
        ProcessBuilder schemaTool = new ProcessBuilder(javaExecutable(), "-cp", classPath, database, "-Dmetastore.schema.verification=false",
                "-Dderby.stream.error.file=" + directory.resolve("derby.log"),
                SCHEMA_TOOL_CLASS, "-dbType", "derby", "-initSchema")
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("schematool.log").toFile());
        schemaTool.environment().put("METASTORE_HOME", metastoreHome().toString());
        Process initialization = schemaTool.start();
        if (!initialization.waitFor(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || initialization.exitValue() != 0) {
            initialization.destroyForcibly();
            throw new IllegalStateException("Hive's schema tool failed: " + Files.readString(directory.resolve("schematool.log"), UTF_8));
        }
        List<String> command = new ArrayList<>(List.of(
                javaExecutable(),
                "-Xmx512m",
                "-cp", classPath,
                "-Dmetastore.warehouse.dir=" + warehouse.toUri(),
                database,
                "-Dmetastore.schema.verification=false",
                "-Dderby.stream.error.file=" + directory.resolve("derby.log")));
        command.addAll(jvmArguments);
        command.addAll(List.of(
                MAIN_CLASS,
                "-p", String.valueOf(port)));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("metastore.log").toFile())
                .start();
        HiveMetastoreServer server = new HiveMetastoreServer(directory, process, port);
        try {
            server.awaitListening();
            return server;
        }
        catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    public String uri()
    {
        return "thrift://127.0.0.1:" + port;
    }

    private void awaitListening()
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Hive metastore exited with %s: %s".formatted(process.exitValue(), log()));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            }
            catch (IOException _) {
                Thread.sleep(500);
            }
        }
        throw new IllegalStateException("Hive metastore did not listen on port %s within %s: %s".formatted(port, STARTUP_TIMEOUT, log()));
    }

    private String log()
            throws IOException
    {
        String log = Files.readString(directory.resolve("metastore.log"), UTF_8);
        return log.substring(Math.max(0, log.length() - 4000));
    }

    @Override
    public void close()
    {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            deleteRecursively(directory, ALLOW_INSECURE);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** JDK 17: {@code HIVE_METASTORE_JAVA} when set, else the machine's JDK 17. */
    private static String javaExecutable()
    {
        String configured = System.getenv("HIVE_METASTORE_JAVA");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return "/usr/lib/jvm/java-17-openjdk-amd64/bin/java";
    }

    /** The server's class path, resolved once by Maven into {@code testing/hive-metastore/target/classpath.txt}. */
    private static synchronized String classPath()
            throws IOException, InterruptedException
    {
        Path classPathFile = repositoryRoot().resolve("testing/hive-metastore/target/classpath.txt");
        if (!Files.exists(classPathFile)) {
            maven("dependency:build-classpath", "-Dmdep.outputFile=" + classPathFile);
        }
        return Files.readString(classPathFile, UTF_8).trim();
    }

    /** The metastore's binary distribution, for its schema scripts, unpacked once by Maven. */
    private static synchronized Path metastoreHome()
            throws IOException, InterruptedException
    {
        Path home = repositoryRoot().resolve("testing/hive-metastore/target/metastore-home/apache-hive-metastore-4.0.1-bin");
        if (!Files.isDirectory(home)) {
            maven("dependency:unpack", "-Dartifact=org.apache.hive:hive-standalone-metastore-server:4.0.1:tar.gz:bin",
                    "-DoutputDirectory=" + home.getParent());
        }
        return home;
    }

    private static void maven(String... goalAndProperties)
            throws IOException, InterruptedException
    {
        Path root = repositoryRoot();
        Path pom = root.resolve("testing/hive-metastore/pom.xml");
        List<String> command = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-q", "-f", pom.toString()));
        command.addAll(List.of(goalAndProperties));
        Process maven = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!maven.waitFor(10, TimeUnit.MINUTES) || maven.exitValue() != 0) {
            maven.destroyForcibly();
            throw new IllegalStateException("Maven failed: " + String.join(" ", command));
        }
    }

    private static Path repositoryRoot()
    {
        Path directory = Path.of("").toAbsolutePath();
        while (directory != null && !Files.exists(directory.resolve("testing/hive-metastore/pom.xml"))) {
            directory = directory.getParent();
        }
        if (directory == null) {
            throw new IllegalStateException("testing/hive-metastore/pom.xml not found above " + Path.of("").toAbsolutePath());
        }
        return directory;
    }
}
