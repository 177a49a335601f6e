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

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.AllTypesTable;
import io.trino.plugin.paimon.testing.ConnectorMetrics;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_READ_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_VALUES_UNREAD_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.ROWS_RETURNED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SECTIONS_MERGED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SORTED_RUNS_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.VALUE_PAGES_UNREAD_METRIC;
import static io.trino.plugin.paimon.read.TestPaimonReadWorkloads.randomChanges;
import static io.trino.plugin.paimon.read.TestPaimonReadWorkloads.schema;
import static io.trino.plugin.paimon.read.TwoPassSessions.twoPass;
import static java.lang.Math.toIntExact;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two-pass merge read (keys first, then the values of the merged rows only) returns the rows Paimon Java reads, in
 * windows of a whole section and in windows far smaller, and decodes the values of no record the merge drops.
 */
final class TestTwoPassMergeRead
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "two_pass";
    private static final long SEED = 20261204;
    private static final int[] WINDOWS = {1 << 18, 1_000, 7};
    private static final String FLAT_COLUMNS = "id, c_boolean, c_tinyint, c_smallint, c_int, c_float, c_double, c_decimal_short, c_decimal_long, c_char, c_varchar, c_string, " +
            "to_hex(c_binary), to_hex(c_bytes), c_date, c_time, c_ts0, c_ts3, c_ts6, c_ts9, c_ltz3, c_ltz6";

    TestTwoPassMergeRead()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        // keys 0..59,999, then new values for keys 0..29,999: one section of two sorted runs, one file each
        Table clustered = paimon.createTable(DATABASE, "clustered", schema(Map.of("bucket", "1", "write-only", "true")));
        PaimonJavaCatalog.write(clustered, LongStream.range(0, 60_000).mapToObj(id -> row(id, "base-" + id, (int) (id % 1000), 0)).toList());
        PaimonJavaCatalog.write(clustered, LongStream.range(0, 30_000).mapToObj(id -> row(id, "new-" + id, (int) -id, 1)).toList());

        // the same in pages of 1,000 rows: the older file's first 30 pages of every column hold only losers
        Table smallPages = paimon.createTable(DATABASE, "small_pages", schema(Map.of("bucket", "1", "write-only", "true", "parquet.page.row.count.limit", "1000")));
        PaimonJavaCatalog.write(smallPages, LongStream.range(0, 60_000).mapToObj(id -> row(id, "base-" + id, (int) (id % 1000), 0)).toList());
        PaimonJavaCatalog.write(smallPages, LongStream.range(0, 30_000).mapToObj(id -> row(id, "new-" + id, (int) -id, 1)).toList());

        // keys 0..59,999, then new values for the even keys below 30,000: the older file's 15,000 losers lie one row
        // apart, each between two winners
        Table everyOther = paimon.createTable(DATABASE, "every_other", schema(Map.of("bucket", "1", "write-only", "true")));
        PaimonJavaCatalog.write(everyOther, LongStream.range(0, 60_000).mapToObj(id -> row(id, "base-" + id, (int) (id % 1000), 0)).toList());
        PaimonJavaCatalog.write(everyOther, LongStream.range(0, 15_000).mapToObj(half -> row(2 * half, "new-" + half, (int) -half, 1)).toList());

        Random random = new Random(SEED);
        // retractions among a key's records, which the merge skips: the newest add of a key wins
        Table ignoreDelete = paimon.createTable(DATABASE, "ignore_delete", schema(Map.of("bucket", "2", "write-only", "true", "ignore-delete", "true")));
        writeRandomChanges(ignoreDelete, random, 5, 10_000, 6_000, false);

        // one section of 120 sorted runs, each a commit of changes to keys all over the bucket's range
        Table manyRuns = paimon.createTable(DATABASE, "many_runs", schema(Map.of("bucket", "1", "write-only", "true")));
        writeRandomChanges(manyRuns, random, 120, 3_000, 100, false);

        // lookup mode (changelog-producer lookup): files compacted to the highest level beside level-0 files of later
        // commits, whose merge skips records of deeper levels
        Table lookup = paimon.createTable(DATABASE, "lookup_changelog", schema(Map.of("bucket", "2", "write-only", "true", "changelog-producer", "lookup")));
        for (int commit = 0; commit < 6; commit++) {
            PaimonJavaCatalog.write(lookup, randomChanges(random, 10_000, 6_000, false));
            if (commit == 2) {
                PaimonJavaCatalog.compact(lookup, root(), 2, _ -> true);
            }
        }

        Table types = paimon.createTable(DATABASE, "every_type", typesSchema());
        for (int commit = 0; commit < 5; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                rows.add(typesRow(random, random.nextInt(5_000)));
            }
            PaimonJavaCatalog.write(types, rows);
        }

        Table sequence = paimon.createTable(DATABASE, "sequence_field", schema(Map.of("bucket", "2", "write-only", "true", "sequence.field", "ts")));
        writeRandomChanges(sequence, random, 6, 20_000, 8_000, false);

        Table deletionVectors = paimon.createTable(DATABASE, "deletion_vectors", schema(Map.of("bucket", "2", "deletion-vectors.enabled", "true")));
        writeRandomChanges(deletionVectors, random, 5, 10_000, 6_000, true);

        // nested columns, nested in each other, with nulls at every level, in five overlapping sorted runs of small pages
        Table nested = paimon.createTable(DATABASE, "nested", nestedSchema(Map.of("bucket", "2", "write-only", "true", "parquet.page.row.count.limit", "100")));
        for (int commit = 0; commit < 5; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                rows.add(nestedRow(random, random.nextInt(3_000)));
            }
            PaimonJavaCatalog.write(nested, rows);
        }

        // keys 0..5,999, then new values for keys 0..2,999, in pages of 500 rows: the older file's first pages of every
        // nested column's column chunks hold only losers
        Table nestedClustered = paimon.createTable(DATABASE, "nested_clustered", nestedSchema(Map.of("bucket", "1", "write-only", "true", "parquet.page.row.count.limit", "500")));
        PaimonJavaCatalog.write(nestedClustered, LongStream.range(0, 6_000).mapToObj(id -> nestedRow(random, id, RowKind.INSERT)).toList());
        PaimonJavaCatalog.write(nestedClustered, LongStream.range(0, 3_000).mapToObj(id -> nestedRow(random, id, RowKind.INSERT)).toList());

        // a column added between commits: older files lack it, their rows read it as null
        Table evolved = paimon.createTable(DATABASE, "evolved", schema(Map.of("bucket", "1", "write-only", "true")));
        writeRandomChanges(evolved, random, 3, 10_000, 5_000, true);
        paimon.alterTable(DATABASE, "evolved", SchemaChange.addColumn("extra", DataTypes.INT()));
        evolved = paimon.getTable(DATABASE, "evolved");
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (GenericRow change : randomChanges(random, 10_000, 5_000, true)) {
                rows.add(GenericRow.ofKind(change.getRowKind(), change.getField(0), change.getField(1), change.getField(2), change.getField(3), random.nextInt(3) == 0 ? null : random.nextInt()));
            }
            PaimonJavaCatalog.write(evolved, rows);
        }
    }

    @Test
    void valuesAreDecodedOnlyForMergedRows()
    {
        // every record's key is read; the values of the 30,000 older records of updated keys never are
        assertRecords(twoPass(getSession(), 1 << 18), "clustered", 90_000, 60_000, 30_000);
        assertSameRowsAsPaimonJava("clustered", "*");
    }

    @Test
    void mergesSkippingRetractionsAndLookupMode()
    {
        for (String table : List.of("ignore_delete", "lookup_changelog")) {
            assertSameRowsAsPaimonJava(table, "*");
            // reading exactly the merged rows, the values of every other record read are left undecoded
            Map<String, Long> metrics = ConnectorMetrics.run(getQueryRunner(), twoPass(getSession(), 1 << 18, 0), "SELECT * FROM " + table, "paimon.");
            assertThat(metrics.get(RECORDS_VALUES_UNREAD_METRIC))
                    .as("records of %s whose values are never decoded", table)
                    .isPositive()
                    .isEqualTo(metrics.get(RECORDS_READ_METRIC) - metrics.get(ROWS_RETURNED_METRIC));
        }
    }

    @Test
    void sectionOfManySortedRuns()
    {
        assertThat(ConnectorMetrics.run(getQueryRunner(), twoPass(getSession(), 1 << 18), "SELECT * FROM many_runs", "paimon."))
                .containsEntry(SORTED_RUNS_METRIC, 120L)
                .containsEntry(SECTIONS_MERGED_METRIC, 1L);
        assertSameRowsAsPaimonJava("many_runs", "*");
    }

    @Test
    void pagesHoldingNoMergedRowAreNotRead()
    {
        // the 30 pages of losers in each of the four columns pass two reads (id, name, amount, ts) are neither read
        // nor decompressed; the 30 pages of winners of the older file and all pages of the newer one are
        Map<String, Long> metrics = ConnectorMetrics.run(getQueryRunner(), twoPass(getSession(), 1 << 18), "SELECT * FROM small_pages", "paimon.");
        assertThat(metrics)
                .containsEntry(VALUE_PAGES_UNREAD_METRIC, 4L * 30)
                .containsEntry(RECORDS_VALUES_UNREAD_METRIC, 30_000L);
        // the one-pass read has no second pass
        assertThat(ConnectorMetrics.run(getQueryRunner(), getSession(), "SELECT * FROM small_pages", "paimon.")).containsEntry(VALUE_PAGES_UNREAD_METRIC, 0L);
        assertSameRowsAsPaimonJava("small_pages", "*");
    }

    @Test
    void winnersAFewRowsApartAreReadAsOneRange()
    {
        // by default the rows between winners one row apart are decoded with them and dropped, not skipped one by one:
        // of the older file's losers only key 0, before its first winner, is never decoded
        assertRecords(twoPass(getSession(), 1 << 18), "every_other", 75_000, 60_000, 1);
        // with no gap allowed, each loser is skipped: its values are never decoded
        assertRecords(twoPass(getSession(), 1 << 18, 0), "every_other", 75_000, 60_000, 15_000);
        // a gap of one row is read with ranges that may hold one row between winners
        assertRecords(twoPass(getSession(), 1 << 18, 1), "every_other", 75_000, 60_000, 1);

        // the rows decoded in gaps never come out, in windows of a section and far smaller, for every gap allowed
        List<String> expected = RowText.paimonText(paimon().getTable(DATABASE, "every_other")).stream().sorted().toList();
        assertThat(expected).hasSize(60_000);
        for (int window : WINDOWS) {
            for (int maxGap : new int[] {0, 1, 1_000_000}) {
                assertThat(RowText.paimonText(computeActual(twoPass(getSession(), window, maxGap), "SELECT * FROM every_other")))
                        .as("windows of %s rows, gaps of up to %s rows", window, maxGap)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void everyFlatTypeWithNulls()
    {
        String query = "SELECT %s FROM every_type".formatted(FLAT_COLUMNS);
        List<String> expected = RowText.rows(computeActual(query));
        assertThat(expected).hasSize(toIntExact((long) computeActual("SELECT count(*) FROM every_type").getOnlyValue()));
        assertThat(expected).hasSizeGreaterThan(3_000);
        for (int window : WINDOWS) {
            for (int maxGap : new int[] {0, 1_000_000}) {
                assertThat(RowText.rows(computeActual(twoPass(getSession(), window, maxGap), query))).as("window of %s rows, gaps of up to %s rows", window, maxGap).isEqualTo(expected);
            }
        }
        // the files' merged records outnumber the rows: with no gap read, the values of the others were never decoded
        Map<String, Long> metrics = ConnectorMetrics.run(getQueryRunner(), twoPass(getSession(), 1 << 18, 0), query, "paimon.");
        assertThat(metrics.get(RECORDS_VALUES_UNREAD_METRIC)).isEqualTo(metrics.get(RECORDS_READ_METRIC) - metrics.get(ROWS_RETURNED_METRIC)).isPositive();
    }

    @Test
    void nestedColumnsWithNullsAtEveryLevel()
    {
        // Paimon Java's rows, read in one pass and in two, in windows of a section and far smaller, for every gap allowed
        List<String> expected = paimonJavaValues("nested");
        assertThat(expected).hasSizeGreaterThan(2_000);
        assertThat(trinoValues(getSession(), "SELECT * FROM nested")).isEqualTo(expected);
        for (int window : WINDOWS) {
            for (int maxGap : new int[] {0, 32, 1_000_000}) {
                assertThat(trinoValues(twoPass(getSession(), window, maxGap), "SELECT * FROM nested"))
                        .as("windows of %s rows, gaps of up to %s rows", window, maxGap)
                        .isEqualTo(expected);
            }
        }
        // the values of the records the merge dropped were never decoded: the nested columns were read in two passes
        Map<String, Long> metrics = ConnectorMetrics.run(getQueryRunner(), twoPass(getSession(), 1 << 18, 0), "SELECT * FROM nested", "paimon.");
        assertThat(metrics.get(RECORDS_VALUES_UNREAD_METRIC)).isEqualTo(metrics.get(RECORDS_READ_METRIC) - metrics.get(ROWS_RETURNED_METRIC)).isPositive();
    }

    @Test
    void nestedColumnsAmongOthers()
    {
        // a nested column alone, beside flat ones, and parts of nested columns, as the one-pass read returns them
        for (String query : List.of(
                "SELECT id, lists FROM nested",
                "SELECT deep, name, matrix FROM nested",
                "SELECT id, point.x, deep.items, element_at(attrs, 'k1') FROM nested",
                "SELECT id, tags FROM nested WHERE id BETWEEN 100 AND 900")) {
            List<String> expected = RowText.rows(computeActual(query));
            assertThat(expected).isNotEmpty();
            for (int window : WINDOWS) {
                assertThat(RowText.rows(computeActual(twoPass(getSession(), window, 0), query))).as("%s in windows of %s rows", query, window).isEqualTo(expected);
            }
        }
    }

    @Test
    void nestedPagesHoldingNoMergedRowAreNotRead()
    {
        // the older file's records of keys 0..2,999 lost: their values were never decoded, and the pages of the nested
        // columns' column chunks that hold only them were not read
        Map<String, Long> metrics = ConnectorMetrics.run(getQueryRunner(), twoPass(getSession(), 1 << 18), "SELECT id, tags, attrs, deep, lists FROM nested_clustered", "paimon.");
        assertThat(metrics)
                .containsEntry(RECORDS_READ_METRIC, 9_000L)
                .containsEntry(ROWS_RETURNED_METRIC, 6_000L)
                .containsEntry(RECORDS_VALUES_UNREAD_METRIC, 3_000L);
        assertThat(metrics.get(VALUE_PAGES_UNREAD_METRIC)).isPositive();
        List<String> expected = paimonJavaValues("nested_clustered");
        for (int window : WINDOWS) {
            assertThat(trinoValues(twoPass(getSession(), window), "SELECT * FROM nested_clustered")).as("windows of %s rows", window).isEqualTo(expected);
        }
    }

    @Test
    void keyPredicates()
    {
        // key domains prune row groups (and, read in one pass, pages by their column index) before the merge
        for (String query : List.of(
                "SELECT * FROM clustered WHERE id BETWEEN 25000 AND 35000",
                "SELECT * FROM clustered WHERE id IN (5, 29999, 30000, 59999)",
                "SELECT * FROM sequence_field WHERE id < 3000")) {
            List<String> expected = RowText.rows(computeActual(query));
            assertThat(expected).isNotEmpty();
            for (int window : WINDOWS) {
                assertThat(RowText.rows(computeActual(twoPass(getSession(), window), query))).as("%s in windows of %s rows", query, window).isEqualTo(expected);
            }
        }
    }

    @Test
    void sequenceField()
    {
        assertSameRowsAsPaimonJava("sequence_field", "*");
        assertSameRowsAsPaimonJava("sequence_field", "id, name, amount");
    }

    @Test
    void deletionVectors()
    {
        assertSameRowsAsPaimonJava("deletion_vectors", "*");
    }

    @Test
    void schemaEvolution()
    {
        assertSameRowsAsPaimonJava("evolved", "*");
    }

    // the records a full read of the table decodes keys of, the rows it returns and the records whose values it never decodes
    private void assertRecords(Session session, String table, long read, long returned, long valuesUnread)
    {
        assertThat(ConnectorMetrics.run(getQueryRunner(), session, "SELECT * FROM " + table, "paimon."))
                .containsEntry(RECORDS_READ_METRIC, read)
                .containsEntry(ROWS_RETURNED_METRIC, returned)
                .containsEntry(RECORDS_VALUES_UNREAD_METRIC, valuesUnread);
    }

    // Paimon Java's rows (of the columns selected, which come first in the table), read in two passes in every window
    private void assertSameRowsAsPaimonJava(String table, String columns)
    {
        List<String> paimonRows = RowText.paimonText(paimon().getTable(DATABASE, table));
        int columnCount = columns.equals("*") ? -1 : columns.split(",").length;
        List<String> expected = paimonRows.stream()
                .map(row -> columnCount < 0 ? row : firstColumns(row, columnCount))
                .sorted()
                .toList();
        assertThat(expected).hasSizeGreaterThan(1_000);
        for (int window : WINDOWS) {
            Session session = twoPass(getSession(), window);
            assertThat(RowText.paimonText(computeActual(session, "SELECT %s FROM %s".formatted(columns, table))))
                    .as("%s in windows of %s rows", table, window)
                    .isEqualTo(expected);
        }
    }

    // commits of random changes (see TestPaimonReadWorkloads.randomChanges), each a sorted run of its own
    private static void writeRandomChanges(Table table, Random random, int commits, int keys, int changesPerCommit, boolean sparseValues)
    {
        for (int commit = 0; commit < commits; commit++) {
            PaimonJavaCatalog.write(table, randomChanges(random, keys, changesPerCommit, sparseValues));
        }
    }

    // "(a, b, c, d)" cut to its first columns
    private static String firstColumns(String row, int count)
    {
        int end = 0;
        for (int i = 0; i < count; i++) {
            end = row.indexOf(", ", end + 1);
        }
        return row.substring(0, end) + ")";
    }

    // Paimon Java's rows of a table, each as the list of its values, maps in key order, sorted
    private List<String> paimonJavaValues(String table)
    {
        return PaimonJavaValues.readValues(paimon().getTable(DATABASE, table)).stream()
                .map(row -> withSortedMaps(row).toString())
                .sorted()
                .toList();
    }

    // a query's rows in the form of paimonJavaValues
    private List<String> trinoValues(Session session, String query)
    {
        return computeActual(session, query).getMaterializedRows().stream()
                .map(row -> withSortedMaps(PaimonJavaValues.values(row)).toString())
                .sorted()
                .toList();
    }

    // Trino's maps come out in no particular order
    private static Object withSortedMaps(Object value)
    {
        return switch (value) {
            case List<?> list -> list.stream().map(TestTwoPassMergeRead::withSortedMaps).toList();
            case Map<?, ?> map -> {
                Map<String, Object> sorted = new TreeMap<>();
                map.forEach((key, entry) -> sorted.put(String.valueOf(key), withSortedMaps(entry)));
                yield sorted;
            }
            case null, default -> value;
        };
    }

    private static Schema nestedSchema(Map<String, String> options)
    {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                .column("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column("point", DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()), DataTypes.FIELD(101, "label", DataTypes.STRING())))
                .column("deep", DataTypes.ROW(
                        DataTypes.FIELD(102, "label", DataTypes.STRING()),
                        DataTypes.FIELD(103, "items", DataTypes.ARRAY(DataTypes.ROW(
                                DataTypes.FIELD(104, "k", DataTypes.INT()),
                                DataTypes.FIELD(105, "v", DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.BIGINT()))))))))
                .column("matrix", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())))
                .column("lists", DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(106, "a", DataTypes.INT()), DataTypes.FIELD(107, "b", DataTypes.STRING())))))
                .primaryKey("id")
                .options(options)
                .build();
    }

    // a row of nestedSchema; about one of eight a delete
    private static GenericRow nestedRow(Random random, long id)
    {
        return nestedRow(random, id, random.nextInt(8) == 0 ? RowKind.DELETE : RowKind.INSERT);
    }

    // each nested value null, empty or holding null elements, fields and map values now and then, at every level
    private static GenericRow nestedRow(Random random, long id, RowKind kind)
    {
        Object tags = nullOr(random, () -> array(random, () -> text(random, "t", 20)));
        Object attrs = nullOr(random, () -> map(random, () -> random.nextInt(1_000)));
        Object point = nullOr(random, () -> GenericRow.of(nullOr(random, random::nextInt), nullOr(random, () -> text(random, "p", 50))));
        Object items = nullOr(random, () -> array(random, () -> GenericRow.of(
                nullOr(random, () -> random.nextInt(100)),
                nullOr(random, () -> map(random, () -> array(random, random::nextLong))))));
        Object deep = nullOr(random, () -> GenericRow.of(nullOr(random, () -> text(random, "d", 50)), items));
        Object matrix = nullOr(random, () -> array(random, () -> array(random, () -> random.nextInt(10))));
        Object lists = nullOr(random, () -> map(random, () -> array(random, () -> GenericRow.of(nullOr(random, () -> random.nextInt(10)), nullOr(random, () -> text(random, "b", 10))))));
        return GenericRow.ofKind(kind, id, nullOr(random, () -> text(random, "name-", 1_000)), tags, attrs, point, deep, matrix, lists);
    }

    private static BinaryString text(Random random, String prefix, int values)
    {
        return BinaryString.fromString(prefix + random.nextInt(values));
    }

    // null about one time in six
    private static <T> T nullOr(Random random, Supplier<T> value)
    {
        return random.nextInt(6) == 0 ? null : value.get();
    }

    // an array of up to four elements, empty about one time in five, each element null about one time in six
    private static GenericArray array(Random random, Supplier<Object> element)
    {
        Object[] elements = new Object[random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(4)];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = nullOr(random, element);
        }
        return new GenericArray(elements);
    }

    // a map of up to three entries keyed k0..k3, empty about one time in five, each value null about one time in six
    private static GenericMap map(Random random, Supplier<Object> value)
    {
        Map<Object, Object> entries = new LinkedHashMap<>();
        int size = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(3);
        for (int i = 0; i < size; i++) {
            entries.put(BinaryString.fromString("k" + random.nextInt(4)), nullOr(random, value));
        }
        return new GenericMap(entries);
    }

    private static Schema typesSchema()
    {
        return AllTypesTable.schema()
                .primaryKey("id")
                .option("bucket", "2")
                .option("write-only", "true")
                .build();
    }

    // a value in about four of five columns, null in the others; about one of eight rows a delete
    private static GenericRow typesRow(Random random, long id)
    {
        GenericRow row = AllTypesTable.randomRow(random, id);
        for (int i = 1; i < row.getFieldCount(); i++) {
            if (random.nextInt(5) == 0) {
                row.setField(i, null);
            }
        }
        row.setRowKind(random.nextInt(8) == 0 ? RowKind.DELETE : RowKind.INSERT);
        return row;
    }

    private static GenericRow row(long id, String name, int amount, long ts)
    {
        return GenericRow.ofKind(RowKind.INSERT, id, BinaryString.fromString(name), amount, ts);
    }
}
