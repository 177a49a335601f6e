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
import io.trino.jdbc.TrinoResultSet;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.COMPACTED;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DATABASE;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_READ_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_VALUES_UNREAD_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.ROWS_RETURNED_METRIC;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;

/**
 * Full scans end to end through real Trino servers (issue 15): the 476 tarball's core, or Trino 483 assembled from Maven
 * artifacts, with our plugin folder built for the release and the release's own Hive connector
 * ({@code testing/bin/run-trino --with-hive}), one process per release, 2M live rows in 4
 * buckets written by Paimon Java ({@link ReadAmplificationTables}), every column consumed by an aggregate. Cases:
 * <ul>
 * <li>our merged read of the random, clustered and ranges tables at R = 5 and R = 8 three ways: one pass with late
 * materialization (the default), the two-pass merge read ({@code two_pass_merge_read_enabled = true}), and one pass
 * with every page read whole ({@code late_materialization_enabled = false});</li>
 * <li>our read of the same live rows compacted into one sorted run per bucket;</li>
 * <li>the no-merge floor: the Hive connector scanning the same Parquet files (hard links to the live files of each
 * table's snapshot), every physical record decoded, nothing merged.</li>
 * </ul>
 * The cases run interleaved, each iteration one query of every case in turn, the cases of a table back to back in an
 * order that rotates from one iteration to the next, so that the machine's noise falls on all alike; the time is the
 * client's, from sending the query to its last row. After each measured query of our connector the coordinator's
 * {@code /v1/query} document gives the scan's connector metrics (records decoded, records whose values were never
 * decoded, rows returned) and the peak memory the scan operator reported (the page source's
 * {@code getMemoryUsage}, the largest of one split, that is one bucket). Run:
 * {@code ./mvnw -B -DskipTests -Pbenchmark -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkServerScan package -pl testing -am},
 * flags {@code --rows=N}, {@code --warmups=N}, {@code --iterations=N}, {@code --shapes=random,clustered,ranges} (the
 * update shapes written; the compacted table holds the live rows of the first), {@code --trino-versions=476,483}
 * (default 476: with both, a server of each release serves the same tables and every case runs on both in turn; the
 * report adds the ratios side by side).
 */
public final class BenchmarkServerScan
{
    private static final String SCAN_QUERY = """
            SELECT count(*), sum(id), max(c_long), sum(c_double), max(c_short_text), max(c_long_text), sum(c_int), sum(c_decimal), max(c_date), count_if(c_bool)
            FROM %s
            """;
    private static final List<Integer> SORTED_RUNS = List.of(5, 8);
    private static final String SHAPES_FLAG = "--shapes=";
    private static final ObjectMapper JSON = new ObjectMapper();

    private BenchmarkServerScan() {}

    private enum Read
    {
        ONE_PASS("ours ", true, false),
        TWO_PASS("ours, two-pass ", true, true),
        PAGES_WHOLE("ours, pages whole ", false, false),
        FLOOR("floor ", true, false);

        private final String prefix;
        private final boolean late;
        private final boolean twoPass;

        Read(String prefix, boolean late, boolean twoPass)
        {
            this.prefix = prefix;
            this.late = late;
            this.twoPass = twoPass;
        }

        String caseName(String table)
        {
            return prefix + table;
        }
    }

    private record Case(Read read, String table, String sql)
    {
        String name()
        {
            return read.caseName(table);
        }
    }

    /** What one scan of our connector decoded, from its connector metrics, and the largest memory one split reported. */
    private record ScanMetrics(long recordsRead, long valuesUnread, long rowsReturned, long peakScanMemoryBytes)
    {
        double recordsReadPerLiveRow()
        {
            return (double) recordsRead / rowsReturned;
        }

