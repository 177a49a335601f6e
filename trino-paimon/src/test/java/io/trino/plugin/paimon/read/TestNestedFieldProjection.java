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
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.sql.planner.Plan;
import io.trino.sql.planner.plan.TableScanNode;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static io.trino.sql.planner.optimizations.PlanNodeSearcher.searchFrom;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dereferences of {@code ROW} columns pushed into the scan: {@code payload.f3} reads that field's column chunks
 * (Parquet) or streams (ORC) and not the rest of the row, through the merge of overlapping sorted runs (deduplicate,
 * first-row), in append tables, in {@code $ro} and with deletion vectors; the rows are Paimon Java's.
 */
final class TestNestedFieldProjection
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "nested";
    // rows of each commit of the wide tables, three commits of overlapping keys. Trino's readers fetch column chunks
    // (streams) less than 1 MB apart in one read, gap included, and ORC stripes below 8 MB whole: the long fields of
    // this many rows lie wider apart, and each file is a stripe of more than 8 MB
    private static final int ROWS = 40_000;
    private static final int SMALL_ROWS = 300;
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/";
    // a wide ROW: ten fields, three of them long strings, the last a ROW itself
    private static final RowType PAYLOAD = DataTypes.ROW(
            DataTypes.FIELD(100, "f0", DataTypes.BIGINT()),
            DataTypes.FIELD(101, "f1", DataTypes.STRING()),
            DataTypes.FIELD(102, "f2", DataTypes.DOUBLE()),
            DataTypes.FIELD(103, "f3", DataTypes.BIGINT()),
            DataTypes.FIELD(104, "f4", DataTypes.STRING()),
            DataTypes.FIELD(105, "f5", DataTypes.INT()),
            DataTypes.FIELD(106, "f6", DataTypes.STRING()),
            DataTypes.FIELD(107, "f7", DataTypes.BOOLEAN()),
            DataTypes.FIELD(108, "f8", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.FIELD(109, "nest", DataTypes.ROW(
                    DataTypes.FIELD(110, "g", DataTypes.BIGINT()),
                    DataTypes.FIELD(111, "h", DataTypes.STRING()))));

    TestNestedFieldProjection()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        Random random = new Random(48);
        for (String format : List.of("parquet", "orc")) {
            // one bucket of three overlapping sorted runs
            Table table = paimon.createTable(DATABASE, "pk_" + format, primaryKeyTable(format).option("write-only", "true").build());
            for (int commit = 0; commit < 3; commit++) {
                PaimonJavaCatalog.write(table, rows(commit * ROWS / 2, ROWS, commit, random));
            }

            Table append = paimon.createTable(DATABASE, "append_" + format, Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("payload", PAYLOAD)
                    .option("bucket", "-1")
                    .option("file.format", format)
                    .build());
            PaimonJavaCatalog.write(append, rows(0, SMALL_ROWS, 0, random));
            PaimonJavaCatalog.write(append, rows(SMALL_ROWS / 2, SMALL_ROWS, 1, random));

            // lookup compaction marks the replaced rows of the deeper runs in deletion vectors
            Table deletionVectors = paimon.createTable(DATABASE, "dv_" + format, primaryKeyTable(format).option("deletion-vectors.enabled", "true").build());
            for (int commit = 0; commit < 3; commit++) {
                PaimonJavaCatalog.write(deletionVectors, rows(commit * SMALL_ROWS / 3, SMALL_ROWS, commit, random));
            }

            // fully compacted, then one more commit that $ro does not see
            Table compacted = paimon.createTable(DATABASE, "compacted_" + format, primaryKeyTable(format).option("write-only", "true").build());
            PaimonJavaCatalog.write(compacted, rows(0, SMALL_ROWS, 0, random));
            PaimonJavaCatalog.write(compacted, rows(SMALL_ROWS / 2, SMALL_ROWS, 1, random));
            PaimonJavaCatalog.compact(compacted, root(), 1, _ -> true);
            PaimonJavaCatalog.write(compacted, rows(0, SMALL_ROWS / 3, 2, random));
        }

        // first-row keeps the oldest record of a key, compacting through a lookup on each commit
        Table firstRow = paimon.createTable(DATABASE, "first_row_orc", primaryKeyTable("orc").option("merge-engine", "first-row").build());
        for (int commit = 0; commit < 3; commit++) {
            PaimonJavaCatalog.write(firstRow, rows(commit * SMALL_ROWS / 2, SMALL_ROWS, commit, random));
        }

        Table updated = paimon.createTable(DATABASE, "updated_parquet", primaryKeyTable("parquet").build());
        PaimonJavaCatalog.write(updated, rows(0, SMALL_ROWS, 0, random));

        Table avro = paimon.createTable(DATABASE, "pk_avro", primaryKeyTable("avro").option("write-only", "true").build());
        for (int commit = 0; commit < 3; commit++) {
            PaimonJavaCatalog.write(avro, rows(commit * SMALL_ROWS / 2, SMALL_ROWS, commit, random));
        }

        // partial-update merges field by field: its scans read whole columns
        Table partialUpdate = paimon.createTable(DATABASE, "partial_update_parquet", primaryKeyTable("parquet")
                .option("write-only", "true")
                .option("merge-engine", "partial-update")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            PaimonJavaCatalog.write(partialUpdate, rows(commit * SMALL_ROWS / 2, SMALL_ROWS, commit, random));
        }
    }

    @Test
    void leavesOfMergedRowsAreRead()
    {
        for (String format : List.of("parquet", "orc", "avro")) {
            String table = "pk_" + format;
            assertThat(fieldsRead("SELECT id, payload.f3, payload.nest.g FROM " + table)).as(table).containsExactlyInAnyOrder("payload.f3", "payload.nest.g");
            assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM " + table)).as(table)
                    .isEqualTo(paimonRows(table, row -> Arrays.asList(row.getLong(0), f3(row), g(row))));
        }
    }

    @Test
    void leavesOfFirstRowTablesAreRead()
    {
        assertThat(fieldsRead("SELECT id, payload.f3, payload.nest.g FROM first_row_orc")).containsExactlyInAnyOrder("payload.f3", "payload.nest.g");
        assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM first_row_orc"))
                .isEqualTo(paimonRows("first_row_orc", row -> Arrays.asList(row.getLong(0), f3(row), g(row))));
    }

    @Test
    void leafReadFetchesLessThanWholeRow()
    {
        for (String format : List.of("parquet", "orc")) {
            String table = "pk_" + format;
            ScanStatistics leaf = ScanStatistics.execute(getQueryRunner(), "SELECT sum(payload.f3) FROM " + table);
            ScanStatistics whole = ScanStatistics.execute(getQueryRunner(), "SELECT count(payload) FROM " + table);
            ScanStatistics nested = ScanStatistics.execute(getQueryRunner(), "SELECT sum(payload.nest.g) FROM " + table);
            System.out.printf("%s: physical input of payload.f3 %s bytes, payload.nest.g %s bytes, payload %s bytes%n", table, leaf.physicalInputBytes(), nested.physicalInputBytes(), whole.physicalInputBytes());
            assertThat(leaf.result().getOnlyValue()).as(table).isEqualTo(paimonRows(table, row -> Arrays.asList(row.getLong(0), f3(row))).stream()
                    .filter(row -> row.get(1) != null)
                    .mapToLong(row -> (long) row.get(1))
                    .sum());
            assertThat(leaf.physicalInputBytes()).as(table).isLessThan(whole.physicalInputBytes() / 4);
            assertThat(nested.physicalInputBytes()).as(table).isLessThan(whole.physicalInputBytes() / 2);
        }
    }

    @Test
    void wholeRowAndItsFieldsReadTogether()
    {
        List<List<Object>> rows = rows("SELECT id, payload.f1, payload, payload.nest FROM pk_parquet WHERE id % 101 = 0");
        assertThat(rows).isNotEmpty();
        for (List<Object> row : rows) {
            MaterializedRow payload = (MaterializedRow) row.get(2);
            assertThat(row.get(1)).isEqualTo(payload == null ? null : payload.getField(1));
            assertThat(row.get(3)).isEqualTo(payload == null ? null : payload.getField(9));
        }
    }

    @Test
    void leavesOfAppendTablesAreRead()
    {
        for (String format : List.of("parquet", "orc")) {
            String table = "append_" + format;
            assertThat(fieldsRead("SELECT payload.nest.h, payload.f8 FROM " + table)).as(table).containsExactlyInAnyOrder("payload.nest.h", "payload.f8");
            assertThat(rows("SELECT id, payload.f8, payload.nest.h FROM " + table)).as(table)
                    .isEqualTo(paimonRows(table, row -> Arrays.asList(row.getLong(0), f8(row), h(row))));
        }
    }

    @Test
    void leavesOfFilesWithDeletionVectorsAreRead()
    {
        for (String format : List.of("parquet", "orc")) {
            String table = "dv_" + format;
            assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM " + table)).as(table)
                    .isEqualTo(paimonRows(table, row -> Arrays.asList(row.getLong(0), f3(row), g(row))));
        }
    }

    @Test
    void leavesOfReadOptimizedViewAreRead()
    {
        for (String format : List.of("parquet", "orc")) {
            String table = "\"compacted_%s$ro\"".formatted(format);
            assertThat(fieldsRead("SELECT id, payload.f3 FROM " + table)).as(table).containsExactly("payload.f3");
            // the compacted rows alone, as the whole column reads them
            List<List<Object>> expected = rows("SELECT id, payload FROM " + table).stream()
                    .map(row -> Arrays.asList(row.get(0), row.get(1) == null ? null : ((MaterializedRow) row.get(1)).getField(3)))
                    .toList();
            assertThat(expected).hasSize(SMALL_ROWS * 3 / 2);
            assertThat(rows("SELECT id, payload.f3 FROM " + table)).as(table).isEqualTo(sorted(expected));
        }
    }

    @Test
    void predicatesOnLeavesFilterAfterTheRead()
    {
        for (String format : List.of("parquet", "orc")) {
            // the newest run writes value id * 10 + 2, from key ROWS on
            List<List<Object>> expected = paimonRows("pk_" + format, row -> Arrays.asList(row.getLong(0), f3(row), g(row))).stream()
                    .filter(row -> row.get(1) != null && (long) row.get(1) % 1000 == 2)
                    .toList();
            assertThat(expected).as(format).isNotEmpty();
            List<Long> chosen = List.of(ROWS * 10L + 2, ROWS * 10L + 1002, ROWS * 10L + 5002);
            List<List<Object>> expectedChosen = expected.stream().filter(row -> chosen.contains((Long) row.get(1))).toList();
            assertThat(expectedChosen).as(format).hasSize(3);
            String values = chosen.stream().map(value -> "BIGINT '%s'".formatted(value)).collect(joining(", "));
            assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM pk_%s WHERE payload.f3 %% 1000 = 2".formatted(format))).as(format).isEqualTo(expected);
            assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM pk_%s WHERE payload.f3 IN (%s)".formatted(format, values))).as(format)
                    .isEqualTo(expectedChosen);
            // a join's dynamic filter on a nested field
            assertThat(rows("SELECT p.id, p.payload.f3, p.payload.nest.g FROM pk_%s p JOIN (VALUES %s) v(x) ON p.payload.f3 = v.x".formatted(format, values))).as(format)
                    .isEqualTo(expectedChosen);
        }
    }

    @Test
    void leavesAreReadByTheTwoPassMergeRead()
    {
        Session twoPass = Session.builder(getSession())
                .setCatalogSessionProperty("paimon", "two_pass_merge_read_enabled", "true")
                .build();
        assertThat(sorted(computeActual(twoPass, "SELECT id, payload.f3, payload.f8, payload.nest.h FROM pk_parquet").getMaterializedRows().stream().map(MaterializedRow::getFields).toList()))
                .isEqualTo(paimonRows("pk_parquet", row -> Arrays.asList(row.getLong(0), f3(row), f8(row), h(row))));
    }

    @Test
    void updateFindsRowsByNestedField()
    {
        // UPDATE reads the row id beside the nested field of its predicate
        long matched = (long) computeActual("SELECT count(*) FROM updated_parquet WHERE payload.f3 % 100 = 10").getOnlyValue();
        assertThat(matched).isGreaterThan(0);
        assertUpdate("UPDATE updated_parquet SET payload = NULL WHERE payload.f3 % 100 = 10", matched);
        List<List<Object>> paimonRows = sorted(PaimonJavaCatalog.readInternalRows(uncachedPaimon().getTable(DATABASE, "updated_parquet")).stream()
                .map(row -> Arrays.<Object>asList(row.getLong(0), f3(row), g(row)))
                .toList());
        assertThat(paimonRows.stream().filter(row -> row.get(1) == null).count()).isGreaterThanOrEqualTo(matched);
        assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM updated_parquet")).isEqualTo(paimonRows);
    }

    @Test
    void partialUpdateReadsWholeColumns()
    {
        assertThat(fieldsRead("SELECT id, payload.f3 FROM partial_update_parquet")).isEmpty();
        assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM partial_update_parquet"))
                .isEqualTo(paimonRows("partial_update_parquet", row -> Arrays.asList(row.getLong(0), f3(row), g(row))));
    }

    @Test
    void auditLogReadsWholeColumns()
    {
        assertThat(fieldsRead("SELECT id, payload.f3 FROM \"pk_avro$audit_log\"")).isEmpty();
        assertThat(rows("SELECT id, payload.f3, payload.nest.g FROM \"pk_avro$audit_log\""))
                .isEqualTo(paimonRows("pk_avro", row -> Arrays.asList(row.getLong(0), f3(row), g(row))));
    }

    private static Schema.Builder primaryKeyTable(String format)
    {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("payload", PAYLOAD)
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", format);
    }

    // rows of keys first .. first + count - 1 whose values differ by commit; some payloads and inner rows are null
    private static List<GenericRow> rows(int first, int count, int commit, Random random)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            if (id % 97 == commit) {
                rows.add(GenericRow.of(id, null));
                continue;
            }
            long value = id * 10 + commit;
            GenericRow inner = id % 13 == commit ? null : GenericRow.of(value * 3, text(random, 120));
            rows.add(GenericRow.of(id, GenericRow.of(
                    value,
                    BinaryString.fromString("s" + (id % 5)),
                    value / 4.0,
                    id % 89 == 1 ? null : value,
                    text(random, 120),
                    (int) (id % 1000),
                    text(random, 120),
                    id % 2 == 0,
                    new GenericArray(new Object[] {(int) id, commit}),
                    inner)));
        }
        return rows;
    }

    private static BinaryString text(Random random, int length)
    {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return BinaryString.fromString(new String(chars));
    }

    private static InternalRow payload(InternalRow row)
    {
        return row.isNullAt(1) ? null : row.getRow(1, PAYLOAD.getFieldCount());
    }

    private static Long f3(InternalRow row)
    {
        InternalRow payload = payload(row);
        return payload == null || payload.isNullAt(3) ? null : payload.getLong(3);
    }

    private static List<Object> f8(InternalRow row)
    {
        InternalRow payload = payload(row);
        if (payload == null || payload.isNullAt(8)) {
            return null;
        }
        int[] values = payload.getArray(8).toIntArray();
        return Arrays.stream(values).boxed().map(Object.class::cast).toList();
    }

    private static InternalRow inner(InternalRow row)
    {
        InternalRow payload = payload(row);
        return payload == null || payload.isNullAt(9) ? null : payload.getRow(9, 2);
    }

    private static Long g(InternalRow row)
    {
        InternalRow inner = inner(row);
        return inner == null || inner.isNullAt(0) ? null : inner.getLong(0);
    }

    private static String h(InternalRow row)
    {
        InternalRow inner = inner(row);
        return inner == null || inner.isNullAt(1) ? null : inner.getString(1).toString();
    }

    // Paimon Java's rows of the table, each turned into the values a query selects, sorted as rows() sorts
    private List<List<Object>> paimonRows(String table, Function<InternalRow, List<Object>> values)
    {
        return sorted(PaimonJavaCatalog.readInternalRows(paimon().getTable(DATABASE, table)).stream().map(values).toList());
    }

    private List<List<Object>> rows(String sql)
    {
        return sorted(computeActual(sql).getMaterializedRows().stream().map(MaterializedRow::getFields).toList());
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        // by key, then by text: an append table holds keys more than once
        return rows.stream()
                .sorted(Comparator.<List<Object>>comparingLong(row -> (long) row.getFirst()).thenComparing(Object::toString))
                .toList();
    }

    // the nested fields the query's table scans read as columns of their own
    private List<String> fieldsRead(String sql)
    {
        Plan plan = ((DistributedQueryRunner) getQueryRunner()).executeWithPlan(getSession(), sql).queryPlan().orElseThrow();
        return searchFrom(plan.getRoot()).whereIsInstanceOfAny(TableScanNode.class).findAll().stream()
                .flatMap(scan -> ((TableScanNode) scan).getAssignments().values().stream())
                .map(PaimonColumnHandle.class::cast)
                .filter(PaimonColumnHandle::isProjection)
                .map(PaimonColumnHandle::qualifiedName)
                .toList();
    }
}
