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
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static java.util.Objects.requireNonNull;

/**
 * Writes the benchmark's tables with Paimon Java: id BIGINT plus eight value columns of mixed types, 4 buckets, N
 * live rows, in Parquet files or another {@code file.format}. The first commit writes every key; each later commit updates
 * N / 5 keys, drawn at random from all keys ({@link Shape#RANDOM}: every file of a bucket overlaps), or from the newest
 * quarter of the keys ({@link Shape#CLUSTERED}: older files pass through unmerged), or all the keys of a range of
 * N / 5 consecutive ids, the next range each commit ({@link Shape#RANGES}, as a backfill rewrites a stretch of a
 * table: whole pages of older runs lose the merge). With {@code write-only}, every commit is one more
 * level-0 sorted run per bucket; after commit R the table is copied (data files hard-linked) to
 * {@code <shape>_r<R>}. Also written: {@code compacted}, the live rows of the random table with the most runs fully
 * compacted into one run, and {@code deletion_vectors}, the random workload on a deletion-vector table.
 */
final class ReadAmplificationTables
{
    static final String DATABASE = "bench";
    static final String COMPACTED = "compacted";
    static final String DELETION_VECTORS = "deletion_vectors";
    static final int BUCKETS = 4;

    enum Shape
    {
        RANDOM, CLUSTERED, RANGES;

        String tableName(int runs)
        {
            return name().toLowerCase(Locale.ENGLISH) + "_r" + runs;
        }
    }

    private final PaimonJavaCatalog paimon;
    private final Path ioTempDirectory;
    private final int rows;
    private final String format;

    ReadAmplificationTables(PaimonJavaCatalog paimon, Path ioTempDirectory, int rows, String format)
    {
        this.paimon = requireNonNull(paimon, "paimon is null");
        this.ioTempDirectory = requireNonNull(ioTempDirectory, "ioTempDirectory is null");
        this.rows = rows;
        this.format = requireNonNull(format, "format is null");
    }

    /** Writes {@code <shape>_r<R>} for every R of sortedRuns (ascending). */
    void writeShape(Shape shape, List<Integer> sortedRuns)
    {
        String work = shape.tableName(0) + "_work";
        Table table = paimon.createTable(DATABASE, work, schema().option("write-only", "true").build());
        Random random = new Random(shape.ordinal() * 1000L + 42);
        int maxRuns = sortedRuns.getLast();
        for (int run = 1; run <= maxRuns; run++) {
            commit(table, run == 1 ? allKeys(random) : updates(random, shape, run), false);
            if (sortedRuns.contains(run)) {
                copyTable(work, shape.tableName(run));
            }
        }
        deleteTable(work);
    }

    /** The live rows of {@code from} in one fully compacted sorted run per bucket. */
    void writeCompacted(String from)
    {
        copyTable(from, COMPACTED);
        // the copy inherits write-only; this one commit compacts
        Table table = paimon.getTable(DATABASE, COMPACTED).copy(Map.of("write-only", "false"));
        commit(table, List.of(), true);
    }

    /** Paimon Java's full compaction of every bucket of a table, in one commit, as {@link #writeCompacted} does it. */
    void compactFully(String table)
    {
        commit(paimon.getTable(DATABASE, table).copy(Map.of("write-only", "false")), List.of(), true);
    }

    /** The random workload with deletion vectors: each commit is compacted, old rows are marked deleted. */
    void writeDeletionVectors(int commits)
    {
        Table table = paimon.createTable(DATABASE, DELETION_VECTORS, schema().option("deletion-vectors.enabled", "true").build());
        Random random = new Random(42);
        for (int run = 1; run <= commits; run++) {
            commit(table, run == 1 ? allKeys(random) : updates(random, Shape.RANDOM, run), false);
        }
    }

    private Schema.Builder schema()
    {
        return schema(rows).option("file.format", format);
    }

    /** The benchmark's table of {@code rows} rows: id BIGINT primary key, eight value columns, 4 buckets. */
    static Schema.Builder schema(int rows)
    {
        // small files, so that a bucket's run is several files and clustered updates leave most of them alone
        long targetFileKb = Math.max(256, rows * 2L / 1000);
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("c_long", DataTypes.BIGINT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_short_text", DataTypes.STRING())
                .column("c_long_text", DataTypes.STRING())
                .column("c_int", DataTypes.INT())
                .column("c_decimal", DataTypes.DECIMAL(18, 2))
                .column("c_date", DataTypes.DATE())
                .column("c_bool", DataTypes.BOOLEAN())
                .primaryKey("id")
                .option("bucket", String.valueOf(BUCKETS))
                .option("target-file-size", targetFileKb + "kb");
    }

    private List<GenericRow> allKeys(Random random)
    {
        List<GenericRow> batch = new ArrayList<>(rows);
        for (long id = 0; id < rows; id++) {
            batch.add(row(random, id));
        }
        return batch;
    }

    // the updates of the run-th commit (2 and later): a fifth of the key count
    private List<GenericRow> updates(Random random, Shape shape, int run)
    {
        int count = rows / 5;
        List<GenericRow> batch = new ArrayList<>(count);
        int recent = rows / 4;
        // ranges: every key of a range of a fifth of the keys, a different range each run
        long rangeStart = (long) (run - 2) * count % rows;
        for (int i = 0; i < count; i++) {
            long id = switch (shape) {
                case RANDOM -> random.nextInt(rows);
                case CLUSTERED -> rows - recent + random.nextInt(recent);
                case RANGES -> (rangeStart + i) % rows;
            };
            batch.add(row(random, id));
        }
        return batch;
    }

    private static GenericRow row(Random random, long id)
    {
        return GenericRow.of(
                id,
                random.nextLong(),
                random.nextDouble(),
                BinaryString.fromString("s" + random.nextInt(1000)),
                BinaryString.fromString("a longer text value " + random.nextInt() + " with some padding to look real"),
                random.nextInt(),
                Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextInt(10_000_000), 2), 18, 2),
                random.nextInt(20_000),
                random.nextBoolean());
    }

    private void commit(Table table, List<GenericRow> batch, boolean fullCompaction)
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(ioTempDirectory.toString()));
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : batch) {
                write.write(row);
            }
            if (fullCompaction) {
                for (int bucket = 0; bucket < BUCKETS; bucket++) {
                    write.compact(BinaryRow.EMPTY_ROW, bucket, true);
                }
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to write " + table.name(), e);
        }
    }

    // data and index files are immutable and hard-linked; metadata is copied, since hint files are rewritten
    void copyTable(String from, String to)
    {
        Path source = tablePath(from);
        Path target = tablePath(to);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.toList()) {
                Path copy = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                }
                else if (source.relativize(file).getName(0).toString().startsWith("bucket-") || source.relativize(file).getName(0).toString().equals("index")) {
                    Files.createLink(copy, file);
                }
                else {
                    Files.copy(file, copy);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void deleteTable(String name)
    {
        try {
            deleteRecursively(tablePath(name), ALLOW_INSECURE);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path tablePath(String table)
    {
        return paimon.warehouse().resolve(DATABASE + ".db").resolve(table);
    }
}
