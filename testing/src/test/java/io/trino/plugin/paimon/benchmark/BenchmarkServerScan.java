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

/**
 * Full scans end to end through a stock Trino 476 server (issue 15): the server tarball's core with our plugin folder
 * and the tarball's own Hive connector ({@code testing/bin/run-trino --with-hive}), one process, 2M live rows in 4
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
 * flags {@code --rows=N}, {@code --warmups=N}, {@code --iterations=N}.
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
        IntegerFlags flags = IntegerFlags.parse(args, Map.of("rows", 2_000_000, "warmups", 1, "iterations", 5));
        int rows = flags.get("rows");
        Path repositoryRoot = Path.of("..").toAbsolutePath().normalize();
        Path root = Files.createTempDirectory("paimon-server-scan");
        try {
            List<String> tables = writeTables(root, rows);
            int port = TrinoServer.freePort();
            try (TrinoServer server = TrinoServer.launch(repositoryRoot, root, port, List.of("--with-hive"))) {
                server.awaitStarted();
                try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
                    Map<String, Long> physicalRows = createFloorTables(statement, root, tables);
                    List<Case> cases = cases(tables);
                    Map<Case, List<Long>> nanos = new LinkedHashMap<>();
                    cases.forEach(scan -> nanos.put(scan, new ArrayList<>()));
                    System.out.println("load average before: " + LoadAverage.now());
                    for (int iteration = -flags.get("warmups"); iteration < flags.get("iterations"); iteration++) {
                        for (Case scan : cases) {
                            statement.execute("SET SESSION paimon.late_materialization_enabled = " + scan.late());
                            long start = System.nanoTime();
                            long count = countOf(statement, scan.sql());
                            long elapsed = System.nanoTime() - start;
                            long expected = scan.name().startsWith("floor") ? physicalRows.get(scan.table()) : rows;
                            if (count != expected) {
                                throw new IllegalStateException("%s: %d rows, expected %d".formatted(scan.name(), count, expected));
                            }
                            if (iteration >= 0) {
                                nanos.get(scan).add(elapsed);
                            }
                        }
                    }
                    System.out.println("load average after: " + LoadAverage.now());
                    System.out.println(report(nanos, physicalRows, rows));
                }
            }
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
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

    // per table, a Hive table over hard links to the live data files of its snapshot; returns their physical rows
    private static Map<String, Long> createFloorTables(Statement statement, Path root, List<String> tables)
            throws Exception
    {
        statement.execute("CREATE SCHEMA hive.floor");
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
            StringJoiner columns = new StringJoiner(", ");
            try (ResultSet described = statement.executeQuery("DESCRIBE paimon.%s.%s".formatted(DATABASE, table))) {
                while (described.next()) {
                    columns.add(described.getString("Column") + " " + described.getString("Type"));
                }
            }
            statement.execute("CREATE TABLE hive.floor.%s (%s) WITH (external_location = 'local:///floor/%s', format = 'PARQUET')".formatted(table, columns, table));
        }
        return physicalRows;
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

    private static String report(Map<Case, List<Long>> nanos, Map<String, Long> physicalRows, int rows)
    {
        Map<String, Timing> timings = new LinkedHashMap<>();
        nanos.forEach((scan, times) -> timings.put(scan.name(), Timing.of(times)));
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
}
