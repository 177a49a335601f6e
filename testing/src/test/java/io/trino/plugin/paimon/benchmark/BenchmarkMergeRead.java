package io.trino.plugin.paimon.benchmark;

import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;

/**
 * Full scans of a primary-key table (id BIGINT plus 8 value columns, 4 buckets) written as 1 and as 5 sorted runs
 * (each run after the first updates 20 % of the keys at random): rows/s through our connector in an in-process
 * Trino (one worker thread per bucket split, every column consumed by an aggregate) and through Paimon Java's own
 * merging reader (single thread, every field read). The first measurement of each kind is a warm-up.
 * Run: {@code ./mvnw -B -DskipTests -Pbenchmark -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkMergeRead package}
 * ({@code -Dbenchmark.args="<rows> <iterations>"}, default 2000000 3).
 */
public final class BenchmarkMergeRead
{
    private static final String QUERY = """
            SELECT count(*), sum(id), max(c_long), sum(c_double), max(c_short_text), max(c_long_text), sum(c_int), sum(c_decimal), max(c_date), count_if(c_bool)
            FROM %s
            """;

    private BenchmarkMergeRead() {}

    public static void main(String[] args)
            throws Exception
    {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path root = Files.createTempDirectory("paimon-merge-benchmark");
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)))) {
            paimon.createDatabase("bench");
            for (int runs : new int[] {1, 5}) {
                long start = System.nanoTime();
                Table table = writeTable(paimon, "runs_" + runs, rows, runs);
                System.out.printf("wrote runs_%d (%,d rows, %d sorted runs) in %,d ms%n", runs, rows, runs, (System.nanoTime() - start) / 1_000_000);
            }
            try (QueryRunner queryRunner = PaimonQueryRunner.create(root, "bench")) {
                for (int runs : new int[] {1, 5}) {
                    String table = "runs_" + runs;
                    long[] ours = new long[iterations];
                    long[] theirs = new long[iterations];
                    for (int iteration = -1; iteration < iterations; iteration++) {
                        long start = System.nanoTime();
                        Object count = queryRunner.execute(QUERY.formatted(table)).getMaterializedRows().getFirst().getField(0);
                        long oursNanos = System.nanoTime() - start;
                        if (!count.equals((long) rows)) {
                            throw new IllegalStateException("read %s rows, expected %s".formatted(count, rows));
                        }
                        start = System.nanoTime();
                        long paimonRows = readWithPaimon(paimon.getTable("bench", table));
                        long paimonNanos = System.nanoTime() - start;
                        if (paimonRows != rows) {
                            throw new IllegalStateException("Paimon read %s rows, expected %s".formatted(paimonRows, rows));
                        }
                        if (iteration >= 0) {
                            ours[iteration] = oursNanos;
                            theirs[iteration] = paimonNanos;
                        }
                    }
                    double oursRate = rows / (median(ours) / 1e9);
                    double theirsRate = rows / (median(theirs) / 1e9);
                    System.out.printf("%d sorted run(s): ours %,.0f rows/s (median of %d, %,d..%,d ms), Paimon Java reader %,.0f rows/s (%,d..%,d ms), ratio %.2f%n",
                            runs, oursRate, iterations, min(ours) / 1_000_000, max(ours) / 1_000_000, theirsRate, min(theirs) / 1_000_000, max(theirs) / 1_000_000, oursRate / theirsRate);
                }
            }
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static Table writeTable(PaimonJavaCatalog paimon, String name, int rows, int runs)
    {
        Table table = paimon.createTable("bench", name, Schema.newBuilder()
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
                .option("bucket", "4")
                .option("write-only", "true")
                .build());
        Random random = new Random(42);
        List<GenericRow> batch = new ArrayList<>(rows);
        for (long id = 0; id < rows; id++) {
            batch.add(row(random, id));
        }
        PaimonJavaCatalog.write(table, batch);
        for (int run = 1; run < runs; run++) {
            batch = new ArrayList<>();
            for (int i = 0; i < rows / 5; i++) {
                batch.add(row(random, random.nextInt(rows)));
            }
            PaimonJavaCatalog.write(table, batch);
        }
        return table;
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

    // Paimon Java's merging reader, every field of every row read, as Trino connectors built on it do
    private static long readWithPaimon(Table table)
            throws Exception
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        long count = 0;
        long checksum = 0;
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan())) {
            RecordReader.RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    checksum += row.getLong(0) + row.getLong(1) + (long) row.getDouble(2) + row.getString(3).getSizeInBytes() + row.getString(4).getSizeInBytes()
                            + row.getInt(5) + row.getDecimal(6, 18, 2).toUnscaledLong() + row.getInt(7) + (row.getBoolean(8) ? 1 : 0);
                    count++;
                }
                batch.releaseBatch();
            }
        }
        if (checksum == 42) {
            System.out.print("");
        }
        return count;
    }

    private static long median(long[] values)
    {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long min(long[] values)
    {
        return Arrays.stream(values).min().orElseThrow();
    }

    private static long max(long[] values)
    {
        return Arrays.stream(values).max().orElseThrow();
    }
}
