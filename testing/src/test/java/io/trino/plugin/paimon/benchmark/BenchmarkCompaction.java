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
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DATABASE;

/**
 * Compaction (issue 13's measurements), in one run on one machine:
 * <ol>
 * <li>{@code optimize} of the read benchmark's random table with 8 sorted runs per bucket (4 buckets, N live rows,
 * written by Paimon Java), beside Paimon Java 1.4.2's full compaction of a copy of the same table; the full-scan time
 * of the table before and after; both compacted tables hold the same rows.</li>
 * <li>A table of the same shape written only by Trino: one INSERT of N rows, then {@code --inserts} - 1 INSERTs of
 * N / {@code --inserts} existing keys each, with compaction on write as its defaults have it; its full-scan time
 * against the same table after {@code optimize} (issue 13 asks for at most 1.5×), and the most sorted runs a bucket
 * had after any statement.</li>
 * </ol>
 * A full scan aggregates every column ({@link BenchmarkInsert#CHECKSUM}); each scan time is the median of 5 after a
 * warm-up. Flags in {@code -Dbenchmark.args}: {@code --rows N} (default 2,000,000), {@code --quick} (200,000 rows),
 * {@code --inserts N} (default 200).
 */
public final class BenchmarkCompaction
{
    private static final int SCANS = 5;

    private BenchmarkCompaction() {}

    record Settings(int rows, int inserts)
    {
        static Settings parse(String[] args)
        {
            int rows = 2_000_000;
            int inserts = 200;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--quick")) {
                    rows = 200_000;
                }
                else if (arg.startsWith("--rows")) {
                    rows = Integer.parseInt(value(args, i).replace("_", "").replace(",", ""));
                    i += arg.contains("=") ? 0 : 1;
                }
                else if (arg.startsWith("--inserts")) {
                    inserts = Integer.parseInt(value(args, i));
                    i += arg.contains("=") ? 0 : 1;
                }
                else {
                    throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            return new Settings(rows, inserts);
        }

