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

import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.paimon.schema.Schema;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.benchmark.BenchmarkInsert.CHECKSUM;
import static io.trino.plugin.paimon.benchmark.BenchmarkInsert.CHUNK;
import static io.trino.plugin.paimon.benchmark.BenchmarkInsert.INSERT;
import static io.trino.plugin.paimon.benchmark.BenchmarkInsert.SCRAMBLE;
import static io.trino.plugin.paimon.benchmark.BenchmarkInsert.median;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DATABASE;

/**
 * Point lookups on Parquet files written by Trino beside the same rows written by Paimon Java (issue 26): N rows of
 * the read benchmark's shape ({@link ReadAmplificationTables#schema}, 4 buckets, Paimon's default
 * {@code target-file-size} of 128 MB and Parquet sizes) written once by our page sink
 * ({@link BenchmarkInsert}'s {@code INSERT … SELECT}) and once by Paimon Java 1.4.2's batch writer, each in one
 * commit with {@code write-only}. Then, on each table in turn, {@code --lookups} lookups of random keys
 * ({@code SELECT * … WHERE id = k}: the records the page source decoded, files opened, the coordinator's elapsed
 * time) and {@code --scans} full scans (every column aggregated). Prints medians and maxima and checks that both
 * tables hold the same rows. Run: {@code ./mvnw -B -DskipTests -Pbenchmark
 * -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkPointLookup package -pl testing -am}, flags in
 * {@code -Dbenchmark.args}: {@code --rows N} (default 10,000,000), {@code --lookups N} (default 30),
 * {@code --scans N} (default 3), {@code --trino-only} (skip the Paimon Java table: to compare builds).
 */
public final class BenchmarkPointLookup
{
    private BenchmarkPointLookup() {}

    record Settings(int rows, int lookups, int scans, boolean trinoOnly)
    {
        static Settings parse(String[] args)
        {
            int rows = 10_000_000;
            int lookups = 30;
            int scans = 3;
            boolean trinoOnly = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--trino-only")) {
                    trinoOnly = true;
                    continue;
                }
                String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : args[++i];
                int number = Integer.parseInt(value.replace("_", "").replace(",", ""));
                if (arg.startsWith("--rows")) {
                    rows = number;
                }
                else if (arg.startsWith("--lookups")) {
                    lookups = number;
                }
                else if (arg.startsWith("--scans")) {
                    scans = number;
                }
                else {
                    throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            if (rows % SCRAMBLE == 0) {
                throw new IllegalArgumentException("--rows must not be a multiple of " + SCRAMBLE);
            }
            return new Settings(rows, lookups, scans, trinoOnly);
        }
    }

    record Reads(long[] lookupNanos, long[] lookupRecords, long[] lookupFiles, long[] scanNanos, long scanRecords) {}

