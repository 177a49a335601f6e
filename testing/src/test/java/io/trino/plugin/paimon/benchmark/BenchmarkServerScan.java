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

import io.trino.plugin.paimon.benchmark.ReadAmplificationTables.Shape;
import io.trino.plugin.paimon.server.TrinoServer;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.COMPACTED;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DATABASE;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;

/**
 * Full scans end to end through real Trino servers (issue 15): the 476 tarball's core, or Trino 483 assembled from Maven
 * artifacts, with our plugin folder built for the release and the release's own Hive connector
 * ({@code testing/bin/run-trino --with-hive}), one process per release, 2M live rows in 4
 * buckets written by Paimon Java ({@link ReadAmplificationTables}), every column consumed by an aggregate. Cases:
 * <ul>
 * <li>our merged read of the random and clustered tables at R = 5 and R = 8, with late materialization and with
 * every page read whole ({@code late_materialization_enabled = false});</li>
 * <li>our read of the same live rows compacted into one sorted run per bucket;</li>
 * <li>the no-merge floor: the Hive connector scanning the same Parquet files (hard links to the live files of each
 * table's snapshot), every physical record decoded, nothing merged.</li>
 * </ul>
 * The cases run interleaved, each iteration one query of every case in turn, so that the machine's noise falls on all
 * alike; the time is the client's, from sending the query to its last row. Run:
 * {@code ./mvnw -B -DskipTests -Pbenchmark -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkServerScan package -pl testing -am},
 * flags {@code --rows=N}, {@code --warmups=N}, {@code --iterations=N}, {@code --trino-versions=476,483} (default 476:
 * with both, a server of each release serves the same tables and every case runs on both in turn; the report adds the
 * ratios side by side).
 */
public final class BenchmarkServerScan
{
    private static final String SCAN_QUERY = """
            SELECT count(*), sum(id), max(c_long), sum(c_double), max(c_short_text), max(c_long_text), sum(c_int), sum(c_decimal), max(c_date), count_if(c_bool)
            FROM %s
            """;
    private static final List<Integer> SORTED_RUNS = List.of(5, 8);

    private BenchmarkServerScan() {}

    private record Case(String name, String table, String sql, boolean late) {}

