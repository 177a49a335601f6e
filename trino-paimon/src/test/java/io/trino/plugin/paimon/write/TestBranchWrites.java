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
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes to a branch ({@code "t$branch_<name>"}) with Paimon Java 1.4.2 as the oracle: each statement commits a
 * snapshot of the branch, Paimon Java reads the branch's rows and writes on top of them, and the main branch keeps its
 * snapshots and rows. The table itself (its schema, its maintenance) changes on the main branch only.
 */
final class TestBranchWrites
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "branch_writes";

    TestBranchWrites()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("keyed", "refused", "raced")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .build());
        }
        paimon.createTable(DATABASE, "events", Schema.newBuilder()
                .column("day", DataTypes.STRING())
                .column("event", DataTypes.STRING())
                .partitionKeys("day")
                .build());
    }

    @Test
    void rowLevelWritesCommitToTheBranchAsPaimonJavaReadsThem()
    {
        assertUpdate("INSERT INTO keyed VALUES (1, 'one'), (2, 'two')", 2);
        table("keyed").createTag("base");
        table("keyed").createBranch("dev", "base");
        long mainSnapshot = latestSnapshotIdOf("keyed");

        assertUpdate("INSERT INTO \"keyed$branch_dev\" VALUES (3, 'three')", 1);
        assertUpdate("UPDATE \"keyed$branch_dev\" SET v = 'two on dev' WHERE id = 2", 1);
        assertUpdate("DELETE FROM \"keyed$branch_dev\" WHERE id = 1", 1);
        assertUpdate("""
                MERGE INTO "keyed$branch_dev" t USING (VALUES (3, 'three on dev'), (4, 'four')) s(id, v) ON t.id = s.id
                WHEN MATCHED THEN UPDATE SET v = s.v
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)""", 2);
        List<String> onDev = List.of("(2, two on dev)", "(3, three on dev)", "(4, four)");
        assertThat(tableRows("\"keyed$branch_dev\"")).isEqualTo(onDev);
        assertThat(paimonJavaRows("keyed$branch_dev")).isEqualTo(onDev);
        // the tag's snapshot, then one per statement
        assertThat(table("keyed$branch_dev").snapshotManager().latestSnapshotId()).isEqualTo(mainSnapshot + 4);

        // the main branch as it was
        assertThat(latestSnapshotIdOf("keyed")).isEqualTo(mainSnapshot);
        assertThat(tableRows("keyed")).isEqualTo(List.of("(1, one)", "(2, two)"));
        assertThat(paimonJavaRows("keyed")).isEqualTo(List.of("(1, one)", "(2, two)"));

        // Paimon Java writes on top of Trino's commits to the branch, and Trino compacts the branch
        PaimonJavaCatalog.write(table("keyed$branch_dev"), List.of(GenericRow.of(5, BinaryString.fromString("five"))));
        assertUpdate("ALTER TABLE \"keyed$branch_dev\" EXECUTE optimize");
        assertThat(computeScalar("SELECT commit_kind FROM \"keyed$branch_dev$snapshots\" ORDER BY snapshot_id DESC LIMIT 1")).isEqualTo("COMPACT");
        assertThat(computeScalar("SELECT count(DISTINCT level) FROM \"keyed$branch_dev$files\"")).isEqualTo(1L);
        List<String> compacted = List.of("(2, two on dev)", "(3, three on dev)", "(4, four)", "(5, five)");
        assertThat(tableRows("\"keyed$branch_dev\"")).isEqualTo(compacted);
        assertThat(paimonJavaRows("keyed$branch_dev")).isEqualTo(compacted);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "\"keyed$branch_dev\"", table("keyed$branch_dev"))).isEmpty();

        assertUpdate("TRUNCATE TABLE \"keyed$branch_dev\"");
        assertThat(tableRows("\"keyed$branch_dev\"")).isEmpty();
        assertThat(paimonJavaRows("keyed$branch_dev")).isEmpty();
        assertThat(latestSnapshotIdOf("keyed")).isEqualTo(mainSnapshot);
        assertThat(paimonJavaRows("keyed")).isEqualTo(List.of("(1, one)", "(2, two)"));
    }

    /**
     * A branch made from Trino, empty, takes its first snapshot from a Trino write; partitions drop on the branch
     * alone; {@code fast_forward} publishes what Trino wrote.
     */
    @Test
    void appendTableBranchTakesInsertsAndPartitionDeletes()
    {
        assertUpdate("INSERT INTO events VALUES ('d1', 'main')", 1);
        getQueryRunner().execute("CALL paimon.system.create_branch(schema_name => '%s', table_name => 'events', branch => 'backfill')".formatted(DATABASE));
        assertUpdate("INSERT INTO \"events$branch_backfill\" VALUES ('d1', 'a'), ('d2', 'b'), ('d2', 'c')", 3);
        assertUpdate("DELETE FROM \"events$branch_backfill\" WHERE day = 'd1'", 1);
        assertThat(computeActual("SELECT day, event FROM \"events$branch_backfill\" ORDER BY event").getMaterializedRows().stream().map(row -> row.getField(0) + "/" + row.getField(1)).toList())
                .containsExactly("d2/b", "d2/c");
        assertThat(PaimonJavaCatalog.readRows(table("events$branch_backfill"))).containsExactlyInAnyOrder("+I(d2, b)", "+I(d2, c)");
        assertThat(table("events$branch_backfill").snapshotManager().latestSnapshotId()).isEqualTo(2);
        assertThat(PaimonJavaCatalog.readRows(table("events"))).containsExactly("+I(d1, main)");

        // main's expiry and orphan removal keep the files the branch's snapshots name, in the table's folders
        cleanUp("events");
        assertThat(PaimonJavaCatalog.readRows(table("events$branch_backfill"))).containsExactlyInAnyOrder("+I(d2, b)", "+I(d2, c)");
        assertThat(computeScalar("SELECT count(*) FROM \"events$branch_backfill\"")).isEqualTo(2L);

        // published: main takes the branch's snapshots, and keeps its files through the next clean-up
        getQueryRunner().execute("CALL paimon.system.fast_forward(schema_name => '%s', table_name => 'events', branch => 'backfill')".formatted(DATABASE));
        cleanUp("events");
        assertThat(PaimonJavaCatalog.readRows(table("events"))).containsExactlyInAnyOrder("+I(d2, b)", "+I(d2, c)");
        assertThat(computeScalar("SELECT count(*) FROM events WHERE day = 'd2'")).isEqualTo(2L);
        assertThat(fsckViolations("events")).isEmpty();
    }

    // expire_snapshots and remove_orphan_files of the table (main), keeping nothing older than now
    private void cleanUp(String table)
    {
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty("paimon", "expire_snapshots_min_retention", "0s").build(),
                "ALTER TABLE %s EXECUTE expire_snapshots(retention_threshold => '0s')".formatted(table));
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty("paimon", "remove_orphan_files_min_retention", "0s").build(),
                "ALTER TABLE %s EXECUTE remove_orphan_files(retention_threshold => '0s')".formatted(table));
    }

    /**
     * A Trino UPDATE of a branch and a Paimon Java commit of the same key to that branch: the statement, whose commit
     * finds Paimon Java's snapshot of the branch newer than the one it read, fails with {@code TRANSACTION_CONFLICT}
     * and leaves the branch as Paimon Java left it.
     */
    @Test
    void concurrentCommitToTheBranchFailsOneSide()
            throws Exception
    {
        assertUpdate("INSERT INTO raced VALUES (1, 'one'), (2, 'two')", 2);
        table("raced").createTag("base");
        table("raced").createBranch("dev", "base");
        long tagged = latestSnapshotIdOf("raced");
        // main goes on too, so that its snapshot ids overlap the branch's
        assertUpdate("INSERT INTO raced VALUES (3, 'three')", 1);
        long mainSnapshot = latestSnapshotIdOf("raced");

        // the statement holds as it writes its delta manifest, before it reads the branch's latest snapshot to commit on
        Optional<RuntimeException> failure = new HeldRace(faultFs(), Operation.CREATE_OR_OVERWRITE, "**/raced/manifest/manifest-*").run(
                () -> getQueryRunner().execute("UPDATE \"raced$branch_dev\" SET v = 'trino' WHERE id = 1"),
                () -> PaimonJavaCatalog.write(table("raced$branch_dev"), List.of(GenericRow.of(1, BinaryString.fromString("paimon")))));
        assertThat(failure).hasValueSatisfying(e -> {
            assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
            assertThat(e).hasMessageContaining("raced$branch_dev conflicts with a concurrent commit");
        });
        assertThat(paimonJavaRows("raced$branch_dev")).isEqualTo(List.of("(1, paimon)", "(2, two)"));
        assertThat(table("raced$branch_dev").snapshotManager().latestSnapshotId()).isEqualTo(tagged + 1);
        assertThat(latestSnapshotIdOf("raced")).isEqualTo(mainSnapshot);
        assertThat(paimonJavaRows("raced")).isEqualTo(List.of("(1, one)", "(2, two)", "(3, three)"));
    }

    /**
     * A column added on a branch is the branch's schema alone, as Paimon changes a branch's schema: the branch writes
     * and reads it, Paimon Java reads it, main keeps its columns. What changes the table itself stays on main.
     */
    @Test
    void schemaChangesOfABranchStayOnIt()
    {
        assertUpdate("INSERT INTO refused VALUES (1, 'one')", 1);
        table("refused").createTag("base");
        table("refused").createBranch("dev", "base");
        assertUpdate("ALTER TABLE \"refused$branch_dev\" ADD COLUMN extra varchar");
        assertUpdate("INSERT INTO \"refused$branch_dev\" VALUES (2, 'two', 'new')", 1);

        assertThat(table("refused$branch_dev").schema().fieldNames()).containsExactly("id", "v", "extra");
        assertThat(table("refused").schema().fieldNames()).containsExactly("id", "v");
        List<String> onDev = List.of("(1, one, null)", "(2, two, new)");
        assertThat(tableRows("\"refused$branch_dev\"")).isEqualTo(onDev);
        assertThat(paimonJavaRows("refused$branch_dev")).isEqualTo(onDev);
        assertThat(tableRows("refused")).isEqualTo(List.of("(1, one)"));
        assertThat(paimonJavaRows("refused")).isEqualTo(List.of("(1, one)"));

        String message = "Table branch_writes.refused: the Paimon connector changes the rows and the schema of a branch, not the table itself \\(branch 'dev'\\)";
        assertQueryFails("ALTER TABLE \"refused$branch_dev\" EXECUTE expire_snapshots(retention_threshold => '0s')", message);
        assertQueryFails("ALTER TABLE \"refused$branch_dev\" EXECUTE remove_orphan_files(retention_threshold => '0s')", message);
        assertQueryFails("ANALYZE \"refused$branch_dev\"", message);
        assertQueryFails("DROP TABLE \"refused$branch_dev\"", message);
        assertQueryFails("INSERT INTO \"refused$branch_dev$ro\" VALUES (2, 'two', 'x')", ".*is read only");
    }

    private FileStoreTable table(String name)
    {
        return (FileStoreTable) uncachedPaimon().getTable(DATABASE, name);
    }

    // Paimon Java's rows of the table, as Trino's rows are printed
    private List<String> paimonJavaRows(String name)
    {
        return PaimonJavaCatalog.readRows(table(name)).stream().map(row -> row.substring(row.indexOf('('))).sorted().toList();
    }
}
