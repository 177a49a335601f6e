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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.HdfsCluster;
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
 * The bench table (the read benchmark's shape, 4 buckets, one commit by our {@code INSERT … SELECT}) on the local
 * disk and on HDFS (a NameNode and a DataNode of Hadoop's minicluster in this JVM, reached over RPC on
 * 127.0.0.1 through the Hadoop client, catalog {@code hdfs}), in one run: the INSERT, then {@code --lookups} point
 * lookups of random keys and {@code --scans} full scans on each table in turn. Run: {@code ./mvnw -B -DskipTests
 * -Pbenchmark -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkHdfsWarehouse package -pl testing -am},
 * flags in {@code -Dbenchmark.args}: {@code --rows N} (default 1,000,001), {@code --lookups N} (default 20),
 * {@code --scans N} (default 3).
 */
public final class BenchmarkHdfsWarehouse
{
    private BenchmarkHdfsWarehouse() {}

    public static void main(String[] args)
            throws Exception
    {
        int rows = 1_000_001;
        int lookups = 20;
        int scans = 3;
        for (int i = 0; i < args.length; i += 2) {
            int value = Integer.parseInt(args[i + 1].replace("_", "").replace(",", ""));
            switch (args[i]) {
                case "--rows" -> rows = value;
                case "--lookups" -> lookups = value;
                case "--scans" -> scans = value;
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        if (rows % SCRAMBLE == 0) {
            throw new IllegalArgumentException("--rows must not be a multiple of " + SCRAMBLE);
        }

        Path root = Files.createTempDirectory("paimon-hdfs-benchmark");
        HdfsCluster cluster = HdfsCluster.shared();
        String hdfsWarehouse = cluster.uri() + "/bench-warehouse";
        Path coreSite = HdfsCluster.writeConfigurationFile(root.resolve("core-site.xml"), ImmutableMap.of("fs.defaultFS", cluster.uri()));
        try (PaimonJavaCatalog local = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)));
                PaimonJavaCatalog hdfs = PaimonJavaCatalog.onHadoop(hdfsWarehouse, cluster.clientConfiguration());
                QueryRunner queryRunner = PaimonQueryRunner.create(root, DATABASE)) {
            queryRunner.createCatalog("hdfs", "paimon", ImmutableMap.of(
                    "paimon.warehouse", hdfsWarehouse,
                    "fs.hadoop.enabled", "true",
                    "hive.config.resources", coreSite.toString()));
            local.createDatabase(DATABASE);
            hdfs.createDatabase(DATABASE);
            local.createTable(DATABASE, "bench", schema(rows));
            hdfs.createTable(DATABASE, "bench", schema(rows));

            String[] tables = {"paimon.%s.bench".formatted(DATABASE), "hdfs.%s.bench".formatted(DATABASE)};
            long[] insertNanos = new long[tables.length];
            for (int table = 0; table < tables.length; table++) {
                long start = System.nanoTime();
                queryRunner.execute(INSERT.formatted(tables[table], rows, CHUNK, SCRAMBLE, (rows - 1) / CHUNK, CHUNK - 1));
                insertNanos[table] = System.nanoTime() - start;
            }
            MaterializedRow onDisk = queryRunner.execute(CHECKSUM.formatted(tables[0])).getMaterializedRows().getFirst();
            MaterializedRow onHdfs = queryRunner.execute(CHECKSUM.formatted(tables[1])).getMaterializedRows().getFirst();
            if (!onDisk.equals(onHdfs)) {
                throw new IllegalStateException("the tables differ: local %s, HDFS %s".formatted(onDisk, onHdfs));
            }
            for (String table : tables) {
                for (int i = 0; i < 5; i++) {
                    ScanStatistics.execute(queryRunner, "SELECT * FROM %s WHERE id = %s".formatted(table, i * 7919L % rows));
                }
            }

            long[][] lookupNanos = new long[tables.length][lookups];
            Random random = new Random(42);
            for (int lookup = 0; lookup < lookups; lookup++) {
                long key = random.nextInt(rows);
                for (int table = 0; table < tables.length; table++) {
                    ScanStatistics statistics = ScanStatistics.execute(queryRunner, "SELECT * FROM %s WHERE id = %s".formatted(tables[table], key));
                    if (statistics.result().getRowCount() != 1) {
                        throw new IllegalStateException("key %s in %s: %s rows".formatted(key, tables[table], statistics.result().getRowCount()));
                    }
                    lookupNanos[table][lookup] = statistics.elapsedNanos();
                }
            }
            long[][] scanNanos = new long[tables.length][scans];
            for (int scan = 0; scan < scans; scan++) {
                for (int table = 0; table < tables.length; table++) {
                    scanNanos[table][scan] = ScanStatistics.execute(queryRunner, CHECKSUM.formatted(tables[table])).elapsedNanos();
                }
            }

            StringBuilder report = new StringBuilder();
            report.append("## The bench table on the local disk and on HDFS, %,d rows, 4 buckets, one INSERT each (%d lookups of random keys, %d scans)%n%n".formatted(rows, lookups, scans));
            report.append("| table | INSERT ms | lookup ms (median, max) | full scan ms (median, min..max) |\n");
            report.append("| --- | --- | --- | --- |\n");
            for (int table = 0; table < tables.length; table++) {
                report.append("| %s | %,d | %,.0f (%,d) | %,.0f (%,d..%,d) |%n".formatted(
                        tables[table],
                        insertNanos[table] / 1_000_000,
                        median(lookupNanos[table]) / 1e6, Arrays.stream(lookupNanos[table]).max().orElse(0) / 1_000_000,
                        median(scanNanos[table]) / 1e6, Arrays.stream(scanNanos[table]).min().orElse(0) / 1_000_000, Arrays.stream(scanNanos[table]).max().orElse(0) / 1_000_000));
            }
            report.append("%nHDFS ÷ local disk: lookup %.2f, full scan %.2f, INSERT %.2f%n".formatted(
                    median(lookupNanos[1]) / median(lookupNanos[0]),
                    median(scanNanos[1]) / median(scanNanos[0]),
                    (double) insertNanos[1] / insertNanos[0]));
            System.out.println("\n" + report);
            Path output = Files.createDirectories(Path.of("target", "benchmark")).resolve("hdfs-warehouse.md");
            Files.writeString(output, report.toString());
            System.out.println("report: " + output.toAbsolutePath());
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
        // the minicluster's threads are not daemons: its shutdown hook stops it
        System.exit(0);
    }

    private static Schema schema(int rows)
    {
        return ReadAmplificationTables.schema(rows)
                .option("target-file-size", "128mb")
                .option("write-only", "true")
                .build();
    }
}
