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
package io.trino.plugin.paimon.write;

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * UPDATE, DELETE and MERGE through Trino on primary-key tables, each checked against rows computed by hand, read by
 * Trino and by Paimon Java 1.4.2 (the oracle); then Paimon Java writes more and both still agree. Every merge engine
 * with the statements it allows and the ones it refuses, partitioned and not, fixed and dynamic buckets, nullable
 * keys, sequence fields.
 */
final class TestPaimonRowChanges
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "changes";

    private Table nullableKeys;

    TestPaimonRowChanges()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        paimon.createTable(DATABASE, "dedup_fixed", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("score", DataTypes.DOUBLE())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "3")
                .build());
        paimon.createTable(DATABASE, "dedup_dynamic", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "-1")
                .option("dynamic-bucket.target-row-num", "3")
                .build());
        paimon.createTable(DATABASE, "dedup_dynamic_partitioned", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "-1")
                .option("dynamic-bucket.target-row-num", "2")
                .build());
        nullableKeys = paimon.createTableWithNullableKeys(DATABASE, "nullable_keys", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "2")
                .build());
        paimon.createTable(DATABASE, "dedup_sequence", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("ts", DataTypes.BIGINT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("sequence.field", "ts")
                .build());
        paimon.createTable(DATABASE, "dedup_not_null", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING().notNull())
                .column("note", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        paimon.createTable(DATABASE, "dedup_ignore_delete", keyValue()
                .option("ignore-delete", "true")
                .build());
        paimon.createTable(DATABASE, "partial_remove", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("partial-update.remove-record-on-delete", "true")
                .build());
        paimon.createTable(DATABASE, "partial_plain", keyValue()
                .option("merge-engine", "partial-update")
                .build());
        paimon.createTable(DATABASE, "partial_groups", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("g", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("other", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("fields.g.sequence-group", "a")
                .build());
        paimon.createTable(DATABASE, "aggregation_sum", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .column("note", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.note.aggregate-function", "last_value")
                .build());
        paimon.createTable(DATABASE, "aggregation_remove", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("aggregation.remove-record-on-delete", "true")
                .build());
        paimon.createTable(DATABASE, "aggregation_replacing", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .column("w", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.v.aggregate-function", "last_value")
                .build());
        paimon.createTable(DATABASE, "first_row", keyValue()
                .option("merge-engine", "first-row")
                .build());
        paimon.createTable(DATABASE, "append_only", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .build());
        paimon.createTable(DATABASE, "contended", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("c0", DataTypes.INT())
                .column("c1", DataTypes.INT())
                .column("c2", DataTypes.INT())
                .column("c3", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
    }

    private static Schema.Builder keyValue()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1");
    }

    @Test
    void deduplicateFixedBucketsPartitioned()
    {
        Table table = table("dedup_fixed");
        PaimonJavaCatalog.write(table, List.of(
                GenericRow.of(s("a"), 1, s("one"), 1.0),
                GenericRow.of(s("a"), 2, s("two"), 2.0),
                GenericRow.of(s("a"), 3, s("three"), 3.0),
                GenericRow.of(s("b"), 1, s("uno"), 10.0),
                GenericRow.of(s("b"), 2, s("dos"), 20.0)));

        assertUpdate("UPDATE dedup_fixed SET score = score + 100 WHERE id = 2", 2);
        assertRows("dedup_fixed",
                "+I(a, 1, one, 1.0)", "+I(a, 2, two, 102.0)", "+I(a, 3, three, 3.0)", "+I(b, 1, uno, 10.0)", "+I(b, 2, dos, 120.0)");

        assertUpdate("DELETE FROM dedup_fixed WHERE name IN ('one', 'dos')", 2);
        assertRows("dedup_fixed", "+I(a, 2, two, 102.0)", "+I(a, 3, three, 3.0)", "+I(b, 1, uno, 10.0)");

        assertUpdate("""
                MERGE INTO dedup_fixed t USING (VALUES ('a', 2, 'deux'), ('a', 3, NULL), ('c', 7, 'sept')) s(dt, id, name)
                ON t.dt = s.dt AND t.id = s.id
                WHEN MATCHED AND s.name IS NULL THEN DELETE
                WHEN MATCHED THEN UPDATE SET name = s.name
                WHEN NOT MATCHED THEN INSERT VALUES (s.dt, s.id, s.name, 7.0)""", 3);
        assertRows("dedup_fixed", "+I(a, 2, deux, 102.0)", "+I(b, 1, uno, 10.0)", "+I(c, 7, sept, 7.0)");

        // Paimon Java writes on top: a deleted key comes back, an updated one changes again
        PaimonJavaCatalog.write(table, List.of(
                GenericRow.of(s("a"), 1, s("back"), 5.0),
                GenericRow.ofKind(RowKind.UPDATE_AFTER, s("a"), 2, s("zwei"), 2.5)));
        assertRows("dedup_fixed", "+I(a, 1, back, 5.0)", "+I(a, 2, zwei, 2.5)", "+I(b, 1, uno, 10.0)", "+I(c, 7, sept, 7.0)");
    }

    @Test
    void deduplicateDynamicBuckets()
    {
        Table table = table("dedup_dynamic");
        PaimonJavaCatalog.writeDynamicBuckets(table, List.of(
                GenericRow.of(1, s("p1")), GenericRow.of(2, s("p2")), GenericRow.of(3, s("p3")),
                GenericRow.of(4, s("p4")), GenericRow.of(5, s("p5")), GenericRow.of(6, s("p6")), GenericRow.of(7, s("p7"))));

        assertUpdate("UPDATE dedup_dynamic SET v = 'u' || v WHERE id % 2 = 1", 4);
        assertUpdate("DELETE FROM dedup_dynamic WHERE id IN (2, 6)", 2);
        assertUpdate("""
                MERGE INTO dedup_dynamic t USING (VALUES (4, 'm4'), (8, 'm8'), (9, 'm9')) s(id, v) ON t.id = s.id
                WHEN MATCHED THEN UPDATE SET v = s.v
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)""", 3);
        assertRows("dedup_dynamic", "+I(1, up1)", "+I(3, up3)", "+I(4, m4)", "+I(5, up5)", "+I(7, up7)", "+I(8, m8)", "+I(9, m9)");
        // one MERGE deletes key 1 and inserts it again from another source row: the new row is kept
        assertUpdate("""
                MERGE INTO dedup_dynamic t USING (VALUES (1, 'gone', 'delete'), (1, 'new1', 'insert')) s(id, v, op) ON t.id = s.id AND s.op = 'delete'
                WHEN MATCHED THEN DELETE
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)""", 2);
        assertRows("dedup_dynamic", "+I(1, new1)", "+I(3, up3)", "+I(4, m4)", "+I(5, up5)", "+I(7, up7)", "+I(8, m8)", "+I(9, m9)");

        // Paimon Java's assigner continues from the index: a deleted key and an updated key are written again
        PaimonJavaCatalog.writeDynamicBuckets(table, List.of(GenericRow.of(2, s("again")), GenericRow.of(3, s("p3b"))));
        assertRows("dedup_dynamic", "+I(1, new1)", "+I(2, again)", "+I(3, p3b)", "+I(4, m4)", "+I(5, up5)", "+I(7, up7)", "+I(8, m8)", "+I(9, m9)");
    }

    @Test
    void deduplicateDynamicBucketsPartitioned()
    {
        Table table = table("dedup_dynamic_partitioned");
        PaimonJavaCatalog.writeDynamicBuckets(table, List.of(
                GenericRow.of(s("x"), 1, s("a")), GenericRow.of(s("x"), 2, s("b")), GenericRow.of(s("x"), 3, s("c")),
                GenericRow.of(s("y"), 1, s("d")), GenericRow.of(s("y"), 2, s("e"))));
        assertUpdate("UPDATE dedup_dynamic_partitioned SET v = upper(v) WHERE id >= 2", 3);
        assertUpdate("DELETE FROM dedup_dynamic_partitioned WHERE dt = 'y' AND id = 1", 1);
        assertRows("dedup_dynamic_partitioned", "+I(x, 1, a)", "+I(x, 2, B)", "+I(x, 3, C)", "+I(y, 2, E)");
        PaimonJavaCatalog.writeDynamicBuckets(table, List.of(GenericRow.of(s("y"), 1, s("f")), GenericRow.of(s("x"), 3, s("g"))));
        assertRows("dedup_dynamic_partitioned", "+I(x, 1, a)", "+I(x, 2, B)", "+I(x, 3, g)", "+I(y, 1, f)", "+I(y, 2, E)");
    }

    @Test
    void nullableKeys()
    {
        PaimonJavaCatalog.write(nullableKeys, List.of(GenericRow.of(null, s("n")), GenericRow.of(1, s("a")), GenericRow.of(2, s("b"))));
        assertUpdate("UPDATE nullable_keys SET v = 'N' WHERE k IS NULL", 1);
        assertUpdate("DELETE FROM nullable_keys WHERE k = 1", 1);
        assertRows(nullableKeys, "nullable_keys", "+I(2, b)", "+I(null, N)");
        assertUpdate("DELETE FROM nullable_keys WHERE k IS NULL", 1);
        PaimonJavaCatalog.write(nullableKeys, List.of(GenericRow.of(1, s("again"))));
        assertRows(nullableKeys, "nullable_keys", "+I(1, again)", "+I(2, b)");
    }

    /** The -D carries the row's sequence field, so it is newer than the row it deletes and than older rows written later. */
    @Test
    void deduplicateWithSequenceField()
    {
        Table table = table("dedup_sequence");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 100L, s("a")), GenericRow.of(2, 50L, s("b"))));
        assertUpdate("DELETE FROM dedup_sequence WHERE id = 1", 1);
        assertUpdate("UPDATE dedup_sequence SET v = 'c' WHERE id = 2", 1);
        assertRows("dedup_sequence", "+I(2, 50, c)");
        assertQueryFails("UPDATE dedup_sequence SET ts = 1 WHERE id = 2", ".*dedup_sequence: column 'ts' is a sequence field and cannot be updated.*");
        // an older row of the deleted key stays hidden, a newer one is read (merge-semantics §4, S2)
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 99L, s("older")), GenericRow.of(2, 51L, s("newer"))));
        assertRows("dedup_sequence", "+I(2, 51, newer)");
    }

    @Test
    void deleteCarriesNotNullColumns()
    {
        Table table = table("dedup_not_null");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, s("a"), s("x")), GenericRow.of(2, s("b"), null), GenericRow.of(3, s("c"), s("z"))));
        assertUpdate("DELETE FROM dedup_not_null WHERE note IS NULL OR id = 3", 2);
        assertUpdate("UPDATE dedup_not_null SET note = 'y' WHERE id = 1", 1);
        assertRows("dedup_not_null", "+I(1, a, y)");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, s("back"), null)));
        assertRows("dedup_not_null", "+I(1, a, y)", "+I(2, back, null)");
    }

    @Test
    void keyAndPartitionColumnsCannotBeUpdated()
    {
        assertQueryFails("UPDATE dedup_fixed SET id = 9 WHERE id = 1", ".*dedup_fixed: column 'id' is part of the primary key \\[dt, id\\] or the partition keys \\[dt\\] and cannot be updated");
        assertQueryFails("UPDATE dedup_fixed SET dt = 'z'", ".*dedup_fixed: column 'dt' is part of the primary key .*");
        assertQueryFails("""
                MERGE INTO dedup_fixed t USING (VALUES ('a', 1)) s(dt, id) ON t.dt = s.dt AND t.id = s.id
                WHEN MATCHED THEN UPDATE SET id = 5""", ".*dedup_fixed: column 'id' is part of the primary key .*");
    }

    @Test
    void refusedTables()
    {
        PaimonJavaCatalog.write(table("dedup_ignore_delete"), List.of(GenericRow.of(1, s("a"))));
        assertQueryFails("DELETE FROM dedup_ignore_delete WHERE id = 1", ".*dedup_ignore_delete: DELETE is not possible: option 'ignore-delete' = 'true' makes Paimon skip deleted rows");
        assertUpdate("UPDATE dedup_ignore_delete SET v = 'b'", 1);
        assertRows("dedup_ignore_delete", "+I(1, b)");

        PaimonJavaCatalog.write(table("first_row"), List.of(GenericRow.of(1, s("a"))));
        assertQueryFails("UPDATE first_row SET v = 'b'", ".*first_row: with 'merge-engine' = 'first-row' the first row of a key is kept forever.*");
        assertQueryFails("DELETE FROM first_row WHERE id = 1", ".*first_row: with 'merge-engine' = 'first-row'.*");

        // an append table has no key to address rows by; unpartitioned, it drops all of its rows or none
        assertThat(query("DELETE FROM append_only WHERE id = 1")).failure().hasMessage(
                "Cannot change rows of Paimon table %s.append_only: it is an append table (no primary key), whose rows have no key to address them by, ".formatted(DATABASE) +
                        "so UPDATE, MERGE and DELETE of single rows are not supported; supported are DELETE of all rows (no WHERE clause) and TRUNCATE TABLE");

        assertRows("dedup_ignore_delete", "+I(1, b)");
        assertRows("first_row", "+I(1, a)");
    }

    @Test
    void partialUpdateWithRemoveRecordOnDelete()
    {
        Table table = table("partial_remove");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, s("x"), null), GenericRow.of(2, s("y"), 5)));
        assertUpdate("UPDATE partial_remove SET b = 7 WHERE id = 1", 1);
        assertUpdate("DELETE FROM partial_remove WHERE id = 2", 1);
        assertRows("partial_remove", "+I(1, x, 7)");
        // a NULL would not replace 'x' in a partial update: refused rather than silently ignored
        assertQueryFails("UPDATE partial_remove SET a = NULL WHERE id = 1", ".*partial_remove: column 'a' cannot be updated to NULL: with 'merge-engine' = 'partial-update' a NULL does not replace a value.*");
        assertUpdate("UPDATE partial_remove SET a = NULL WHERE id = 99", 0);
        // the deleted row restarts: later partial rows build it from nothing
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, null, 9), GenericRow.of(1, null, 8)));
        assertRows("partial_remove", "+I(1, x, 8)", "+I(2, null, 9)");
    }

    @Test
    void partialUpdateWithoutRemovalRefusesDelete()
    {
        PaimonJavaCatalog.write(table("partial_plain"), List.of(GenericRow.of(1, s("a")), GenericRow.of(2, s("b"))));
        assertUpdate("UPDATE partial_plain SET v = 'c' WHERE id = 1", 1);
        assertQueryFails("DELETE FROM partial_plain WHERE id = 2", ".*partial_plain: DELETE is not possible: with 'merge-engine' = 'partial-update' rows can be deleted only with 'partial-update.remove-record-on-delete' = 'true' or 'partial-update.remove-record-on-sequence-group'");
        assertRows("partial_plain", "+I(1, c)", "+I(2, b)");
    }

    @Test
    void partialUpdateSequenceGroups()
    {
        Table table = table("partial_groups");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 1, s("x"), s("o")), GenericRow.of(2, null, s("y"), s("p")), GenericRow.of(3, null, null, s("r"))));
        // a lone record is read as written, even a group value without a sequence value
        assertRows("partial_groups", "+I(1, 1, x, o)", "+I(2, null, y, p)", "+I(3, null, null, r)");
        // in a group a NULL replaces (the new row carries the group's sequence value, which equals the stored one)
        assertUpdate("UPDATE partial_groups SET a = NULL WHERE id = 1", 1);
        assertUpdate("UPDATE partial_groups SET other = 's' WHERE id = 3", 1);
        assertRows("partial_groups", "+I(1, 1, null, o)", "+I(2, null, y, p)", "+I(3, null, null, s)");
        // merged with another record, row 2's group would be skipped and 'y' lost
        assertQueryFails("UPDATE partial_groups SET other = 'q' WHERE id = 2", ".*partial_groups: a row whose sequence group \\[g\\] has values but NULL sequence fields cannot be updated.*");
        assertQueryFails("UPDATE partial_groups SET a = 'z' WHERE id = 3", ".*partial_groups: a row whose sequence group \\[g\\] has values but NULL sequence fields cannot be updated.*");
        assertQueryFails("UPDATE partial_groups SET g = 5", ".*partial_groups: column 'g' is a sequence field and cannot be updated.*");
        assertQueryFails("UPDATE partial_groups SET other = NULL WHERE id = 1", ".*partial_groups: column 'other' cannot be updated to NULL.*");
        assertUpdate("UPDATE partial_groups SET other = 'q' WHERE id = 1", 1);
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 2, s("w"), null)));
        assertRows("partial_groups", "+I(1, 2, w, q)", "+I(2, null, y, p)", "+I(3, null, null, s)");
    }

    @Test
    void aggregationRefusesUpdateOfSumAndDeleteWithoutRemoval()
    {
        Table table = table("aggregation_sum");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 10L, s("a"))));
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 5L, s("b"))));
        assertQueryFails("UPDATE aggregation_sum SET note = 'c'", ".*aggregation_sum: UPDATE would write the whole row again and column 'total' aggregates it with 'sum' instead of replacing its value.*");
        assertQueryFails("DELETE FROM aggregation_sum WHERE id = 1", ".*aggregation_sum: DELETE is not possible: with 'merge-engine' = 'aggregation' rows can be deleted only with 'aggregation.remove-record-on-delete' = 'true'");
        assertRows("aggregation_sum", "+I(1, 15, b)");
    }

    @Test
    void aggregationDeleteWithRemoveRecordOnDelete()
    {
        Table table = table("aggregation_remove");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 10L), GenericRow.of(2, 3L)));
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 5L)));
        assertUpdate("DELETE FROM aggregation_remove WHERE total > 10", 1);
        assertRows("aggregation_remove", "+I(2, 3)");
        // the sum starts again from the deleted row's NULL
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 4L)));
        assertUpdate("INSERT INTO aggregation_remove VALUES (1, 1)", 1);
        assertRows("aggregation_remove", "+I(1, 5)", "+I(2, 3)");
    }

    @Test
    void aggregationUpdateWhenEveryColumnReplaces()
    {
        PaimonJavaCatalog.write(table("aggregation_replacing"), List.of(GenericRow.of(1, s("a"), s("b"))));
        assertUpdate("UPDATE aggregation_replacing SET v = NULL", 1);
        assertUpdate("UPDATE aggregation_replacing SET w = 'c'", 1);
        assertRows("aggregation_replacing", "+I(1, null, c)");
        assertQueryFails("UPDATE aggregation_replacing SET w = NULL", ".*aggregation_replacing: column 'w' cannot be updated to NULL: its aggregate function 'last_non_null_value' does not replace a value with NULL.*");
    }

    /**
     * T4 (reliability.md): sessions update different columns of one row at once; each statement lands or fails with
     * TRANSACTION_CONFLICT, and the row holds exactly the increments of the statements that landed (a lost update
     * would drop one).
     */
    @Test
    void concurrentUpdatesOfOneRowLandOrConflict()
            throws Exception
    {
        PaimonJavaCatalog.write(table("contended"), List.of(GenericRow.of(1, 0, 0, 0, 0)));
        int sessions = 4;
        int statements = 3;
        ExecutorService executor = Executors.newFixedThreadPool(sessions);
        try {
            List<Future<Integer>> landed = new ArrayList<>();
            for (int session = 0; session < sessions; session++) {
                String column = "c" + session;
                landed.add(executor.submit(() -> {
                    int count = 0;
                    for (int statement = 0; statement < statements; statement++) {
                        try {
                            getQueryRunner().execute("UPDATE contended SET %s = %s + 1 WHERE id = 1".formatted(column, column));
                            count++;
                        }
                        catch (RuntimeException e) {
                            assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
                        }
                    }
                    return count;
                }));
            }
            List<Integer> counts = new ArrayList<>();
            for (Future<Integer> future : landed) {
                counts.add(future.get());
            }
            assertThat(counts.stream().mapToInt(Integer::intValue).sum()).isPositive();
            assertRows("contended", "+I(1, %s, %s, %s, %s)".formatted(counts.get(0), counts.get(1), counts.get(2), counts.get(3)));
        }
        finally {
            executor.shutdownNow();
        }
    }

    private void assertRows(String tableName, String... expected)
    {
        assertRows(table(tableName), tableName, expected);
    }

    private void assertRows(Table table, String tableName, String... expected)
    {
        List<String> sorted = List.of(expected).stream().sorted().toList();
        // an updated row is +U in the files, as Paimon's own UPDATE writes it; rows are compared by their values
        List<String> paimonRows = PaimonJavaCatalog.readRows(table).stream()
                .map(row -> row.replaceFirst("^\\+U\\(", "+I("))
                .sorted()
                .toList();
        assertThat(paimonRows).as("Paimon Java reads %s", tableName).isEqualTo(sorted);
        assertThat(trinoRows(tableName)).as("Trino reads %s", tableName).isEqualTo(sorted);
    }

    private List<String> trinoRows(String tableName)
    {
        return trinoRows(getSession(), tableName);
    }

    private List<String> trinoRows(Session session, String tableName)
    {
        return computeActual(session, "SELECT * FROM " + tableName).getMaterializedRows().stream()
                .map(TestPaimonRowChanges::text)
                .sorted()
                .toList();
    }

    private static String text(MaterializedRow row)
    {
        return "+I(" + String.join(", ", row.getFields().stream().map(Objects::toString).toList()) + ")";
    }

    private Table table(String name)
    {
        return paimon().getTable(DATABASE, name);
    }

    private static BinaryString s(String value)
    {
        return BinaryString.fromString(value);
    }
}
