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
package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.utils.HllSketchUtil;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.paimon.utils.RoaringBitmap64;
import org.apache.paimon.utils.ThetaSketch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.apache.paimon.types.RowKind.INSERT;
import static org.apache.paimon.types.RowKind.UPDATE_BEFORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The collection, sketch and bitmap aggregates of merge-semantics §7.2 (vectors A14–A16c of §13.4, and the
 * functions new in Paimon 1.4): Paimon Java 1.4.2 writes each commit as its own level-0 run, and Trino must read
 * exactly what Paimon Java reads; where Paimon's order is unspecified, as sets. Sketches and bitmaps must be
 * byte-identical.
 */
@Tag("slow")
final class TestCollectionAndSketchAggregates
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "aggregates";
    private static final DataType ID_NAME = DataTypes.ROW(DataTypes.FIELD(0, "id", DataTypes.INT()), DataTypes.FIELD(1, "v", DataTypes.STRING()));

    private final AtomicInteger tableIds = new AtomicInteger();

    TestCollectionAndSketchAggregates()
    {
        super(DATABASE);
    }

    @Test
    void collectConcatenatesAndDistinctKeepsEachElementOnce()
    {
        List<DataField> columns = columns(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(DataTypes.INT()));
        Map<String, String> options = Map.of("fields.c.aggregate-function", "collect", "fields.cd.aggregate-function", "collect", "fields.cd.distinct", "true");
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, array(1, 2, 2), array(1, 2, 2))),
                List.of(row(INSERT, 1, array(2, 3), array(2, 3))));
        // A14
        List<Object> row = readOnlyRow(columns, options, commits);
        assertThat(row.get(1)).isEqualTo(List.of(1, 2, 2, 2, 3));
        assertThat(sorted(row.get(2))).isEqualTo(List.of(1, 2, 3));
        // A14': a retraction removes one occurrence per retracted element
        List<List<Object>> retracted = append(commits, List.of(row(UPDATE_BEFORE, 1, array(2), array(2))));
        row = readOnlyRow(columns, options, retracted);
        assertThat(row.get(1)).isEqualTo(List.of(1, 2, 2, 3));
        assertThat(sorted(row.get(2))).isEqualTo(List.of(1, 3));
        assertThat(readOnlyRowCompacted(columns, options, retracted).get(1)).isEqualTo(List.of(1, 2, 2, 3));

        // A14b: a lone value passes through undeduplicated; A14b': a null input deduplicates it
        List<DataField> distinctOnly = columns(DataTypes.ARRAY(DataTypes.INT()));
        Map<String, String> distinct = Map.of("fields.c.aggregate-function", "collect", "fields.c.distinct", "true");
        assertThat(readOnlyRow(distinctOnly, distinct, List.of(List.of(row(INSERT, 1, array(1, 2, 2))))).get(1)).isEqualTo(List.of(1, 2, 2));
        assertThat(sorted(readOnlyRow(distinctOnly, distinct, List.of(List.of(row(INSERT, 1, array(1, 2, 2))), List.of(row(INSERT, 1, (Object) null)))).get(1)))
                .isEqualTo(List.of(1, 2));
    }

    @Test
    void partialUpdateGroupsFoldOlderCollectionsIn()
    {
        // g orders c (collect) and cd (merge_map); the second record is older than the stored group sequence
        List<DataField> columns = columns(DataTypes.ARRAY(DataTypes.INT()), DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()), DataTypes.INT());
        Map<String, String> options = Map.of(
                "merge-engine", "partial-update",
                "fields.g.sequence-group", "c,cd",
                "fields.c.aggregate-function", "collect",
                "fields.cd.aggregate-function", "merge_map");
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, array(1), map(1, string("a")), 5)),
                List.of(row(INSERT, 1, array(2), map(1, string("b"), 2, string("b")), 3)),
                List.of(row(INSERT, 1, array(3), map(3, string("c")), 7)));
        List<Object> row = readOnlyRow(columns, options, commits);
        // collect appends the older input after the accumulator; merge_map lets the stored entries win over it
        assertThat(row.get(1)).isEqualTo(List.of(1, 2, 3));
        assertThat(row.get(2)).isEqualTo(Map.of(1, "a", 2, "b", 3, "c"));
        assertThat(row.get(3)).isEqualTo(7);
    }

    @Test
    void collectComparesElementsAsPaimonDoes()
    {
        // rows are compared by value
        List<DataField> rows = columns(DataTypes.ARRAY(ID_NAME));
        Map<String, String> distinct = Map.of("fields.c.aggregate-function", "collect", "fields.c.distinct", "true");
        List<Object> row = readOnlyRow(rows, distinct, List.of(
                List.of(row(INSERT, 1, array(idName(1, "a"), idName(1, null)))),
                List.of(row(INSERT, 1, array(idName(1, "a"), idName(2, "b"), idName(1, null))))));
        assertThat((List<?>) row.get(1)).hasSize(3);
        // Paimon 1.4.2 fails on a null row element among the accumulated ones, and on retracting rows without
        // distinct; so does the read here
        List<List<Object>> nullElement = List.of(List.of(row(INSERT, 1, array(null, idName(1, "a")))), List.of(row(INSERT, 1, array(idName(2, "b")))));
        assertThatThrownBy(() -> PaimonJavaValues.readValues(write(rows, distinct, nullElement))).hasStackTraceContaining("NullPointerException");
        assertFails(rows, distinct, nullElement, ".*column 'c': collect with distinct cannot compare a nested element with a null element.*");
        Map<String, String> collect = Map.of("fields.c.aggregate-function", "collect");
        List<List<Object>> retractRow = List.of(List.of(row(INSERT, 1, array(idName(1, "a")))), List.of(row(UPDATE_BEFORE, 1, array(idName(1, "a")))));
        assertThatThrownBy(() -> PaimonJavaValues.readValues(write(rows, collect, retractRow))).hasStackTraceContaining("ColumnarRowData do not support equals");
        assertFails(rows, collect, retractRow, ".*column 'c': collect without distinct cannot retract nested elements.*");
        // ... unless only nulls meet: a null element retracts a null element
        row = readOnlyRow(rows, collect, List.of(List.of(row(INSERT, 1, array(null, idName(1, "a")))), List.of(row(UPDATE_BEFORE, 1, array((Object) null)))));
        assertThat(row.get(1)).isEqualTo(List.of(List.of(1, "a")));

        // binary elements are byte[] objects to Paimon's hash set, equal only to themselves: one per distinct value
        // of a Parquet dictionary, so equal values of one record are one, while records of a key are in different files
        List<DataField> binaries = columns(DataTypes.ARRAY(DataTypes.BYTES()));
        row = readOnlyRow(binaries, distinct, List.of(
                List.of(row(INSERT, 1, array((Object) new byte[] {1}, (Object) new byte[] {1}))),
                List.of(row(INSERT, 1, array((Object) new byte[] {1})))));
        assertThat(row.get(1)).isEqualTo(List.of("01", "01"));

        // strings: equal by content
        List<DataField> strings = columns(DataTypes.ARRAY(DataTypes.STRING()));
        row = readOnlyRow(strings, Map.of("fields.c.aggregate-function", "collect"), List.of(
                List.of(row(INSERT, 1, array(string("a"), string("b"), string("a")))),
                List.of(row(UPDATE_BEFORE, 1, array(string("a"), string("z"))))));
        assertThat(row.get(1)).isEqualTo(List.of("b", "a"));
    }

    @Test
    void mergeMapOverwritesAndRetractsKeys()
    {
        List<DataField> columns = columns(DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()));
        Map<String, String> options = Map.of("fields.c.aggregate-function", "merge_map");
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, map(1, string("a"), 2, string("b")))),
                List.of(row(INSERT, 1, map(2, string("c"), 3, null))));
        // A15
        Map<Object, Object> expected = new HashMap<>(Map.of(1, "a", 2, "c"));
        expected.put(3, null);
        assertThat(readOnlyRow(columns, options, commits).get(1)).isEqualTo(expected);
        // A15': retraction removes keys whatever their values
        List<List<Object>> retracted = append(commits, List.of(row(UPDATE_BEFORE, 1, map(1, string("zzz")))));
        expected.remove(1);
        assertThat(readOnlyRow(columns, options, retracted).get(1)).isEqualTo(expected);
        assertThat(readOnlyRowCompacted(columns, options, retracted).get(1)).isEqualTo(expected);
    }

    @Test
    void mergeMapWithKeyTimeKeepsTheLatestTimestampPerKey()
    {
        DataType value = DataTypes.ROW(DataTypes.FIELD(0, "v", DataTypes.STRING()), DataTypes.FIELD(1, "ts", DataTypes.STRING()));
        List<DataField> columns = columns(DataTypes.MAP(DataTypes.STRING(), value));
        Map<String, String> options = Map.of("fields.c.aggregate-function", "merge_map_with_keytime");
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, map(string("a"), valueRow("x", "2024-01-02"), string("b"), valueRow("y", "2024-01-01"), string("d"), valueRow("w", null)))),
                List.of(row(INSERT, 1, map(string("a"), valueRow("x2", "2024-01-01"), string("b"), valueRow("y2", "2024-01-03"), string("c"), valueRow("z", null), string("d"), valueRow("w2", "0")))),
                List.of(row(INSERT, 1, map(string("e"), valueRow("e", "1"), string("a"), null))));
        Map<Object, Object> expected = Map.of(
                "b", List.of("y2", "2024-01-03"),
                "d", List.of("w2", "0"),
                "e", List.of("e", "1"));
        assertThat(readOnlyRow(columns, options, commits).get(1)).isEqualTo(expected);
        assertThat(readOnlyRowCompacted(columns, options, commits).get(1)).isEqualTo(expected);

        // a named timestamp field
        DataType first = DataTypes.ROW(DataTypes.FIELD(0, "ts", DataTypes.STRING()), DataTypes.FIELD(1, "v", DataTypes.STRING()));
        assertThat(readOnlyRow(columns(DataTypes.MAP(DataTypes.INT(), first)), Map.of("fields.c.aggregate-function", "merge_map_with_keytime", "fields.c.ts-field", "ts"), List.of(
                List.of(row(INSERT, 1, map(1, GenericRow.of(string("2"), string("old"))))),
                List.of(row(INSERT, 1, map(1, GenericRow.of(string("10"), string("new"))))))).get(1))
                .isEqualTo(Map.of(1, List.of("2", "old")));

        assertFails(columns, options, List.of(List.of(row(INSERT, 1, map(string("a"), valueRow("x", "1")))), List.of(row(UPDATE_BEFORE, 1, map(string("a"), valueRow("x", "1"))))),
                ".*column 'c': Aggregate function 'merge_map_with_keytime' does not support retraction.*");
    }

    @Test
    void nestedUpdate()
    {
        List<DataField> columns = columns(DataTypes.ARRAY(ID_NAME));
        Map<String, String> keyed = Map.of("fields.c.aggregate-function", "nested_update", "fields.c.nested-key", "id");
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, array(idName(1, "a"), idName(2, "b")))),
                List.of(row(INSERT, 1, array(idName(2, "B"), idName(3, "c")))));
        // A16
        assertThat(sorted(readOnlyRow(columns, keyed, commits).get(1))).isEqualTo(List.of(List.of(1, "a"), List.of(2, "B"), List.of(3, "c")));
        // A16': a retraction removes the rows with the retracted keys
        List<List<Object>> retracted = append(commits, List.of(row(UPDATE_BEFORE, 1, array(idName(1, null)))));
        assertThat(sorted(readOnlyRow(columns, keyed, retracted).get(1))).isEqualTo(List.of(List.of(2, "B"), List.of(3, "c")));
        assertThat(sorted(readOnlyRowCompacted(columns, keyed, retracted).get(1))).isEqualTo(List.of(List.of(2, "B"), List.of(3, "c")));

        // A16b, A16b': without a key rows append, and a retraction removes every equal row
        Map<String, String> unkeyed = Map.of("fields.c.aggregate-function", "nested_update");
        List<List<Object>> twice = List.of(List.of(row(INSERT, 1, array(idName(1, "a")))), List.of(row(INSERT, 1, array(idName(1, "a"), null))));
        assertThat(readOnlyRow(columns, unkeyed, twice).get(1)).isEqualTo(List.of(List.of(1, "a"), List.of(1, "a")));
        assertThat(readOnlyRow(columns, unkeyed, append(twice, List.of(row(UPDATE_BEFORE, 1, array(idName(1, "a"))))))).isEqualTo(List.of(1, List.of()));

        // A16c: count-limit caps what an input adds
        Map<String, String> limited = Map.of("fields.c.aggregate-function", "nested_update", "fields.c.count-limit", "2");
        assertThat(readOnlyRow(columns, limited, List.of(
                List.of(row(INSERT, 1, array(idName(1, "a")))),
                List.of(row(INSERT, 1, array(idName(2, "b"), idName(3, "c")))),
                List.of(row(INSERT, 1, array(idName(4, "d")))))).get(1))
                .isEqualTo(List.of(List.of(1, "a"), List.of(2, "b")));
        // a first value is kept as read, null rows counted towards the limit
        assertThat(readOnlyRow(columns, limited, List.of(
                List.of(row(INSERT, 1, array(idName(1, "a"), null))),
                List.of(row(INSERT, 1, array(idName(2, "b")))))).get(1))
                .isEqualTo(Arrays.asList(List.of(1, "a"), null));
    }

    @Test
    void nestedPartialUpdateMergesRowsByKey()
    {
        DataType nested = DataTypes.ROW(DataTypes.FIELD(0, "id", DataTypes.INT()), DataTypes.FIELD(1, "a", DataTypes.STRING()), DataTypes.FIELD(2, "b", DataTypes.INT()));
        List<DataField> columns = columns(DataTypes.ARRAY(nested));
        Map<String, String> options = Map.of("fields.c.aggregate-function", "nested_partial_update", "fields.c.nested-key", "id");
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, array(GenericRow.of(1, string("a"), null), GenericRow.of(2, null, 5), null))),
                List.of(row(INSERT, 1, array(GenericRow.of(1, null, 7), GenericRow.of(3, string("c"), null)))),
                List.of(row(INSERT, 1, array(GenericRow.of(2, string("x"), null)))));
        List<Object> expected = List.of(List.of(1, "a", 7), Arrays.asList(2, "x", 5), Arrays.asList(3, "c", null));
        assertThat(sorted(readOnlyRow(columns, options, commits).get(1))).isEqualTo(expected);
        assertThat(sorted(readOnlyRowCompacted(columns, options, commits).get(1))).isEqualTo(expected);
        assertFails(columns, options, List.of(List.of(row(INSERT, 1, array(GenericRow.of(1, string("a"), null)))), List.of(row(UPDATE_BEFORE, 1, array(GenericRow.of(1, string("a"), null))))),
                ".*column 'c': Aggregate function 'nested_partial_update' does not support retraction.*");
    }

    @Test
    void sketchesAndBitmapsAreByteIdentical()
            throws Exception
    {
        assertUnion("hll_sketch", HllSketchUtil.sketchOf(1, 2, 3), HllSketchUtil.sketchOf(3, 4, 5), HllSketchUtil.sketchOf(range(10, 5000)));
        assertUnion("theta_sketch", ThetaSketch.sketchOf(1, 2, 3), ThetaSketch.sketchOf(3, 4, 5), ThetaSketch.sketchOf(range(10, 10000)));
        assertUnion("rbm32", RoaringBitmap32.bitmapOf(1, 2, 3).serialize(), RoaringBitmap32.bitmapOf(range(100, 70000)).serialize(), RoaringBitmap32.bitmapOf(5, 1 << 30).serialize());
        assertUnion("rbm64", RoaringBitmap64.bitmapOf(1, 2, 3).serialize(), RoaringBitmap64.bitmapOf(1L << 40, 7).serialize(), RoaringBitmap64.bitmapOf(4, Long.MAX_VALUE).serialize());
        assertFails(columns(DataTypes.BYTES()), Map.of("fields.c.aggregate-function", "rbm32"),
                List.of(List.of(row(INSERT, 1, RoaringBitmap32.bitmapOf(1).serialize())), List.of(row(UPDATE_BEFORE, 1, RoaringBitmap32.bitmapOf(1).serialize()))),
                ".*column 'c': Aggregate function 'rbm32' does not support retraction.*");
    }

    private void assertUnion(String function, byte[] first, byte[] second, byte[] third)
    {
        List<DataField> columns = columns(DataTypes.BYTES());
        Map<String, String> options = Map.of("fields.c.aggregate-function", function);
        List<List<Object>> commits = List.of(
                List.of(row(INSERT, 1, first)),
                List.of(row(INSERT, 1, (Object) null)),
                List.of(row(INSERT, 1, second)),
                List.of(row(INSERT, 1, third)));
        Object merged = readOnlyRow(columns, options, commits).get(1);
        assertThat(merged).as(function).isNotEqualTo(HexFormat.of().formatHex(third));
        assertThat(readOnlyRowCompacted(columns, options, commits).get(1)).as(function).isEqualTo(merged);
    }

    @Test
    void typesAreCheckedWhenTheTableIsRead()
            throws Exception
    {
        assertWrongType("collect", "Data type for collect column must be 'Array' but was 'integer'.");
        assertWrongType("merge_map", "Data type for merge map column must be 'MAP' but was 'integer'.");
        assertWrongType("nested_update", "Data type for nested table column must be 'Array<Row>' but was 'integer'.");
        assertWrongType("hll_sketch", "Data type for hll sketch column must be 'VarBinaryType' but was 'integer'.");
        assertWrongType("rbm64", "Data type for roaring bitmap column must be 'VarBinaryType' but was 'integer'.");
    }

    // Paimon refuses to write a table whose function does not fit its type, so the function is put into the
    // schema by hand after a valid write
    private void assertWrongType(String function, String message)
            throws Exception
    {
        Table table = write(columns(DataTypes.INT()), Map.of("fields.c.aggregate-function", "sum"), List.of(List.of(row(INSERT, 1, 1)), List.of(row(INSERT, 1, 2))));
        Path schemaFile = paimon().warehouse().resolve(DATABASE + ".db").resolve(table.name()).resolve("schema/schema-0");
        Files.writeString(schemaFile, Files.readString(schemaFile).replace("\"fields.c.aggregate-function\" : \"sum\"", "\"fields.c.aggregate-function\" : \"%s\"".formatted(function)));
        assertQueryFails("SELECT * FROM \"%s\"".formatted(table.name()), ".*column 'c': " + java.util.regex.Pattern.quote(message));
    }

    // reads the table's one row with Paimon Java and through Trino, asserts they agree, and returns it
    private List<Object> readOnlyRow(List<DataField> columns, Map<String, String> options, List<List<Object>> commits)
    {
        return onlyRow(write(columns, options, commits));
    }

    private List<Object> readOnlyRowCompacted(List<DataField> columns, Map<String, String> options, List<List<Object>> commits)
    {
        Table table = write(columns, options, commits);
        PaimonJavaCatalog.compact(table, root(), 1, _ -> true);
        return onlyRow(table);
    }

    private List<Object> onlyRow(Table table)
    {
        List<List<Object>> paimonRows = PaimonJavaValues.readValues(table);
        List<List<Object>> trinoRows = computeActual("SELECT * FROM \"%s\"".formatted(table.name())).getMaterializedRows().stream()
                .map(PaimonJavaValues::values)
                .toList();
        assertThat(paimonRows).hasSize(1);
        assertThat(trinoRows).hasSize(1);
        List<Object> paimon = paimonRows.getFirst();
        List<Object> trino = trinoRows.getFirst();
        // where Paimon's element order is unspecified, compare as multisets; otherwise exactly
        assertThat(trino.size()).isEqualTo(paimon.size());
        for (int i = 0; i < paimon.size(); i++) {
            if (!trino.get(i).equals(paimon.get(i))) {
                assertThat(sorted(trino.get(i))).as("column %s", i).isEqualTo(sorted(paimon.get(i)));
            }
        }
        return paimon;
    }

    private void assertFails(List<DataField> columns, Map<String, String> options, List<List<Object>> commits, String message)
    {
        Table table = write(columns, options, commits);
        assertQueryFails("SELECT * FROM \"%s\"".formatted(table.name()), message);
    }

    /** Writes each commit as one batch commit, write-only so that nothing compacts. */
    private Table write(List<DataField> columns, Map<String, String> options, List<List<Object>> commits)
    {
        Schema.Builder schema = Schema.newBuilder().column("k", DataTypes.INT().notNull());
        for (DataField column : columns) {
            schema.column(column.name(), column.type());
        }
        schema.primaryKey("k").option("bucket", "1").option("write-only", "true").option("merge-engine", "aggregation").options(options);
        try {
            Table table = paimon().createTable(DATABASE, "t" + tableIds.incrementAndGet(), schema.build());
            for (List<Object> commit : commits) {
                PaimonJavaCatalog.write(table, commit.stream().map(GenericRow.class::cast).toList());
            }
            return table;
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    // the value columns after the key: c, cd, g
    private static List<DataField> columns(DataType... types)
    {
        List<String> names = List.of("c", "cd", "g");
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(new DataField(i + 1, names.get(i), types[i]));
        }
        return fields;
    }

    private static List<List<Object>> append(List<List<Object>> commits, List<Object> commit)
    {
        List<List<Object>> result = new ArrayList<>(commits);
        result.add(commit);
        return result;
    }

    private static GenericRow row(RowKind kind, Object... values)
    {
        return GenericRow.ofKind(kind, values);
    }

    private static GenericArray array(Object... elements)
    {
        return new GenericArray(elements);
    }

    private static GenericMap map(Object... keysAndValues)
    {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new GenericMap(map);
    }

    private static BinaryString string(String value)
    {
        return BinaryString.fromString(value);
    }

    private static GenericRow idName(int id, String name)
    {
        return GenericRow.of(id, name == null ? null : string(name));
    }

    private static GenericRow valueRow(String value, String timestamp)
    {
        return GenericRow.of(string(value), timestamp == null ? null : string(timestamp));
    }

    private static int[] range(int from, int to)
    {
        int[] values = new int[to - from];
        for (int i = 0; i < values.length; i++) {
            values[i] = from + i;
        }
        return values;
    }

    private static long[] range(long... values)
    {
        return values;
    }

    // a list's elements in a fixed order, for values whose order Paimon leaves unspecified
    private static Object sorted(Object value)
    {
        if (!(value instanceof List<?> list)) {
            return value;
        }
        List<Object> result = new ArrayList<>(list);
        result.sort(Comparator.comparing(String::valueOf));
        return result;
    }
}