        double valuesDecodedPerLiveRow()
        {
            return (double) (recordsRead - valuesUnread) / rowsReturned;
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        TrinoReleases releases = TrinoReleases.parse(args, "476");
        List<Shape> shapes = shapes(releases.otherArguments());
        IntegerFlags flags = IntegerFlags.parse(
                Arrays.stream(releases.otherArguments()).filter(arg -> !arg.startsWith(SHAPES_FLAG)).toArray(String[]::new),
                Map.of("rows", 2_000_000, "warmups", 1, "iterations", 5));
        int rows = flags.get("rows");
        Path repositoryRoot = Path.of("..").toAbsolutePath().normalize();
        Path root = Files.createTempDirectory("paimon-server-scan");
        List<TrinoServer> servers = new ArrayList<>();
        List<Connection> connections = new ArrayList<>();
        try {
            List<String> tables = writeTables(root, rows, shapes);
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
            Map<String, List<Case>> casesByTable = cases(tables);
            Map<String, Map<String, List<Long>>> nanos = new LinkedHashMap<>();
            // per release and case, the metrics of its last measured query
            Map<String, Map<String, ScanMetrics>> metrics = new LinkedHashMap<>();
            for (String version : releases.versions()) {
                Map<String, List<Long>> perCase = new LinkedHashMap<>();
                casesByTable.values().forEach(cases -> cases.forEach(scan -> perCase.put(scan.name(), new ArrayList<>())));
                nanos.put(version, perCase);
                metrics.put(version, new LinkedHashMap<>());
            }
            System.out.println("load average before: " + LoadAverage.now());
            long start = System.nanoTime();
            for (int iteration = -flags.get("warmups"); iteration < flags.get("iterations"); iteration++) {
                for (List<Case> cases : casesByTable.values()) {
                    // a table's cases back to back, the first one rotating from one iteration to the next
                    for (int position = 0; position < cases.size(); position++) {
                        Case scan = cases.get((position + Math.floorMod(iteration, cases.size())) % cases.size());
                        // the releases take turns on every case, the first one alternating, so noise falls on both alike
                        for (int turn = 0; turn < releases.versions().size(); turn++) {
                            int index = (turn + Math.floorMod(iteration, releases.versions().size())) % releases.versions().size();
                            String version = releases.versions().get(index);
                            TimedQuery query = time(connections.get(index), scan, scan.read() == Read.FLOOR ? physicalRows.get(scan.table()) : rows);
                            if (iteration >= 0) {
                                nanos.get(version).get(scan.name()).add(query.elapsedNanos());
                                if (scan.read() != Read.FLOOR) {
                                    metrics.get(version).put(scan.name(), scanMetrics(servers.get(index), query.queryId()));
                                }
                            }
                        }
                    }
                }
            }
            System.out.println("load average after: " + LoadAverage.now());
            System.out.println("measured in %,d s".formatted((System.nanoTime() - start) / 1_000_000_000));
            Map<String, Map<String, Timing>> timings = new LinkedHashMap<>();
            nanos.forEach((version, perCase) -> {
                Map<String, Timing> byName = new LinkedHashMap<>();
                perCase.forEach((name, times) -> byName.put(name, Timing.of(times)));
                timings.put(version, byName);
            });
            timings.forEach((version, byName) -> System.out.println("\n### Trino " + version + "\n\n" + report(byName, physicalRows, rows)
                    + "\n" + twoPassReport(byName, metrics.get(version), physicalRows.keySet())));
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

    private static List<Shape> shapes(String[] args)
    {
        List<Shape> shapes = List.of(Shape.values());
        for (String arg : args) {
            if (arg.startsWith(SHAPES_FLAG)) {
                shapes = Arrays.stream(arg.substring(SHAPES_FLAG.length()).split(","))
                        .map(shape -> Shape.valueOf(shape.trim().toUpperCase(Locale.ENGLISH)))
                        .distinct()
                        .toList();
            }
        }
        if (shapes.isEmpty()) {
            throw new IllegalArgumentException(SHAPES_FLAG + ": name at least one of " + Arrays.toString(Shape.values()));
        }
        return shapes;
    }

    private record TimedQuery(long elapsedNanos, String queryId) {}

    private static TimedQuery time(Connection connection, Case scan, long expected)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION paimon.late_materialization_enabled = " + scan.read().late);
            statement.execute("SET SESSION paimon.two_pass_merge_read_enabled = " + scan.read().twoPass);
            long start = System.nanoTime();
            try (ResultSet result = statement.executeQuery(scan.sql())) {
                result.next();
                long count = result.getLong(1);
                long elapsed = System.nanoTime() - start;
                if (count != expected) {
                    throw new IllegalStateException("%s: %d rows, expected %d".formatted(scan.name(), count, expected));
                }
                return new TimedQuery(elapsed, result.unwrap(TrinoResultSet.class).getQueryId());
            }
        }
    }

