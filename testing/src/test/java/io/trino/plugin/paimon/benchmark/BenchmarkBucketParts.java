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

import io.trino.Session;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.google.common.base.Preconditions.checkState;
import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;

/**
 * One hot bucket (issue 15, parallelism inside a bucket): a one-bucket primary-key table of N rows, written by Paimon
 * Java in two runs, fully compacted into files of {@code target-file-size = 2mb}, with a small level-0 run on top
 * (an update of a narrow key range), scanned with every column aggregated through an in-process Trino as one split
 * (the default {@code max_split_size}) and cut between sections ({@code max_split_size = 4MB}), interleaved.
 * Reports the median time and the splits of each; both must return the same aggregate. Flags in
 * {@code -Dbenchmark.args}: {@code --rows=N} (default 2,000,000), {@code --iterations=I} (5), {@code --warmups=W} (1).
 */
public final class BenchmarkBucketParts
{
    private static final String DATABASE = "hot";
    private static final String SCAN = "SELECT count(*), sum(id), sum(amount), sum(length(note)), count(DISTINCT note) FROM hot_bucket";

    private BenchmarkBucketParts() {}

    public static void main(String[] args)
            throws Exception
    {
        IntegerFlags flags = IntegerFlags.parse(args, Map.of("rows", 2_000_000, "iterations", 5, "warmups", 1));
        int rows = flags.get("rows");
        int iterations = flags.get("iterations");
        int warmups = flags.get("warmups");
        Path root = Files.createTempDirectory("paimon-bucket-parts-benchmark");
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)));
                QueryRunner queryRunner = PaimonQueryRunner.create(root, DATABASE)) {
            String loadAtStart = LoadAverage.now();
            paimon.createDatabase(DATABASE);
            Table table = paimon.createTable(DATABASE, "hot_bucket", Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("amount", DataTypes.DOUBLE())
                    .column("note", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("target-file-size", "2mb")
                    .option("write-only", "true")
                    .build());
            PaimonJavaCatalog.write(table, rows(0, rows, 1, "first"));
            PaimonJavaCatalog.write(table, rows(0, rows, 7, "second"));
            PaimonJavaCatalog.compact(table, Files.createDirectories(root.resolve("io")), 1, _ -> true);
            PaimonJavaCatalog.write(table, rows(rows / 2, rows / 2 + 10_000, 1, "third"));

            Session whole = queryRunner.getDefaultSession();
            Session parts = Session.builder(whole).setCatalogSessionProperty(CATALOG, "max_split_size", "4MB").build();
            List<Long> wholeNanos = new ArrayList<>();
            List<Long> partsNanos = new ArrayList<>();
            long wholeSplits = 0;
            long partsSplits = 0;
            Object expected = null;
            for (int iteration = -warmups; iteration < iterations; iteration++) {
                for (boolean cut : iteration % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    ScanStatistics statistics = ScanStatistics.execute(queryRunner, cut ? parts : whole, SCAN);
                    Object result = statistics.result().getMaterializedRows();
                    if (expected == null) {
                        expected = result;
                    }
                    checkState(result.equals(expected), "the parts read other rows than the whole bucket");
                    if (iteration >= 0) {
                        (cut ? partsNanos : wholeNanos).add(statistics.elapsedNanos());
                        if (cut) {
                            partsSplits = statistics.splits();
                        }
                        else {
                            wholeSplits = statistics.splits();
                        }
                    }
                }
            }
            double wholeMillis = Timing.of(wholeNanos).medianMillis();
            double partsMillis = Timing.of(partsNanos).medianMillis();
            String report = """
                    ## One hot bucket: %,d rows, compacted into 2 MB files with a level-0 run on top, full scan with every column aggregated, %d warm-up + %d measured runs each, interleaved

                    | read | splits | median |
                    | --- | --- | --- |
                    | one split (default `max_split_size`) | %d | %,.0f ms |
                    | cut between sections (`max_split_size = 4MB`) | %d | %,.0f ms |

                    Parts ÷ whole (time): %.2f. Both returned %s. Load average at start: %s; at end: %s; %d processors
                    """.formatted(rows, warmups, iterations, wholeSplits, wholeMillis, partsSplits, partsMillis, partsMillis / wholeMillis, expected,
                    loadAtStart, LoadAverage.now(), Runtime.getRuntime().availableProcessors());
            System.out.println("\n" + report);
            Path output = Files.createDirectories(Path.of("target", "benchmark")).resolve("bucket-parts.md");
            Files.writeString(output, report);
            System.out.println("report: " + output.toAbsolutePath());
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    // ids from, from + step, … below to
    private static List<GenericRow> rows(long from, long to, int step, String value)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = from; id < to; id += step) {
            rows.add(GenericRow.of(id, id * 0.5, BinaryString.fromString(value + " " + (id % 1000))));
        }
        return rows;
    }
}
