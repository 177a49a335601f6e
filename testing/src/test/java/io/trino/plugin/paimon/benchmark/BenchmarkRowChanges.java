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
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.CloseableIterator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DATABASE;

/**
 * UPDATE and MERGE on a 4-bucket primary-key table of N rows (the read benchmark's shape, written by Paimon Java as
 * {@link BenchmarkInsert} writes it, {@code write-only}): through our merge sink in an in-process Trino, and through
 * Paimon Java 1.4.2's own update path on an equal table, as Spark's UPDATE and MERGE write a primary-key table: read
 * the table (and the staging table), compute the changed rows, write them through {@code newBatchWriteBuilder} as
 * +U rows (and +I for new keys) in one commit. Steps, each on both tables, in this order:
 * <ol>
 * <li>{@code UPDATE … SET c_int = c_int + 1 WHERE id % 100 = 0} (1 % of the rows);</li>
 * <li>{@code UPDATE … SET c_int = c_int + 1 WHERE id % 10 = 0} (10 %);</li>
 * <li>{@code MERGE} of a staging table of N / 20 rows (100,000 at 2M), half of them keys of the table (updated: two
 * columns replaced), half new keys (inserted).</li>
 * </ol>
 * Reports each step's seconds and the number of data files it added, for both, and checks after each step that both
 * tables hold the same rows. A warm-up of the three steps at a tenth of the rows runs first. Flags in
 * {@code -Dbenchmark.args}: {@code --rows N} (default 2,000,000), {@code --quick} (200,000 rows).
 */
public final class BenchmarkRowChanges
{
    private static final int C_INT = 5;
    private static final int C_LONG_TEXT = 4;

    private static final String STAGING = """
            CREATE TABLE %1$s AS
            SELECT id,
                id * 3 AS c_long,
                CAST(id AS double) AS c_double,
                'm' AS c_short_text,
                'merged ' || CAST(id AS varchar) AS c_long_text,
                CAST(-(id %% 100000) AS integer) AS c_int,
                CAST(CAST(id %% 1000 AS decimal(18, 2)) AS decimal(18, 2)) AS c_decimal,
                DATE '2000-01-01' AS c_date,
                true AS c_bool
            -- Trino's sequence() stops at 10,000 entries: two of them crossed give up to a million ids
            FROM (SELECT %2$d + high * 1000 + low AS id FROM unnest(sequence(0, 999)) a(high) CROSS JOIN unnest(sequence(0, 999)) b(low))
            WHERE id <= %3$d
            """;

    private static final String MERGE = """
            MERGE INTO %1$s t USING %2$s s ON t.id = s.id
            WHEN MATCHED THEN UPDATE SET c_int = s.c_int, c_long_text = s.c_long_text
            WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.c_long, s.c_double, s.c_short_text, s.c_long_text, s.c_int, s.c_decimal, s.c_date, s.c_bool)
            """;

    private BenchmarkRowChanges() {}

    record Settings(int rows)
    {
        static Settings parse(String[] args)
        {
            int rows = 2_000_000;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--quick")) {
                    rows = 200_000;
                }
                else if (arg.startsWith("--rows")) {
                    String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : args[++i];
                    rows = Integer.parseInt(value.replace("_", "").replace(",", ""));
                }
                else {
                    throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            return new Settings(rows);
        }
    }

    /** One step on both tables: rows changed, seconds and data files added by each. */
    record Step(String name, long rows, double oursSeconds, int oursFiles, double paimonSeconds, int paimonFiles) {}