    // the coordinator's document of a finished query: our connector's metrics summed over the scan's operators
    private static ScanMetrics scanMetrics(TrinoServer server, String queryId)
            throws Exception
    {
        long recordsRead = 0;
        long valuesUnread = 0;
        long rowsReturned = 0;
        long peakMemory = 0;
        for (JsonNode operator : JSON.readTree(server.queryInfoJson(queryId)).path("queryStats").path("operatorSummaries")) {
            String type = operator.path("operatorType").asText();
            if (type.equals("TableScanOperator") || type.equals("ScanFilterAndProjectOperator")) {
                // Metrics serializes as its map of metric name to metric
                JsonNode connectorMetrics = operator.path("connectorMetrics");
                recordsRead += connectorMetrics.path(RECORDS_READ_METRIC).path("total").asLong();
                valuesUnread += connectorMetrics.path(RECORDS_VALUES_UNREAD_METRIC).path("total").asLong();
                rowsReturned += connectorMetrics.path(ROWS_RETURNED_METRIC).path("total").asLong();
                // an operator summary's peak is the largest of its drivers, each of which reads one split
                peakMemory = Math.max(peakMemory, DataSize.valueOf(operator.path("peakUserMemoryReservation").asText("0B")).toBytes());
            }
        }
        return new ScanMetrics(recordsRead, valuesUnread, rowsReturned, peakMemory);
    }