        private static String value(String[] args, int i)
        {
            return args[i].contains("=") ? args[i].substring(args[i].indexOf('=') + 1) : args[i + 1];
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        Settings settings = Settings.parse(args);
        Path root = Files.createTempDirectory("paimon-compaction-benchmark");
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)));
                QueryRunner queryRunner = PaimonQueryRunner.create(root, DATABASE)) {
            paimon.createDatabase(DATABASE);
            String loadAtStart = LoadAverage.now();
            StringBuilder report = new StringBuilder();

            // 1. optimize beside Paimon Java's full compaction
            ReadAmplificationTables tables = new ReadAmplificationTables(paimon, Files.createDirectories(root.resolve("io")), settings.rows(), "parquet");
            String ours = Shape.RANDOM.tableName(8);
            String theirs = ours + "_paimon";
            tables.writeShape(Shape.RANDOM, List.of(8));
            tables.copyTable(ours, theirs);
            double scanBefore = scanMillis(queryRunner, ours);
            long start = System.nanoTime();
            queryRunner.execute("ALTER TABLE %s EXECUTE optimize".formatted(ours));
            double oursSeconds = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            tables.compactFully(theirs);
            double paimonSeconds = (System.nanoTime() - start) / 1e9;
            checkSame(queryRunner, ours, theirs);
            double scanAfter = scanMillis(queryRunner, ours);
            report.append("## Compaction, %,d live rows, 4 buckets%n%n".formatted(settings.rows()));
            report.append("| table | ours: `optimize` | Paimon Java 1.4.2: full compaction | ours ÷ Paimon Java | full scan before | full scan after |\n");
            report.append("| --- | --- | --- | --- | --- | --- |\n");
            report.append("| random, 8 sorted runs per bucket | %.1f s | %.1f s | %.2f | %.0f ms | %.0f ms |%n".formatted(oursSeconds, paimonSeconds, oursSeconds / paimonSeconds, scanBefore, scanAfter));

            // 2. a table written only by Trino INSERTs
            String inserted = "inserted";
            queryRunner.execute("CREATE TABLE %s WITH (primary_key = ARRAY['id'], bucket = %d) AS SELECT * FROM %s".formatted(inserted, ReadAmplificationTables.BUCKETS, theirs));
            int keysPerInsert = Math.max(1, settings.rows() / settings.inserts());
            int mostRuns = 0;
            start = System.nanoTime();
            for (int statement = 1; statement < settings.inserts(); statement++) {
                // keys spread over the whole table, different in each statement
                queryRunner.execute("""
                        INSERT INTO %1$s
                        SELECT id, c_long + 1, c_double, c_short_text, c_long_text, c_int + 1, c_decimal, c_date, NOT c_bool
                        FROM %2$s WHERE id %% %3$d = %4$d""".formatted(inserted, theirs, settings.inserts(), statement));
                mostRuns = Math.max(mostRuns, mostRunsPerBucket(queryRunner, inserted));
            }
            double insertSeconds = (System.nanoTime() - start) / 1e9;
            double scanInserted = scanMillis(queryRunner, inserted);
            long files = (long) queryRunner.execute("SELECT count(*) FROM \"%s$files\"".formatted(inserted)).getOnlyValue();
            queryRunner.execute("ALTER TABLE %s EXECUTE optimize".formatted(inserted));
            double scanOptimized = scanMillis(queryRunner, inserted);
            report.append("\n| table | statements | seconds for the INSERTs | most sorted runs in a bucket after a statement | data files | full scan | full scan after `optimize` | ratio |\n");
            report.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
            report.append("| written only by Trino INSERTs (%,d rows each after the first) | %d | %.1f s | %d | %d | %.0f ms | %.0f ms | %.2f |%n".formatted(
                    keysPerInsert, settings.inserts(), insertSeconds, mostRuns, files, scanInserted, scanOptimized, scanInserted / scanOptimized));
            report.append("%nScans: every column aggregated, median of %d after a warm-up. Load average (1, 5, 15 min) at start: %s; at end: %s; %d processors%n"
                    .formatted(SCANS, loadAtStart, LoadAverage.now(), Runtime.getRuntime().availableProcessors()));
            System.out.println("\n" + report);
            Path output = Files.createDirectories(Path.of("target", "benchmark")).resolve("compaction.md");
            Files.writeString(output, report.toString());
            System.out.println("report: " + output.toAbsolutePath());
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static double scanMillis(QueryRunner queryRunner, String table)
    {
        String sql = BenchmarkInsert.CHECKSUM.formatted(table);
        queryRunner.execute(sql);
        double[] millis = new double[SCANS];
        for (int i = 0; i < SCANS; i++) {
            long start = System.nanoTime();
            queryRunner.execute(sql);
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(millis);
        return millis[SCANS / 2];
    }

    private static int mostRunsPerBucket(QueryRunner queryRunner, String table)
    {
        int most = 0;
        for (MaterializedRow row : queryRunner.execute("SELECT count_if(level = 0) + count(DISTINCT nullif(level, 0)) FROM \"%s$files\" GROUP BY bucket".formatted(table)).getMaterializedRows()) {
            most = Math.max(most, ((Long) row.getField(0)).intValue());
        }
        return most;
    }

    private static void checkSame(QueryRunner queryRunner, String ours, String theirs)
    {
        MaterializedRow oursChecksum = queryRunner.execute(BenchmarkInsert.CHECKSUM.formatted(ours)).getMaterializedRows().getFirst();
        MaterializedRow theirChecksum = queryRunner.execute(BenchmarkInsert.CHECKSUM.formatted(theirs)).getMaterializedRows().getFirst();
        if (!oursChecksum.equals(theirChecksum)) {
            throw new IllegalStateException("the tables differ: ours %s, Paimon Java %s".formatted(oursChecksum, theirChecksum));
        }
    }
}