    public static void main(String[] args)
            throws Exception
    {
        Settings settings = Settings.parse(args);
        Path root = Files.createTempDirectory("paimon-row-changes-benchmark");
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)));
                QueryRunner queryRunner = PaimonQueryRunner.create(root, DATABASE)) {
            paimon.createDatabase(DATABASE);
            Path ioDirectory = Files.createDirectories(root.resolve("io"));
            String loadAtStart = LoadAverage.now();

            int warmupRows = Math.max(10_000, settings.rows() / 10);
            run(queryRunner, paimon, ioDirectory, "warmup", warmupRows);
            System.out.println("warm-up of %,d rows done".formatted(warmupRows));

            List<Step> steps = run(queryRunner, paimon, ioDirectory, "run", settings.rows());
            String loadAtEnd = LoadAverage.now();

            StringBuilder report = new StringBuilder();
            report.append("## UPDATE and MERGE on a 4-bucket primary-key table of %,d rows (after a warm-up at %,d rows)%n%n".formatted(settings.rows(), warmupRows));
            report.append("| step | rows changed | ours (Trino) | files ours | Paimon Java 1.4.2 (read, +U/+I rows, one commit) | files Paimon Java | ours ÷ Paimon Java (time) |\n");
            report.append("| --- | --- | --- | --- | --- | --- | --- |\n");
            for (Step step : steps) {
                report.append("| %s | %,d | %.1f s | %d | %.1f s | %d | %.2f |%n".formatted(
                        step.name(), step.rows(), step.oursSeconds(), step.oursFiles(), step.paimonSeconds(), step.paimonFiles(), step.oursSeconds() / step.paimonSeconds()));
            }
            report.append("%nBoth tables hold the same rows after every step (checked by a checksum of every column). Load average (1, 5, 15 min) at start: %s; at end: %s; %d processors%n"
                    .formatted(loadAtStart, loadAtEnd, Runtime.getRuntime().availableProcessors()));
            System.out.println("\n" + report);
            Path output = Files.createDirectories(Path.of("target", "benchmark")).resolve("row-changes.md");
            Files.writeString(output, report.toString());
            System.out.println("report: " + output.toAbsolutePath());
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static List<Step> run(QueryRunner queryRunner, PaimonJavaCatalog paimon, Path ioDirectory, String prefix, int rows)
            throws IOException
    {
        String ours = prefix + "_ours";
        String theirs = prefix + "_paimon";
        BenchmarkInsert.writeWithPaimonJava(paimon, ours, rows, ioDirectory, _ -> {});
        BenchmarkInsert.writeWithPaimonJava(paimon, theirs, rows, ioDirectory, _ -> {});
        Table paimonTable = paimon.getTable(DATABASE, theirs);
        checkSame(queryRunner, ours, theirs);

        List<Step> steps = new ArrayList<>();
        for (int modulus : new int[] {100, 10}) {
            String sql = "UPDATE %s SET c_int = c_int + 1 WHERE id %% %d = 0";
            long expected = (rows + modulus - 1) / modulus;
            steps.add(step(queryRunner, "UPDATE %d %% of the rows".formatted(100 / modulus), ours, theirs, expected,
                    () -> queryRunner.execute(sql.formatted(ours, modulus)),
                    () -> updateWithPaimonJava(paimonTable, ioDirectory, modulus)));
        }

        // half of the staging keys are the table's last ones, half are new
        int mergeRows = Math.max(2, rows / 20);
        String staging = prefix + "_staging";
        queryRunner.execute(STAGING.formatted(staging, rows - mergeRows / 2, rows + (mergeRows - mergeRows / 2) - 1));
        Table stagingTable = paimon.getTable(DATABASE, staging);
        steps.add(step(queryRunner, "MERGE %,d staging rows (half matching, half new)".formatted(mergeRows), ours, theirs, mergeRows,
                () -> queryRunner.execute(MERGE.formatted(ours, staging)),
                () -> mergeWithPaimonJava(paimonTable, stagingTable, ioDirectory)));
        return steps;
    }

    private static Step step(QueryRunner queryRunner, String name, String ours, String theirs, long expectedRows, Statement trino, PaimonStatement paimonJava)
            throws IOException
    {
        Set<String> oursBefore = files(queryRunner, ours);
        Set<String> theirsBefore = files(queryRunner, theirs);

        long start = System.nanoTime();
        Object written = trino.run().getMaterializedRows().getFirst().getField(0);
        double oursSeconds = (System.nanoTime() - start) / 1e9;
        if (!written.equals(expectedRows)) {
            throw new IllegalStateException("%s on %s changed %s rows, expected %s".formatted(name, ours, written, expectedRows));
        }

        start = System.nanoTime();
        long changed = paimonJava.run();
        double paimonSeconds = (System.nanoTime() - start) / 1e9;
        if (changed != expectedRows) {
            throw new IllegalStateException("%s on %s wrote %s rows, expected %s".formatted(name, theirs, changed, expectedRows));
        }

        checkSame(queryRunner, ours, theirs);
        int oursFiles = added(files(queryRunner, ours), oursBefore);
        int theirFiles = added(files(queryRunner, theirs), theirsBefore);
        System.out.println("%s: ours %.1f s, %d files; Paimon Java %.1f s, %d files".formatted(name, oursSeconds, oursFiles, paimonSeconds, theirFiles));
        return new Step(name, expectedRows, oursSeconds, oursFiles, paimonSeconds, theirFiles);
    }

    interface Statement
    {
        MaterializedResult run();
    }

    interface PaimonStatement
    {
        long run()
                throws IOException;
    }

    private static void checkSame(QueryRunner queryRunner, String ours, String theirs)
    {
        MaterializedRow oursChecksum = queryRunner.execute(BenchmarkInsert.CHECKSUM.formatted(ours)).getMaterializedRows().getFirst();
        MaterializedRow theirChecksum = queryRunner.execute(BenchmarkInsert.CHECKSUM.formatted(theirs)).getMaterializedRows().getFirst();
        if (!oursChecksum.equals(theirChecksum)) {
            throw new IllegalStateException("the tables differ: ours %s, Paimon Java %s".formatted(oursChecksum, theirChecksum));
        }
    }

    private static Set<String> files(QueryRunner queryRunner, String table)
    {
        Set<String> files = new HashSet<>();
        for (MaterializedRow row : queryRunner.execute("SELECT file_path FROM \"%s$files\"".formatted(table)).getMaterializedRows()) {
            files.add((String) row.getField(0));
        }
        return files;
    }

    private static int added(Set<String> after, Set<String> before)
    {
        Set<String> added = new HashSet<>(after);
        added.removeAll(before);
        return added.size();
    }

    /** Spark's UPDATE of a primary-key table: read every row, keep the matching ones, write each changed as +U. */
    private static long updateWithPaimonJava(Table table, Path ioDirectory, int modulus)
            throws IOException
    {
        RowType rowType = table.rowType();
        List<InternalRow.FieldGetter> getters = getters(rowType);
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        long changed = 0;
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(ioDirectory.toString()));
                BatchTableCommit commit = builder.newCommit();
                CloseableIterator<InternalRow> rows = read(table)) {
            while (rows.hasNext()) {
                InternalRow row = rows.next();
                if (row.getLong(0) % modulus == 0) {
                    GenericRow updated = copy(row, getters, RowKind.UPDATE_AFTER);
                    updated.setField(C_INT, row.getInt(C_INT) + 1);
                    write.write(updated);
                    changed++;
                }
            }
            commit.commit(write.prepareCommit());
        }
        catch (IOException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IOException("Paimon Java failed to update " + table.name(), e);
        }
        return changed;
    }

    /**
     * Spark's MERGE into a primary-key table: the staging rows by key, then every row of the table read; a matched row
     * is written as +U with the two columns replaced, and the staging rows left unmatched as +I.
     */
    private static long mergeWithPaimonJava(Table table, Table staging, Path ioDirectory)
            throws IOException
    {
        Map<Long, InternalRow> source = new HashMap<>();
        InternalRowSerializer serializer = new InternalRowSerializer(staging.rowType());
        try (CloseableIterator<InternalRow> rows = read(staging)) {
            while (rows.hasNext()) {
                InternalRow row = rows.next();
                source.put(row.getLong(0), serializer.copy(row));
            }
        }
        catch (Exception e) {
            throw new IOException("Paimon Java failed to read " + staging.name(), e);
        }

        List<InternalRow.FieldGetter> getters = getters(table.rowType());
        List<InternalRow.FieldGetter> sourceGetters = getters(staging.rowType());
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        long changed = 0;
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(ioDirectory.toString()));
                BatchTableCommit commit = builder.newCommit()) {
            try (CloseableIterator<InternalRow> rows = read(table)) {
                while (rows.hasNext()) {
                    InternalRow row = rows.next();
                    InternalRow match = source.remove(row.getLong(0));
                    if (match != null) {
                        GenericRow updated = copy(row, getters, RowKind.UPDATE_AFTER);
                        updated.setField(C_INT, match.getInt(C_INT));
                        updated.setField(C_LONG_TEXT, BinaryString.fromString(match.getString(C_LONG_TEXT).toString()));
                        write.write(updated);
                        changed++;
                    }
                }
            }
            for (InternalRow row : source.values()) {
                write.write(copy(row, sourceGetters, RowKind.INSERT));
                changed++;
            }
            commit.commit(write.prepareCommit());
        }
        catch (IOException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IOException("Paimon Java failed to merge into " + table.name(), e);
        }
        return changed;
    }

    private static CloseableIterator<InternalRow> read(Table table)
            throws IOException
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan());
        return reader.toCloseableIterator();
    }

    private static List<InternalRow.FieldGetter> getters(RowType rowType)
    {
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            getters.add(InternalRow.createFieldGetter(rowType.getTypeAt(i), i));
        }
        return getters;
    }

    private static GenericRow copy(InternalRow row, List<InternalRow.FieldGetter> getters, RowKind kind)
    {
        GenericRow copy = new GenericRow(kind, getters.size());
        for (int i = 0; i < getters.size(); i++) {
            copy.setField(i, getters.get(i).getFieldOrNull(row));
        }
        return copy;
    }
}
