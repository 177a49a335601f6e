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
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.apache.paimon.deletionvectors.DeletionVectorsIndexFile.DELETION_VECTORS_INDEX;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes through Trino to tables whose level-0 files Paimon's batch reads skip: deletion-vector tables (deduplicate,
 * partial-update, aggregation) and first-row tables, created and written by Paimon Java 1.4.2 before and after us.
 * After each statement Paimon Java and Trino read the rows computed by hand, the table passes fsck, and no level-0
 * file is left. Writes that would not be compacted are refused.
 */
final class TestDeletionVectorWrites
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "vectors";

    TestDeletionVectorWrites()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        paimon.createTable(DATABASE, "dv_dedup", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("deletion-vectors.enabled", "true")
                .build());
        paimon.createTable(DATABASE, "dv_partial", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("deletion-vectors.enabled", "true")
                .build());
        paimon.createTable(DATABASE, "dv_aggregation", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("deletion-vectors.enabled", "true")
                .build());
        paimon.createTable(DATABASE, "dv_optimize", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .build());
        paimon.createTable(DATABASE, "first_row", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "first-row")
                .build());
        paimon.createTable(DATABASE, "dv_write_only", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .option("write-only", "true")
                .build());
    }

    @Test
    void deduplicate()
    {
        Table table = table("dv_dedup");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, s("a")), GenericRow.of(2, s("b")), GenericRow.of(3, s("c"))));
        assertUpdate("INSERT INTO dv_dedup VALUES (2, 'B'), (4, 'd')", 2);
        assertTable("dv_dedup", "+I(1, a)", "+I(2, B)", "+I(3, c)", "+I(4, d)");
        assertUpdate("UPDATE dv_dedup SET v = 'C' WHERE id = 3", 1);
        assertTable("dv_dedup", "+I(1, a)", "+I(2, B)", "+I(3, C)", "+I(4, d)");
        assertUpdate("DELETE FROM dv_dedup WHERE id = 1", 1);
        assertTable("dv_dedup", "+I(2, B)", "+I(3, C)", "+I(4, d)");
        assertUpdate("""
                MERGE INTO dv_dedup t USING (VALUES (2, 'x'), (5, 'e')) s(id, v) ON t.id = s.id
                WHEN MATCHED THEN DELETE
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)""", 2);
        assertTable("dv_dedup", "+I(3, C)", "+I(4, d)", "+I(5, e)");

        // Paimon Java writes after us, marking our rows it replaces in deletion vectors, and we write after it
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(3, s("p")), GenericRow.of(6, s("f"))));
        assertRows("dv_dedup", "+I(3, p)", "+I(4, d)", "+I(5, e)", "+I(6, f)");
        assertUpdate("UPDATE dv_dedup SET v = v || '!' WHERE id IN (3, 6)", 2);
        assertTable("dv_dedup", "+I(3, p!)", "+I(4, d)", "+I(5, e)", "+I(6, f!)");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(4, s("q"))));
        assertRows("dv_dedup", "+I(3, p!)", "+I(4, q)", "+I(5, e)", "+I(6, f!)");
        assertIntact("dv_dedup");
    }

    @Test
    void partialUpdate()
    {
        Table table = table("dv_partial");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, s("x"), null), GenericRow.of(2, null, 5)));
        // a NULL does not replace a value in a partial update
        assertUpdate("INSERT INTO dv_partial VALUES (1, NULL, 7), (3, 'z', 1)", 2);
        assertTable("dv_partial", "+I(1, x, 7)", "+I(2, null, 5)", "+I(3, z, 1)");
        assertUpdate("UPDATE dv_partial SET b = 9 WHERE id = 2", 1);
        assertTable("dv_partial", "+I(1, x, 7)", "+I(2, null, 9)", "+I(3, z, 1)");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, s("y"), null)));
        assertRows("dv_partial", "+I(1, x, 7)", "+I(2, y, 9)", "+I(3, z, 1)");
        assertUpdate("INSERT INTO dv_partial VALUES (2, NULL, 10), (1, 'w', NULL)", 2);
        assertTable("dv_partial", "+I(1, w, 7)", "+I(2, y, 10)", "+I(3, z, 1)");
        assertIntact("dv_partial");
    }

    @Test
    void aggregation()
    {
        Table table = table("dv_aggregation");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 10L), GenericRow.of(2, 20L)));
        assertUpdate("INSERT INTO dv_aggregation VALUES (1, 5), (3, 1)", 2);
        assertTable("dv_aggregation", "+I(1, 15)", "+I(2, 20)", "+I(3, 1)");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, 2L)));
        assertRows("dv_aggregation", "+I(1, 15)", "+I(2, 22)", "+I(3, 1)");
        assertUpdate("INSERT INTO dv_aggregation VALUES (2, 1)", 1);
        assertTable("dv_aggregation", "+I(1, 15)", "+I(2, 23)", "+I(3, 1)");

        assertIntact("dv_aggregation");
    }

    @Test
    void optimizeReadsDeletionVectors()
    {
        // a bucket large enough that Paimon Java's next write moves only level 0 up and marks the old row deleted
        assertUpdate("INSERT INTO dv_optimize SELECT x, 'a' FROM UNNEST(sequence(1, 300)) t(x)", 300);
        PaimonJavaCatalog.write(table("dv_optimize"), List.of(GenericRow.of(5, s("b"))));
        assertThat(deletionVectorCount("dv_optimize")).as("data files with a deletion vector Paimon Java wrote").isEqualTo(1);
        assertUpdate("ALTER TABLE dv_optimize EXECUTE optimize");
        assertThat(deletionVectorCount("dv_optimize")).isZero();
        List<String> expected = new ArrayList<>();
        for (int id = 1; id <= 300; id++) {
            expected.add("+I(%s, %s)".formatted(id, id == 5 ? "b" : "a"));
        }
        assertTable("dv_optimize", expected.toArray(String[]::new));
        assertThat(computeActual("SELECT count(*) FROM \"dv_optimize$files\"").getOnlyValue()).isEqualTo(1L);
        assertIntact("dv_optimize");
    }

    @Test
    void firstRow()
    {
        Table table = table("first_row");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, s("a")), GenericRow.of(2, s("b"))));
        // a key that exists keeps its first row
        assertUpdate("INSERT INTO first_row VALUES (2, 'B'), (3, 'c')", 2);
        assertTable("first_row", "+I(1, a)", "+I(2, b)", "+I(3, c)");
        assertUpdate("INSERT INTO first_row SELECT id + 3, v || 'z' FROM first_row WHERE id <= 1", 1);
        assertTable("first_row", "+I(1, a)", "+I(2, b)", "+I(3, c)", "+I(4, az)");
        assertUpdate("INSERT INTO first_row VALUES (1, 'z'), (4, 'd')", 2);
        assertTable("first_row", "+I(1, a)", "+I(2, b)", "+I(3, c)", "+I(4, az)");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(3, s("C")), GenericRow.of(5, s("e"))));
        assertRows("first_row", "+I(1, a)", "+I(2, b)", "+I(3, c)", "+I(4, az)", "+I(5, e)");
        assertUpdate("INSERT INTO first_row VALUES (5, 'E'), (6, 'f')", 2);
        assertTable("first_row", "+I(1, a)", "+I(2, b)", "+I(3, c)", "+I(4, az)", "+I(5, e)", "+I(6, f)");
        assertIntact("first_row");
    }

    @Test
    void refusedWithoutCompaction()
    {
        assertQueryFails("INSERT INTO dv_write_only VALUES (1, 'x')",
                "Cannot write to Paimon table vectors.dv_write_only: with option 'deletion-vectors.enabled' = 'true' Paimon reads the table without its level-0 files, .* option 'write-only' = 'true' turns that compaction off");
        Session off = withoutCompactionOnWrite();
        assertQueryFails(off, "INSERT INTO dv_partial VALUES (9, 'x', 1)",
                "Cannot write to Paimon table vectors.dv_partial: .* session property 'compaction_on_write_enabled' = false turns that compaction off");
        assertQueryFails(off, "DELETE FROM dv_dedup WHERE id = 9",
                "Cannot write to Paimon table vectors.dv_dedup: .* session property 'compaction_on_write_enabled' = false turns that compaction off");
        assertQueryFails(off, "INSERT INTO first_row VALUES (9, 'x')",
                "Cannot write to Paimon table vectors.first_row: with option 'merge-engine' = 'first-row' Paimon reads the table without its level-0 files, .*");
        assertThat(computeActual("SELECT count(*) FROM \"dv_write_only$snapshots\"").getOnlyValue()).isEqualTo(0L);
    }

    /** What both readers return, and that no level-0 file is left. */
    private void assertTable(String tableName, String... expected)
    {
        assertRows(tableName, expected);
        assertThat(computeActual("SELECT count(*) FROM \"%s$files\" WHERE level = 0".formatted(tableName)).getOnlyValue())
                .as("level-0 files of %s", tableName)
                .isEqualTo(0L);
    }

    private void assertIntact(String tableName)
    {
        assertThat(fsckViolations(tableName)).as("fsck of %s", tableName).isEmpty();
    }

    private void assertRows(String tableName, String... expected)
    {
        assertRowsInPaimonJavaAndTrino(tableName, List.of(expected));
    }

    /** The data files with a deletion vector in the latest snapshot, as Paimon Java finds them. */
    private long deletionVectorCount(String tableName)
    {
        IndexFileHandler index = ((FileStoreTable) table(tableName)).store().newIndexFileHandler();
        return index.scan(DELETION_VECTORS_INDEX).stream()
                .mapToLong(entry -> index.readAllDeletionVectors(entry).size())
                .sum();
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