    public static void main(String[] args)
            throws Exception
    {
        TrinoReleases releases = TrinoReleases.parse(args, "476");
        IntegerFlags flags = IntegerFlags.parse(releases.otherArguments(), Map.of("rows", 2_000_000, "warmups", 1, "iterations", 5));
        int rows = flags.get("rows");
        Path repositoryRoot = Path.of("..").toAbsolutePath().normalize();
        Path root = Files.createTempDirectory("paimon-server-scan");
        List<TrinoServer> servers = new ArrayList<>();
        List<Connection> connections = new ArrayList<>();
        try {
            List<String> tables = writeTables(root, rows);
            // one server per release over the same local root: the same Paimon tables, the same Hive floor tables
            for (String version : releases.versions()) {
                TrinoServer server = TrinoServer.launch(repositoryRoot, root, freePort(), version, List.of("--with-hive"));
                servers.add(server);
                server.awaitStarted();
                connections.add(server.connect());
            }
            Map<String, Long> physicalRows;
            try (Statement statement = connections.getFirst().createStatement()) {
                physicalRows = linkFloorFiles(statement, root, tables);
            }
            for (Connection connection : connections) {
                try (Statement statement = connection.createStatement()) {
                    createFloorTables(statement, tables);
                }
            }
            List<Case> cases = cases(tables);
            Map<String, Map<Case, List<Long>>> nanos = new LinkedHashMap<>();
            for (String version : releases.versions()) {
                Map<Case, List<Long>> perCase = new LinkedHashMap<>();
                cases.forEach(scan -> perCase.put(scan, new ArrayList<>()));
                nanos.put(version, perCase);
            }
            System.out.println("load average before: " + LoadAverage.now());
            for (int iteration = -flags.get("warmups"); iteration < flags.get("iterations"); iteration++) {
                for (Case scan : cases) {
                    // the releases take turns on every case, the first one alternating, so noise falls on both alike
                    for (int turn = 0; turn < releases.versions().size(); turn++) {
                        int index = (turn + Math.floorMod(iteration, releases.versions().size())) % releases.versions().size();
                        long elapsed = time(connections.get(index), scan, scan.name().startsWith("floor") ? physicalRows.get(scan.table()) : rows);
                        if (iteration >= 0) {
                            nanos.get(releases.versions().get(index)).get(scan).add(elapsed);
                        }
                    }
                }
            }
            System.out.println("load average after: " + LoadAverage.now());
            Map<String, Map<String, Timing>> timings = new LinkedHashMap<>();
            nanos.forEach((version, perCase) -> {
                Map<String, Timing> byName = new LinkedHashMap<>();
                perCase.forEach((scan, times) -> byName.put(scan.name(), Timing.of(times)));
                timings.put(version, byName);
            });
            timings.forEach((version, byName) -> System.out.println("\n### Trino " + version + "\n\n" + report(byName, physicalRows, rows)));
            if (timings.size() > 1) {
                System.out.println("\n" + sideBySide(timings, physicalRows.keySet()));
            }
        }
        finally {
            for (Connection connection : connections) {
                connection.close();
            }
            for (TrinoServer server : servers) {
                server.close();
            }
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static long time(Connection connection, Case scan, long expected)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION paimon.late_materialization_enabled = " + scan.late());
            long start = System.nanoTime();
            long count = countOf(statement, scan.sql());
            long elapsed = System.nanoTime() - start;
            if (count != expected) {
                throw new IllegalStateException("%s: %d rows, expected %d".formatted(scan.name(), count, expected));
            }
            return elapsed;
        }
    }

