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

import com.google.common.collect.ImmutableList;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static java.util.Objects.requireNonNull;

/**
 * Two stock Trino 476 processes on 127.0.0.1 over one warehouse, each started by the launcher with its own plugin
 * folder: a coordinator that schedules no work on itself ({@code --coordinator-only}) and one worker
 * ({@code --worker-of}). Every task of a query runs on the worker, so a write's page sinks run there and their
 * fragments travel to the coordinator, which commits.
 */
final class TrinoCluster
        implements AutoCloseable
{
    private final TrinoServer coordinator;
    private final TrinoServer worker;
    private final List<String> catalogFiles;

    private TrinoCluster(TrinoServer coordinator, TrinoServer worker, List<String> catalogFiles)
    {
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.worker = requireNonNull(worker, "worker is null");
        this.catalogFiles = ImmutableList.copyOf(catalogFiles);
    }

    static TrinoCluster start(Path repositoryRoot, Path localRoot)
            throws Exception
    {
        return start(repositoryRoot, localRoot, List.of());
    }

    /** Starts the cluster with the given catalog files beside {@code paimon}, on both nodes. */
    static TrinoCluster start(Path repositoryRoot, Path localRoot, List<Path> catalogFiles)
            throws Exception
    {
        return start(repositoryRoot, localRoot, freePort(), freePort(), catalogFiles.stream().map(Path::toString).toList());
    }

    /** Starts the cluster again on the ports it had, as an operator restarts a server that crashed. */
    TrinoCluster restart(Path repositoryRoot, Path localRoot)
            throws Exception
    {
        return start(repositoryRoot, localRoot, coordinator.port(), worker.port(), catalogFiles);
    }

    private static TrinoCluster start(Path repositoryRoot, Path localRoot, int coordinatorPort, int workerPort, List<String> catalogFiles)
            throws Exception
    {
        List<String> catalogArguments = catalogFiles.stream().flatMap(file -> Stream.of("--catalog-file", file)).toList();
        // both start at once: the worker keeps announcing itself until the coordinator's discovery answers
        TrinoServer coordinator = TrinoServer.launch(repositoryRoot, localRoot, coordinatorPort, ImmutableList.<String>builder().add("--coordinator-only").addAll(catalogArguments).build());
        TrinoServer worker;
        try {
            worker = TrinoServer.launch(repositoryRoot, localRoot, workerPort, ImmutableList.<String>builder().add("--worker-of", String.valueOf(coordinatorPort)).addAll(catalogArguments).build());
        }
        catch (Exception e) {
            coordinator.close();
            throw e;
        }
        TrinoCluster cluster = new TrinoCluster(coordinator, worker, catalogFiles);
        try {
            coordinator.awaitStarted();
            worker.awaitStarted();
            cluster.awaitWorkerActive();
        }
        catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** A JDBC connection to the coordinator, catalog {@code paimon}. */
    Connection connect()
            throws SQLException
    {
        return coordinator.connect();
    }

    String coordinatorLog()
    {
        return coordinator.serverLog();
    }

    String workerLog()
    {
        return worker.serverLog();
    }

    /** The coordinator's log of the run before this one on its port, kept by the launcher. */
    String previousCoordinatorLog()
    {
        return coordinator.previousServerLog();
    }

    /** The worker's node id, as {@code system.runtime.nodes} and {@code system.runtime.tasks} name it. */
    String workerNodeId()
            throws SQLException
    {
        return singleValue("SELECT node_id FROM system.runtime.nodes WHERE coordinator = false AND http_uri LIKE '%:" + worker.port() + "'");
    }

    String coordinatorNodeId()
            throws SQLException
    {
        return singleValue("SELECT node_id FROM system.runtime.nodes WHERE coordinator = true");
    }

    // until the worker has announced itself, queries fail with "No nodes available to run query"
    private void awaitWorkerActive()
            throws Exception
    {
        long deadline = System.nanoTime() + TrinoServer.STARTUP_TIMEOUT.toNanos();
        Exception lastFailure = null;
        while (System.nanoTime() < deadline) {
            try {
                if (singleValue("SELECT count(*) FROM system.runtime.nodes WHERE coordinator = false AND state = 'active'").equals("1")) {
                    return;
                }
            }
            catch (SQLException e) {
                lastFailure = e;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("The worker did not join the coordinator:\n--- coordinator log ---\n%s\n--- worker log ---\n%s".formatted(coordinatorLog(), workerLog()), lastFailure);
    }

    private String singleValue(String sql)
            throws SQLException
    {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            if (!result.next()) {
                throw new SQLException("no row: " + sql);
            }
            String value = result.getString(1);
            if (result.next()) {
                throw new SQLException("more than one row: " + sql);
            }
            return value;
        }
    }

    /** SIGKILL to both servers at once. */
    void kill()
            throws Exception
    {
        try {
            coordinator.kill();
        }
        finally {
            worker.kill();
        }
    }

    @Override
    public void close()
            throws Exception
    {
        try {
            worker.close();
        }
        finally {
            coordinator.close();
        }
    }
}
