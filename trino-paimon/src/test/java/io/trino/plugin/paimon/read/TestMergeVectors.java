package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The deduplicate and first-row vectors of merge-semantics.md §13.1 and §13.2: Paimon Java 1.4.2 writes each
 * record (or each braced group) as its own commit, and Trino must read exactly what Paimon Java reads, which
 * must also be the doc's expectation. Re-run on 1.4.2, every expectation held; D7e keeps 1.3.1's writer defect.
 */
final class TestMergeVectors
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "vectors";

    private final AtomicInteger tableIds = new AtomicInteger();

    @Override
    protected String defaultSchema()
    {
        return DATABASE;
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        paimon.createDatabase(DATABASE);
    }

    @Test
    void deduplicate()
            throws Exception
    {
        assertVector("D1", Shape.KV, Map.of(), "+I(1,a) | +U(1,b)", "(1,b)");
        assertVector("D2", Shape.KV, Map.of(), "+I(1,a) | -D(1,a)");
        assertVector("D2b", Shape.KV, Map.of(), "-D(1,a) | +I(1,b)", "(1,b)");
        assertVector("D3", Shape.KV, Map.of("ignore-delete", "true"), "+I(1,a) | -D(1,a)", "(1,a)");
        assertVector("D3b", Shape.KV, Map.of("deduplicate.ignore-delete", "true"), "+I(1,a) | -D(1,a)", "(1,a)");
        assertVector("D4", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,3)", "(1,a,5)");
        assertVector("D4-3", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,3) | +I(1,c,7)", "(1,c,7)");
        assertVector("D5", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,5)", "(1,b,5)");
        assertVector("D6", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,N)", "(1,a,5)");
        assertVector("D6b", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,b,N) | +I(1,a,5)", "(1,a,5)");
        Map<String, String> descending = Map.of("sequence.field", "ts", "sequence.field.sort-order", "descending");
        assertVector("D7", Shape.KV_TS, descending, "+I(1,a,5) | +I(1,b,3) | +I(1,c,7)", "(1,b,3)");
        assertVector("D7b", Shape.KV_TS, descending, "+I(1,a,5) | +I(1,b,N)", "(1,a,5)");
        assertVector("D7c", Shape.KV_TS, descending, "+I(1,b,N) | +I(1,a,5)", "(1,a,5)");
        assertVector("D7d", Shape.KV_TS, descending, "+I(1,a,5) | +I(1,b,5)", "(1,b,5)");
        // D7e: Paimon's writer folds the one commit into a single record ascending, ignoring the descending order
        // (merge-semantics §4); 1.4.2 still writes (1,a,5), and a reader can only return what the file holds
        assertVector("D7e", Shape.KV_TS, descending, "+I(1,a,5), +I(1,b,3)", "(1,a,5)");
        assertVector("D8", Shape.KV_S1_S2, Map.of("sequence.field", "s1,s2"), "+I(1,a,1,9) | +I(1,b,2,0) | +I(1,c,2,N) | +I(1,d,1,10)", "(1,b,2,0)");
        assertVector("D9", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | -D(1,a,3)", "(1,a,5)");
        assertVector("S2", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | -D(1,a,6) | +I(1,b,4)");
        assertVector("D10", Shape.KV, Map.of(), "-D(1,a)");
        assertVector("D11", Shape.KV, Map.of(), "+I(1,a) | -U(1,a)");
        assertVector("Q4", Shape.KV, Map.of(), "+I(1,a) | -U(1,a), +U(1,b)", "(1,b)");
        assertVector("S3", Shape.KV, Map.of(), "+I(3,c), +I(1,a) | +I(2,b), -D(3,c)", "(1,a)", "(2,b)");
        assertVector("S5", Shape.SKV, Map.of(), "+I(b,1), +I(a,1), +I(é,1), +I(z,1), +I(,1) | +I(a,2)", "(,1)", "(a,2)", "(b,1)", "(z,1)", "(é,1)");
    }

    @Test
    void firstRow()
            throws Exception
    {
        Map<String, String> firstRow = Map.of("merge-engine", "first-row");
        // F1: level-0 files are invisible to batch reads of first-row tables until compacted
        Table f1 = writeVector(Shape.KV, firstRow, "+I(1,a) | +I(1,b)");
        assertThat(read(f1)).isEmpty();
        assertThat(PaimonJavaCatalog.readRows(f1)).isEmpty();
        compact(f1);
        assertThat(read(f1)).containsExactly("(1,a)").isEqualTo(paimonRows(f1));

        assertCompactedVector("F8", firstRow, "+I(1,a), +I(1,b)", "(1,a)");
        assertCompactedVector("F3", Map.of("merge-engine", "first-row", "first-row.ignore-delete", "true"), "+I(1,a) | -D(1,a) | +I(1,c)", "(1,a)");
        assertCompactedVector("F5", firstRow, "+U(1,a) | +I(1,b)", "(1,a)");
    }

    @Test
    void partialUpdateWithoutSequenceGroups()
            throws Exception
    {
        Map<String, String> partialUpdate = Map.of("merge-engine", "partial-update");
        // the user's example: three commits fill in the row
        assertVector("P1", Shape.BOOK, partialUpdate, "+I(1,23.0,10,N) | +I(1,N,N,'This is a book') | +I(1,25.2,N,N)", "(1,25.2,10,This is a book)");
        assertVector("Q6", Shape.KAB, partialUpdate, "+I(1,1,1) | +I(1,N,N)", "(1,1,1)");
        assertVector("P15", Shape.KAB_TS, Map.of("merge-engine", "partial-update", "sequence.field", "ts"), "+I(1,1,N,5) | +I(1,2,3,3)", "(1,1,3,5)");
        assertVector("P8c", Shape.KAB, partialUpdate, "-D(1,1,1)");
        assertVector("P9", Shape.KAB, Map.of("merge-engine", "partial-update", "ignore-delete", "true"), "+I(1,1,1) | -D(1,1,1) | +I(1,N,5)", "(1,1,5)");
        Map<String, String> removeOnDelete = Map.of("merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true");
        assertVector("P10", Shape.KAB, removeOnDelete, "+I(1,1,1) | -D(1,N,N)");
        assertVector("P10'", Shape.KAB, removeOnDelete, "+I(1,1,1) | -D(1,N,N) | +I(1,N,5)", "(1,N,5)");
        assertVector("P10c", Shape.KAB, removeOnDelete, "+I(1,1,1) | -U(1,1,1)", "(1,1,1)");

        // P8, P8b: a retraction among several records fails the read, in Paimon Java as here
        for (String commits : List.of("+I(1,1,1) | -D(1,1,1)", "+I(1,1,1) | -U(1,1,1)")) {
            Table table = writeVector(Shape.KAB, partialUpdate, commits);
            assertThatThrownBy(() -> PaimonJavaCatalog.readRows(table)).hasStackTraceContaining("By default, Partial update can not accept delete records");
            assertQueryFails("SELECT * FROM \"%s\"".formatted(table.name()), "(?s)By default, Partial update can not accept delete records, you can choose one of the following solutions:.*");
        }
    }

    @Test
    void keysOrderAsPaimonOrdersThem()
            throws Exception
    {
        // S5: unsigned UTF-8 order, '' < a < z < é, across two runs
        Table table = writeVector(Shape.SKV, Map.of(), "+I(b,1), +I(a,1), +I(é,1), +I(z,1), +I(,1) | +I(a,2)");
        assertThat(computeActual("SELECT k FROM \"%s\" ORDER BY k".formatted(table.name())).getOnlyColumn().toList())
                .containsExactly("", "a", "b", "z", "é");
    }

    private void assertVector(String name, Shape shape, Map<String, String> options, String commits, String... expected)
            throws Exception
    {
        Table table = writeVector(shape, options, commits);
        List<String> paimonRows = paimonRows(table);
        assertThat(paimonRows).as("%s in Paimon Java 1.4.2", name).containsExactlyInAnyOrder(expected);
        assertThat(read(table)).as("%s through Trino", name).isEqualTo(paimonRows);
    }

    private void assertCompactedVector(String name, Map<String, String> options, String commits, String... expected)
            throws Exception
    {
        Table table = writeVector(Shape.KV, options, commits);
        compact(table);
        List<String> paimonRows = paimonRows(table);
        assertThat(paimonRows).as("%s in Paimon Java 1.4.2", name).containsExactlyInAnyOrder(expected);
        assertThat(read(table)).as("%s through Trino", name).isEqualTo(paimonRows);
    }

    private List<String> read(Table table)
    {
        return computeActual("SELECT * FROM \"%s\"".formatted(table.name())).getMaterializedRows().stream()
                .map(row -> row.getFields().stream().map(value -> value == null ? "N" : value.toString()).collect(Collectors.joining(",", "(", ")")))
                .sorted()
                .toList();
    }

    // Paimon Java's rows in the notation of the vectors
    private static List<String> paimonRows(Table table)
    {
        return PaimonJavaCatalog.readRows(table).stream()
                .map(row -> "(" + row.substring(3, row.length() - 1).replace(", ", ",").replace("null", "N") + ")")
                .sorted()
                .toList();
    }

    /** Writes each '|'-separated group of records as one commit, with write-only so that no commit compacts. */
    private Table writeVector(Shape shape, Map<String, String> options, String commits)
            throws Exception
    {
        Schema.Builder schema = Schema.newBuilder();
        for (int column = 0; column < shape.columns.size(); column++) {
            schema.column(shape.name(column), switch (shape.type(column)) {
                case "INT" -> DataTypes.INT();
                case "DOUBLE" -> DataTypes.DOUBLE();
                default -> DataTypes.STRING();
            });
        }
        schema.primaryKey("k").option("bucket", "1").option("write-only", "true").options(options);
        Table table = paimon().createTable(DATABASE, "t" + tableIds.incrementAndGet(), schema.build());
        for (String commit : commits.split("\\|")) {
            List<GenericRow> rows = new ArrayList<>();
            for (String record : commit.trim().split("(?<=\\)),\\s*")) {
                rows.add(parse(shape, record.trim()));
            }
            PaimonJavaCatalog.write(table, rows);
        }
        return table;
    }

    private void compact(Table table)
            throws Exception
    {
        Table compacting = table.copy(Map.of("write-only", "false"));
        BatchWriteBuilder builder = compacting.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(root().toString()));
                BatchTableCommit commit = builder.newCommit()) {
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            commit.commit(write.prepareCommit());
        }
    }

    private static GenericRow parse(Shape shape, String record)
    {
        RowKind kind = RowKind.fromShortString(record.substring(0, 2));
        String[] fields = record.substring(3, record.length() - 1).split(",", -1);
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].equals("N")) {
                values[i] = null;
                continue;
            }
            values[i] = switch (shape.type(i)) {
                case "INT" -> Integer.parseInt(fields[i]);
                case "DOUBLE" -> Double.parseDouble(fields[i]);
                default -> BinaryString.fromString(fields[i].replace("'", ""));
            };
        }
        return GenericRow.ofKind(kind, values);
    }

    private enum Shape
    {
        KV("k INT", "v STRING"),
        KV_TS("k INT", "v STRING", "ts INT"),
        KV_S1_S2("k INT", "v STRING", "s1 INT", "s2 INT"),
        SKV("k STRING", "v INT"),
        KAB("k INT", "a INT", "b INT"),
        KAB_TS("k INT", "a INT", "b INT", "ts INT"),
        BOOK("k INT", "price DOUBLE", "cnt INT", "s STRING");

        private final List<String> columns;

        Shape(String... columns)
        {
            this.columns = List.of(columns);
        }

        String name(int column)
        {
            return columns.get(column).split(" ")[0];
        }

        String type(int column)
        {
            return columns.get(column).split(" ")[1];
        }
    }
}