    private static List<String> writeTables(Path root, int rows, List<Shape> shapes)
            throws Exception
    {
        long start = System.nanoTime();
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)))) {
            paimon.createDatabase(DATABASE);
            ReadAmplificationTables writer = new ReadAmplificationTables(paimon, Files.createDirectories(root.resolve("io")), rows, "parquet");
            List<String> tables = new ArrayList<>();
            for (Shape shape : shapes) {
                writer.writeShape(shape, SORTED_RUNS);
                SORTED_RUNS.forEach(runs -> tables.add(shape.tableName(runs)));
            }
            writer.writeCompacted(shapes.getFirst().tableName(SORTED_RUNS.getLast()));
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

    // per table, its cases; the compacted table has one sorted run per bucket, which every read passes through
    private static Map<String, List<Case>> cases(List<String> tables)
    {
        Map<String, List<Case>> cases = new LinkedHashMap<>();
        for (String table : tables) {
            String paimon = SCAN_QUERY.formatted("paimon.%s.%s".formatted(DATABASE, table));
            List<Case> ofTable = new ArrayList<>();
            ofTable.add(new Case(Read.ONE_PASS, table, paimon));
            if (!table.equals(COMPACTED)) {
                ofTable.add(new Case(Read.TWO_PASS, table, paimon));
                ofTable.add(new Case(Read.PAGES_WHOLE, table, paimon));
            }
            ofTable.add(new Case(Read.FLOOR, table, SCAN_QUERY.formatted("hive.floor." + table)));
            cases.put(table, ofTable);
        }
        return cases;
    }

    private static String report(Map<String, Timing> timings, Map<String, Long> physicalRows, int rows)
    {
        double compacted = timings.get(Read.ONE_PASS.caseName(COMPACTED)).medianMillis();
        StringBuilder out = new StringBuilder("| table | physical rows | ours (one pass) ms | ours, pages whole ms | Hive floor ms | ours ÷ our compacted read | ours ÷ floor | late ÷ whole |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (String table : physicalRows.keySet()) {
            Timing ours = timings.get(Read.ONE_PASS.caseName(table));
            Timing whole = timings.get(Read.PAGES_WHOLE.caseName(table));
            Timing floor = timings.get(Read.FLOOR.caseName(table));
            out.append("| %s | %,d | %,.0f (%s) | %s | %,.0f (%s) | %.2f | %.2f | %s |%n".formatted(
                    table, physicalRows.get(table), ours.medianMillis(), ours.spread(),
                    whole == null ? "–" : "%,.0f (%s)".formatted(whole.medianMillis(), whole.spread()),
                    floor.medianMillis(), floor.spread(), ours.medianMillis() / compacted, ours.medianMillis() / floor.medianMillis(),
                    whole == null ? "–" : "%.2f".formatted(ours.medianMillis() / whole.medianMillis())));
        }
        out.append("%n%,d live rows per table; times are medians of the measured iterations (min..max).%n".formatted(rows));
        return out.toString();
    }

    // per table: the two-pass read against the one-pass read (ratio of medians, and per iteration, the two ran back to
    // back), our compacted read and the Hive floor; records decoded (all columns, and value columns) per live row
    private static String twoPassReport(Map<String, Timing> timings, Map<String, ScanMetrics> metrics, Iterable<String> tables)
    {
        double compacted = timings.get(Read.ONE_PASS.caseName(COMPACTED)).medianMillis();
        StringBuilder out = new StringBuilder("""
                | table | two-pass ms | two-pass ÷ one-pass (medians) | two-pass ÷ one-pass per iteration (median; min..max) | \
                two-pass ÷ our compacted read | two-pass ÷ floor | records decoded ÷ live rows, one-pass / two-pass | \
                value columns decoded ÷ live rows, one-pass / two-pass | peak scan memory of a split, one-pass / two-pass |
                | --- | --- | --- | --- | --- | --- | --- | --- | --- |
                """);
        for (String table : tables) {
            Timing twoPass = timings.get(Read.TWO_PASS.caseName(table));
            ScanMetrics onePassMetrics = metrics.get(Read.ONE_PASS.caseName(table));
            if (twoPass == null) {
                out.append("| %s | – | – | – | – | – | %.3f | %.3f | %s |%n".formatted(table, onePassMetrics.recordsReadPerLiveRow(),
                        onePassMetrics.valuesDecodedPerLiveRow(), DataSize.succinctBytes(onePassMetrics.peakScanMemoryBytes())));
                continue;
            }
            Timing onePass = timings.get(Read.ONE_PASS.caseName(table));
            Ratios perIteration = Ratios.perIteration(twoPass, onePass);
            ScanMetrics twoPassMetrics = metrics.get(Read.TWO_PASS.caseName(table));
            out.append("| %s | %,.0f (%s) | %.2f | %.2f (%.2f..%.2f) | %.2f | %.2f | %.3f / %.3f | %.3f / %.3f | %s / %s |%n".formatted(
                    table, twoPass.medianMillis(), twoPass.spread(), twoPass.medianMillis() / onePass.medianMillis(),
                    perIteration.median(), perIteration.min(), perIteration.max(),
                    twoPass.medianMillis() / compacted, twoPass.medianMillis() / timings.get(Read.FLOOR.caseName(table)).medianMillis(),
                    onePassMetrics.recordsReadPerLiveRow(), twoPassMetrics.recordsReadPerLiveRow(),
                    onePassMetrics.valuesDecodedPerLiveRow(), twoPassMetrics.valuesDecodedPerLiveRow(),
                    DataSize.succinctBytes(onePassMetrics.peakScanMemoryBytes()), DataSize.succinctBytes(twoPassMetrics.peakScanMemoryBytes())));
        }
        out.append("""

                Records decoded: paimon.recordsRead (keys, sequence numbers and row kinds of every physical record); value columns \
                decoded: those minus paimon.recordsValuesUnread; live rows: paimon.rowsReturned; all from the last measured query. \
                Peak scan memory: the scan operator's peak user memory, the largest of one split (one bucket), as our page source \
                reports it (getMemoryUsage), not a heap measurement.
                """);
        return out.toString();
    }

    private record Ratios(double median, double min, double max)
    {
        // the ratio of each iteration's two times
        static Ratios perIteration(Timing numerator, Timing denominator)
        {
            double[] ratios = new double[numerator.nanos().length];
            for (int iteration = 0; iteration < ratios.length; iteration++) {
                ratios[iteration] = (double) numerator.nanos()[iteration] / denominator.nanos()[iteration];
            }
            Arrays.sort(ratios);
            int middle = ratios.length / 2;
            double median = ratios.length % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2;
            return new Ratios(median, ratios[0], ratios[ratios.length - 1]);
        }
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
                double ours = byName.get(Read.ONE_PASS.caseName(table)).medianMillis();
                out.append(" %,.0f | %.2f | %.2f |".formatted(ours, ours / byName.get(Read.ONE_PASS.caseName(COMPACTED)).medianMillis(), ours / byName.get(Read.FLOOR.caseName(table)).medianMillis()));
            }
            for (String version : versions.subList(1, versions.size())) {
                out.append(" %.2f | %.2f |".formatted(
                        timings.get(version).get(Read.ONE_PASS.caseName(table)).medianMillis() / timings.get(first).get(Read.ONE_PASS.caseName(table)).medianMillis(),
                        timings.get(version).get(Read.FLOOR.caseName(table)).medianMillis() / timings.get(first).get(Read.FLOOR.caseName(table)).medianMillis()));
            }
            out.append('\n');
        }
        return out.toString();
    }
}