    public static void main(String[] args)
            throws Exception
    {
        Settings settings = Settings.parse(args);
        Path root = Files.createTempDirectory("paimon-lookup-benchmark");
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)));
                QueryRunner queryRunner = PaimonQueryRunner.create(root, DATABASE)) {
            paimon.createDatabase(DATABASE);
            Path ioDirectory = Files.createDirectories(root.resolve("io"));
            int rows = settings.rows();

            paimon.createTable(DATABASE, "trino_written", schema(rows));
            long start = System.nanoTime();
            queryRunner.execute(INSERT.formatted("trino_written", rows, CHUNK, SCRAMBLE, (rows - 1) / CHUNK, CHUNK - 1));
            System.out.println("trino_written: %,d rows in %,d ms".formatted(rows, (System.nanoTime() - start) / 1_000_000));
            if (!settings.trinoOnly()) {
                long nanos = BenchmarkInsert.writeWithPaimonJava(paimon, "paimon_written", schema(rows), rows, ioDirectory, _ -> {});
                System.out.println("paimon_written: %,d rows in %,d ms".formatted(rows, nanos / 1_000_000));
                MaterializedRow ours = queryRunner.execute(CHECKSUM.formatted("trino_written")).getMaterializedRows().getFirst();
                MaterializedRow theirs = queryRunner.execute(CHECKSUM.formatted("paimon_written")).getMaterializedRows().getFirst();
                if (!ours.equals(theirs)) {
                    throw new IllegalStateException("the tables differ: Trino-written %s, Paimon-written %s".formatted(ours, theirs));
                }
            }

            String[] tables = settings.trinoOnly() ? new String[] {"trino_written"} : new String[] {"trino_written", "paimon_written"};
            Reads[] reads = new Reads[tables.length];
            for (int table = 0; table < tables.length; table++) {
                reads[table] = new Reads(new long[settings.lookups()], new long[settings.lookups()], new long[settings.lookups()], new long[settings.scans()], 0);
                // warm-up: a scan and a few lookups
                queryRunner.execute(CHECKSUM.formatted(tables[table]));
                for (int i = 0; i < 5; i++) {
                    ScanStatistics.execute(queryRunner, "SELECT * FROM %s WHERE id = %s".formatted(tables[table], i * 7919L % rows));
                }
            }
            // the same keys on each table, the tables in turn
            Random random = new Random(42);
            for (int lookup = 0; lookup < settings.lookups(); lookup++) {
                long key = random.nextInt(rows);
                for (int table = 0; table < tables.length; table++) {
                    ScanStatistics statistics = ScanStatistics.execute(queryRunner, "SELECT * FROM %s WHERE id = %s".formatted(tables[table], key));
                    if (statistics.result().getRowCount() != 1) {
                        throw new IllegalStateException("key %s in %s: %s rows".formatted(key, tables[table], statistics.result().getRowCount()));
                    }
                    reads[table].lookupNanos()[lookup] = statistics.elapsedNanos();
                    reads[table].lookupRecords()[lookup] = statistics.physicalInputRows();
                    reads[table].lookupFiles()[lookup] = statistics.filesOpened();
                }
            }
            long[] scanRecords = new long[tables.length];
            for (int scan = 0; scan < settings.scans(); scan++) {
                for (int table = 0; table < tables.length; table++) {
                    ScanStatistics statistics = ScanStatistics.execute(queryRunner, CHECKSUM.formatted(tables[table]));
                    reads[table].scanNanos()[scan] = statistics.elapsedNanos();
                    scanRecords[table] = statistics.physicalInputRows();
                }
            }

            StringBuilder report = new StringBuilder();
            report.append("## Point lookups and full scans, %,d rows, 4 buckets, one commit each (%d lookups of random keys, %d scans, medians)%n%n".formatted(rows, settings.lookups(), settings.scans()));
            report.append("| table | lookup ms (median, max) | records decoded per lookup (median, max) | files opened per lookup (max) | full scan ms (median, min..max) | records decoded per scan |\n");
            report.append("| --- | --- | --- | --- | --- | --- |\n");
            for (int table = 0; table < tables.length; table++) {
                Reads read = reads[table];
                report.append("| %s | %,.0f (%,d) | %,.0f (%,d) | %d | %,.0f (%,d..%,d) | %,d |%n".formatted(
                        tables[table],
                        median(read.lookupNanos()) / 1e6, max(read.lookupNanos()) / 1_000_000,
                        median(read.lookupRecords()), max(read.lookupRecords()),
                        max(read.lookupFiles()),
                        median(read.scanNanos()) / 1e6, min(read.scanNanos()) / 1_000_000, max(read.scanNanos()) / 1_000_000,
                        scanRecords[table]));
            }
            if (tables.length == 2) {
                report.append("%nlookup time, Trino-written ÷ Paimon-written: %.2f; full scan: %.2f%n".formatted(
                        median(reads[0].lookupNanos()) / median(reads[1].lookupNanos()),
                        median(reads[0].scanNanos()) / median(reads[1].scanNanos())));
            }
            System.out.println("\n" + report);
            Path output = Files.createDirectories(Path.of("target", "benchmark")).resolve("point-lookup.md");
            Files.writeString(output, report.toString());
            System.out.println("report: " + output.toAbsolutePath());
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    // Paimon's defaults for a primary-key table's files: 128 MB, one row group each
    private static Schema schema(int rows)
    {
        return ReadAmplificationTables.schema(rows)
                .option("target-file-size", "128mb")
                .option("write-only", "true")
                .build();
    }

    private static long max(long[] values)
    {
        return Arrays.stream(values).max().orElse(0);
    }

    private static long min(long[] values)
    {
        return Arrays.stream(values).min().orElse(0);
    }
}