    private static List<String> writeTables(Path root, int rows)
            throws Exception
    {
        long start = System.nanoTime();
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)))) {
            paimon.createDatabase(DATABASE);
            ReadAmplificationTables writer = new ReadAmplificationTables(paimon, Files.createDirectories(root.resolve("io")), rows, "parquet");
            List<String> tables = new ArrayList<>();
            for (Shape shape : Shape.values()) {
                writer.writeShape(shape, SORTED_RUNS);
                SORTED_RUNS.forEach(runs -> tables.add(shape.tableName(runs)));
            }
            writer.writeCompacted(Shape.RANDOM.tableName(SORTED_RUNS.getLast()));
            tables.add(COMPACTED);
            System.out.println("wrote %s (%,d live rows each) in %,d s".formatted(tables, rows, (System.nanoTime() - start) / 1_000_000_000));
            return tables;
        }
    }

    // per table, hard links to the live data files of its snapshot in floor/<table>; returns their physical rows
    private static Map<String, Long> linkFloorFiles(Statement statement, Path root, List<String> tables)
            throws Exception
    {
        Map<String, Long> physicalRows = new LinkedHashMap<>();
        for (String table : tables) {
            Path folder = Files.createDirectories(root.resolve("floor").resolve(table));
            try (ResultSet files = statement.executeQuery("SELECT bucket, file_path, record_count FROM paimon.%s.\"%s$files\"".formatted(DATABASE, table))) {
                long records = 0;
                while (files.next()) {
                    Path file = Path.of(files.getString("file_path").replaceFirst("^local://", root.toString()));
                    Files.createLink(folder.resolve("bucket-%d-%s".formatted(files.getInt("bucket"), file.getFileName())), file);
                    records += files.getLong("record_count");
                }
                physicalRows.put(table, records);
            }
        }
        return physicalRows;
    }

    // per table, a Hive table over its linked files, in the server's own metastore (each release keeps one)
    private static void createFloorTables(Statement statement, List<String> tables)
            throws Exception
    {
        statement.execute("CREATE SCHEMA hive.floor");
        for (String table : tables) {
            StringJoiner columns = new StringJoiner(", ");
            try (ResultSet described = statement.executeQuery("DESCRIBE paimon.%s.%s".formatted(DATABASE, table))) {
                while (described.next()) {
                    columns.add(described.getString("Column") + " " + described.getString("Type"));
                }
            }
            statement.execute("CREATE TABLE hive.floor.%s (%s) WITH (external_location = 'local:///floor/%s', format = 'PARQUET')".formatted(table, columns, table));
        }
    }

    private static List<Case> cases(List<String> tables)
    {
        List<Case> cases = new ArrayList<>();
        for (String table : tables) {
            String paimon = "paimon.%s.%s".formatted(DATABASE, table);
            cases.add(new Case("ours " + table, table, SCAN_QUERY.formatted(paimon), true));
            if (!table.equals(COMPACTED)) {
                cases.add(new Case("ours, pages whole " + table, table, SCAN_QUERY.formatted(paimon), false));
            }
            cases.add(new Case("floor " + table, table, SCAN_QUERY.formatted("hive.floor." + table), true));
        }
        return cases;
    }

    private static long countOf(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    private static String report(Map<String, Timing> timings, Map<String, Long> physicalRows, int rows)
    {
        double compacted = timings.get("ours " + COMPACTED).medianMillis();
        StringBuilder out = new StringBuilder("| table | physical rows | ours ms | ours, pages whole ms | Hive floor ms | ours ÷ our compacted read | ours ÷ floor | late ÷ whole |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (String table : physicalRows.keySet()) {
            Timing ours = timings.get("ours " + table);
            Timing whole = timings.get("ours, pages whole " + table);
            Timing floor = timings.get("floor " + table);
            out.append("| %s | %,d | %,.0f (%s) | %s | %,.0f (%s) | %.2f | %.2f | %s |%n".formatted(
                    table, physicalRows.get(table), ours.medianMillis(), ours.spread(),
                    whole == null ? "–" : "%,.0f (%s)".formatted(whole.medianMillis(), whole.spread()),
                    floor.medianMillis(), floor.spread(), ours.medianMillis() / compacted, ours.medianMillis() / floor.medianMillis(),
                    whole == null ? "–" : "%.2f".formatted(ours.medianMillis() / whole.medianMillis())));
        }
        out.append("%n%,d live rows per table; times are medians of the measured iterations (min..max).%n".formatted(rows));
        return out.toString();
    }

    // per table and release: merged ÷ compacted and ÷ the Hive floor, and each release's time ÷ the first's
    private static String sideBySide(Map<String, Map<String, Timing>> timings, Iterable<String> tables)
    {
        List<String> versions = List.copyOf(timings.keySet());
        String first = versions.getFirst();
        StringBuilder out = new StringBuilder("| table |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (String version : versions) {
            out.append(" %s ms | %s ÷ compacted | %s ÷ floor |".formatted(version, version, version));
            rule.append(" --- | --- | --- |");
        }
        for (String version : versions.subList(1, versions.size())) {
            out.append(" %s ÷ %s (ours) | %s ÷ %s (floor) |".formatted(version, first, version, first));
            rule.append(" --- | --- |");
        }
        out.append('\n').append(rule).append('\n');
        for (String table : tables) {
            out.append("| ").append(table).append(" |");
            for (String version : versions) {
                Map<String, Timing> byName = timings.get(version);
                double ours = byName.get("ours " + table).medianMillis();
                out.append(" %,.0f | %.2f | %.2f |".formatted(ours, ours / byName.get("ours " + COMPACTED).medianMillis(), ours / byName.get("floor " + table).medianMillis()));
            }
            for (String version : versions.subList(1, versions.size())) {
                out.append(" %.2f | %.2f |".formatted(
                        timings.get(version).get("ours " + table).medianMillis() / timings.get(first).get("ours " + table).medianMillis(),
                        timings.get(version).get("floor " + table).medianMillis() / timings.get(first).get("floor " + table).medianMillis()));
            }
            out.append('\n');
        }
        return out.toString();
    }
}
