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
package io.trino.plugin.paimon.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.units.DataSize;
import io.trino.Session;
import io.trino.jdbc.TrinoResultSet;
import io.trino.plugin.paimon.server.TrinoServer;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.trino.plugin.paimon.read.PaimonPageSource.FILES_OPENED_METRIC;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static java.util.Objects.requireNonNull;

/**
 * Where {@link BenchmarkStarJoin} runs its queries: an in-process Trino 476, or a real server of a given release
 * (our plugin folder built for it), whose final query statistics come from the coordinator's {@code /v1/query} document.
 */
interface StarJoinEngine
        extends AutoCloseable
{
    /** A join's rows (each value a long, a BigDecimal or a string) and what its scans read. */
    record Run(List<List<Object>> rows, long elapsedNanos, long splits, long filesOpened, long physicalInputBytes, long physicalInputRows)
    {
        public Run
        {
            rows = List.copyOf(rows);
        }
    }

    String name();

    void execute(String sql)
            throws Exception;

    Run run(boolean dynamicFiltering, String sql)
            throws Exception;

    static StarJoinEngine inProcess(Path root, String schema)
            throws Exception
    {
        return new InProcess(PaimonQueryRunner.create(root, schema));
    }

    static StarJoinEngine server(Path repositoryRoot, Path root, String version)
            throws Exception
    {
        TrinoServer server = TrinoServer.launch(repositoryRoot, root, freePort(), version, List.of());
        try {
            server.awaitStarted();
            return new Server(version, server, server.connect());
        }
        catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    // values compared across engines: numbers as the JDBC driver and the query runner both can give them
    private static List<Object> normalized(List<?> values)
    {
        List<Object> row = new ArrayList<>();
        for (Object value : values) {
            row.add(switch (value) {
                case Integer number -> number.longValue();
                case Long number -> number;
                case BigDecimal decimal -> decimal.stripTrailingZeros();
                case null -> "null";
                default -> value.toString();
            });
        }
        return row;
    }

    final class InProcess
            implements StarJoinEngine
    {
        private final QueryRunner queryRunner;

        InProcess(QueryRunner queryRunner)
        {
            this.queryRunner = requireNonNull(queryRunner, "queryRunner is null");
        }

        @Override
        public String name()
        {
            return "476 in process";
        }

        @Override
        public void execute(String sql)
        {
            queryRunner.execute(sql);
        }

        @Override
        public Run run(boolean dynamicFiltering, String sql)
        {
            Session session = Session.builder(queryRunner.getDefaultSession())
                    .setSystemProperty("enable_dynamic_filtering", String.valueOf(dynamicFiltering))
                    .build();
            ScanStatistics statistics = ScanStatistics.execute(queryRunner, session, sql);
            List<List<Object>> rows = statistics.result().getMaterializedRows().stream()
                    .map(MaterializedRow::getFields)
                    .map(StarJoinEngine::normalized)
                    .toList();
            return new Run(rows, statistics.elapsedNanos(), statistics.splits(), statistics.filesOpened(), statistics.physicalInputBytes(), statistics.physicalInputRows());
        }

        @Override
        public void close()
        {
            queryRunner.close();
        }
    }

    final class Server
            implements StarJoinEngine
    {
        private static final ObjectMapper JSON = new ObjectMapper();

        private final String version;
        private final TrinoServer server;
        private final Connection connection;

        Server(String version, TrinoServer server, Connection connection)
        {
            this.version = requireNonNull(version, "version is null");
            this.server = requireNonNull(server, "server is null");
            this.connection = requireNonNull(connection, "connection is null");
        }

        @Override
        public String name()
        {
            return version;
        }

        @Override
        public void execute(String sql)
                throws Exception
        {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }

        @Override
        public Run run(boolean dynamicFiltering, String sql)
                throws Exception
        {
            execute("SET SESSION enable_dynamic_filtering = " + dynamicFiltering);
            List<List<Object>> rows = new ArrayList<>();
            String queryId;
            long start = System.nanoTime();
            try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
                queryId = result.unwrap(TrinoResultSet.class).getQueryId();
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int column = 1; column <= columns; column++) {
                        row.add(result.getObject(column));
                    }
                    rows.add(normalized(row));
                }
            }
            long clientNanos = System.nanoTime() - start;
            // the coordinator's document: operator summaries with our connector's metrics, as ScanStatistics reads them in process
            JsonNode stats = JSON.readTree(server.queryInfoJson(queryId)).path("queryStats");
            long splits = 0;
            long filesOpened = 0;
            for (JsonNode operator : stats.path("operatorSummaries")) {
                String type = operator.path("operatorType").asText();
                if (type.equals("TableScanOperator") || type.equals("ScanFilterAndProjectOperator")) {
                    splits += operator.path("totalDrivers").asLong();
                }
                // Metrics serializes as its map of metric name to metric
                filesOpened += operator.path("connectorMetrics").path(FILES_OPENED_METRIC).path("total").asLong();
            }
            long bytes = DataSize.valueOf(stats.path("physicalInputDataSize").asText("0B")).toBytes();
            return new Run(rows, clientNanos, splits, filesOpened, bytes, stats.path("physicalInputPositions").asLong());
        }

        @Override
        public void close()
                throws Exception
        {
            try {
                connection.close();
            }
            finally {
                server.close();
            }
        }
    }
}
