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
package io.trino.plugin.paimon.metadata;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Schema changes racing with INSERTs and with each other (reliability.md T24): an INSERT planned on schema k that
 * commits after schema k+1 keeps its files at schema k and reads correctly by field id (after ADD COLUMN, RENAME
 * COLUMN, DROP and re-ADD of a column; an UPDATE too); INSERTs running beside ADD COLUMN land or
 * fail with a conflict, and the table stays consistent (Fsck, Paimon Java); schema changes that race for the same
 * schema id all land, each applied again on top of the one that won.
 */
final class TestAlterTableConcurrency
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "evolving";
    private static final int INSERT_SESSIONS = 3;
    private static final int INSERTS_PER_SESSION = 8;

    private FaultFs faultFs;

    TestAlterTableConcurrency()
    {
        super(DATABASE);
    }

    @Override
    protected Optional<TrinoFileSystemFactory> fileSystemFactory(Path root)
    {
        faultFs = FaultFs.local(root, 1);
        return Optional.of(faultFs);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createTable(DATABASE, "dropped_meanwhile", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "1")
                .build());
        paimon.createTable(DATABASE, "compacted_meanwhile", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                // more than one sorted run compacts the bucket whole
                .option("num-sorted-run.compaction-trigger", "1")
                .build());
        for (String name : List.of("held", "busy", "raced", "held_rename", "held_readd", "held_update")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "4")
                    .build());
        }
    }

    @Test
    void insertPlannedBeforeAddColumnCommitsAfterIt()
            throws Exception
    {
        assertUpdate("INSERT INTO held VALUES (1, 'first')", 1);
        Optional<RuntimeException> failure = runHeld("held", "INSERT INTO held VALUES (2, 'planned on schema 0')",
                () -> assertUpdate("ALTER TABLE held ADD COLUMN c bigint"));
        assertThat(failure).isEmpty();

        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "held");
        assertThat(table.schema().id()).isEqualTo(1);
        // each file keeps the schema it was written with; the snapshot names the latest schema, as Paimon's commit does
        assertThat(table.store().newScan().plan().files()).extracting(entry -> entry.file().schemaId()).containsOnly(0L);
        assertThat(table.snapshotManager().latestSnapshot().schemaId()).isEqualTo(1);
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, first, null)", "+I(2, planned on schema 0, null)");

        assertUpdate("INSERT INTO held VALUES (3, 'after', 42)", 1);
        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "held");
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, first, null)", "+I(2, planned on schema 0, null)", "+I(3, after, 42)");
        assertThat(table.store().newScan().plan().files()).extracting(entry -> entry.file().schemaId()).containsOnly(0L, 1L);
        assertThat(fsck("held")).isEmpty();
    }

    /**
     * An INSERT planned on schema 0 that commits after a RENAME COLUMN: its files keep schema 0 and field ids, so the
     * value it wrote is read under the new name, by Trino and by Paimon Java.
     */
    @Test
    void insertPlannedBeforeRenameColumnCommitsAfterIt()
            throws Exception
    {
        assertUpdate("INSERT INTO held_rename VALUES (1, 'first')", 1);
        Optional<RuntimeException> failure = runHeld("held_rename", "INSERT INTO held_rename VALUES (2, 'planned on schema 0')",
                () -> assertUpdate("ALTER TABLE held_rename RENAME COLUMN v TO label"));
        assertThat(failure).isEmpty();
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "held_rename");
        assertThat(table.schema().fieldNames()).containsExactly("id", "label");
        assertThat(table.store().newScan().plan().files()).extracting(entry -> entry.file().schemaId()).containsOnly(0L);
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, first)", "+I(2, planned on schema 0)");
        assertQuery("SELECT id, label FROM held_rename", "VALUES (1, 'first'), (2, 'planned on schema 0')");
        assertThat(fsck("held_rename")).isEmpty();
    }

    /**
     * An INSERT planned on schema 0 that commits after its column was dropped and added again: the value it wrote
     * belongs to the dropped field id, so the new column reads NULL for it (no value revived by name, paimon PR
     * #8126), as if the INSERT had run before the DROP; or the INSERT fails with a conflict and is not there at all.
     */
    @Test
    void insertPlannedBeforeDropAndReAddCommitsAfterIt()
            throws Exception
    {
        assertUpdate("INSERT INTO held_readd VALUES (1, 'first')", 1);
        Optional<RuntimeException> failure = runHeld("held_readd", "INSERT INTO held_readd VALUES (2, 'planned on schema 0')",
                () -> {
                    assertUpdate("ALTER TABLE held_readd DROP COLUMN v");
                    assertUpdate("ALTER TABLE held_readd ADD COLUMN v varchar");
                });
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "held_readd");
        assertThat(table.schema().fields()).extracting(DataField::name, DataField::id).containsExactly(tuple("id", 0), tuple("v", 2));
        if (failure.isPresent()) {
            assertThat(isConflict(failure.get())).as("the INSERT failed with %s", failure.get()).isTrue();
            assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, null)");
        }
        else {
            assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, null)", "+I(2, null)");
        }
        assertUpdate("INSERT INTO held_readd VALUES (3, 'after')", 1);
        assertThat(fsck("held_readd")).isEmpty();
    }

    /** An UPDATE planned on schema 0 that commits after ADD COLUMN: its rows read NULL in the new column, and take values later. */
    @Test
    void updatePlannedBeforeAddColumnCommitsAfterIt()
            throws Exception
    {
        assertUpdate("INSERT INTO held_update VALUES (1, 'a'), (2, 'b')", 2);
        Optional<RuntimeException> failure = runHeld("held_update", "UPDATE held_update SET v = 'updated on schema 0' WHERE id = 1",
                () -> assertUpdate("ALTER TABLE held_update ADD COLUMN c bigint"));
        assertThat(failure).isEmpty();
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "held_update");
        assertThat(table.schema().id()).isEqualTo(1);
        assertThat(table.store().newScan().plan().files()).extracting(entry -> entry.file().schemaId()).containsOnly(0L);
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(2, b, null)", "+U(1, updated on schema 0, null)");

        assertUpdate("UPDATE held_update SET c = 5 WHERE id = 1", 1);
        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "held_update");
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(2, b, null)", "+U(1, updated on schema 0, 5)");
        assertQuery("SELECT * FROM held_update", "VALUES (1, 'updated on schema 0', 5), (2, 'b', NULL)");
        assertThat(fsck("held_update")).isEmpty();
    }

    /**
     * An INSERT planned on schema 0 commits after ADD COLUMN and a write of the new column to the same bucket; the
     * compaction after its write merges the bucket's runs, and must keep the new column's values: the bucket is
     * rewritten with the newest schema of its files, not with the schema the INSERT planned on.
     */
    @Test
    void compactionAfterInsertPlannedBeforeAddColumnKeepsTheNewColumn()
            throws Exception
    {
        assertUpdate("INSERT INTO compacted_meanwhile VALUES (1, 'first')", 1);
        Optional<RuntimeException> failure = runHeld("compacted_meanwhile", "INSERT INTO compacted_meanwhile VALUES (2, 'planned on schema 0')",
                () -> {
                    assertUpdate("ALTER TABLE compacted_meanwhile ADD COLUMN c bigint");
                    // two sorted runs: this write compacts the bucket into one file of schema 1
                    assertUpdate("INSERT INTO compacted_meanwhile VALUES (3, 'on schema 1', 42)", 1);
                });
        assertThat(failure).isEmpty();

        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "compacted_meanwhile");
        // the held INSERT's run and the compacted one: two runs, compacted into one
        assertThat(table.store().newScan().plan().files()).hasSize(1);
        assertThat(table.store().newScan().plan().files()).extracting(entry -> entry.file().schemaId()).containsOnly(1L);
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, first, null)", "+I(2, planned on schema 0, null)", "+I(3, on schema 1, 42)");
        assertQuery("SELECT * FROM compacted_meanwhile", "VALUES (1, 'first', NULL), (2, 'planned on schema 0', NULL), (3, 'on schema 1', 42)");
        assertThat(fsck("compacted_meanwhile")).isEmpty();
    }

    /**
     * Runs the write until it writes the manifest of its files (its data files written with the schema it planned
     * on, before it reads the latest snapshot and schema to commit on), runs the rival statements meanwhile, then lets
     * the write commit; returns how the write failed, if it did.
     */
    private Optional<RuntimeException> runHeld(String table, String write, Runnable meanwhile)
            throws Exception
    {
        return new HeldRace(faultFs, Operation.CREATE_OR_OVERWRITE, "**/%s/manifest/manifest-*".formatted(table)).run(() -> getQueryRunner().execute(write), meanwhile::run);
    }

    /**
     * A partition drop whose partition another statement wrote to after the drop read the table fails with
     * {@code TRANSACTION_CONFLICT}, as an INSERT OVERWRITE does, and the table keeps every row.
     */
    @Test
    void partitionDropConflictsWithInsertIntoThePartition()
            throws Exception
    {
        assertUpdate("INSERT INTO dropped_meanwhile VALUES ('d1', 1, 'a'), ('d2', 2, 'b')", 2);
        // the drop has written its manifest and waits; the INSERT's own manifest is not held (first occurrence only)
        Optional<RuntimeException> failure = runHeld("dropped_meanwhile", "DELETE FROM dropped_meanwhile WHERE dt = 'd1'",
                () -> assertUpdate("INSERT INTO dropped_meanwhile VALUES ('d1', 3, 'c')", 1));
        assertThat(failure).hasValueSatisfying(e -> assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT));
        assertThat(PaimonJavaCatalog.readRows(uncachedPaimon().getTable(DATABASE, "dropped_meanwhile"))).containsExactly("+I(d1, 1, a)", "+I(d1, 3, c)", "+I(d2, 2, b)");
        assertThat(fsck("dropped_meanwhile")).isEmpty();
    }

    @Test
    void addColumnConcurrentWithInserts()
            throws Exception
    {
        Set<Integer> landed = ConcurrentHashMap.newKeySet();
        List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(INSERT_SESSIONS + 1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int session = 0; session < INSERT_SESSIONS; session++) {
                int first = session * INSERTS_PER_SESSION;
                futures.add(executor.submit(() -> {
                    start.await();
                    for (int key = first; key < first + INSERTS_PER_SESSION; key++) {
                        try {
                            getQueryRunner().execute("INSERT INTO busy (id, v) VALUES (%s, 'v%s')".formatted(key, key));
                            landed.add(key);
                        }
                        catch (RuntimeException e) {
                            if (!isConflict(e)) {
                                unexpected.add("INSERT of key %s failed with %s".formatted(key, e));
                            }
                        }
                    }
                    return null;
                }));
            }
            futures.add(executor.submit(() -> {
                start.await();
                for (int column = 0; column < 3; column++) {
                    getQueryRunner().execute("ALTER TABLE busy ADD COLUMN c%s integer".formatted(column));
                }
                return null;
            }));
            start.countDown();
            for (Future<?> future : futures) {
                future.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(unexpected).isEmpty();
        assertThat(landed).as("some INSERTs land").isNotEmpty();

        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "busy");
        assertThat(table.schema().fields()).extracting(DataField::name).containsExactly("id", "v", "c0", "c1", "c2");
        List<String> expected = landed.stream().map(key -> "+I(%s, v%s, null, null, null)".formatted(key, key)).sorted().toList();
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactlyElementsOf(expected);
        assertThat(fsck("busy")).isEmpty();
    }

    @Test
    void racingSchemaChangesAllLand()
            throws Exception
    {
        int changes = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(changes);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int change = 0; change < changes; change++) {
                int column = change;
                futures.add(executor.submit(() -> {
                    start.await();
                    getQueryRunner().execute("ALTER TABLE raced ADD COLUMN r%s varchar".formatted(column));
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "raced");
        assertThat(table.schema().id()).isEqualTo(changes);
        assertThat(table.schema().fields()).extracting(DataField::name)
                .containsExactlyInAnyOrder("id", "v", "r0", "r1", "r2", "r3");
        // every column a field id of its own, given out in commit order
        assertThat(table.schema().fields()).extracting(DataField::id).containsExactlyElementsOf(IntStream.range(0, 2 + changes).boxed().toList());
        assertThat(table.schema().highestFieldId()).isEqualTo(1 + changes);
        assertThat(table.schemaManager().listAllIds()).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(0, changes).mapToObj(Long::valueOf).toList());
    }

    // an INSERT that lost a bucket or a snapshot id to another commit
    private static boolean isConflict(RuntimeException e)
    {
        try {
            assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
            return true;
        }
        catch (AssertionError notAConflict) {
            return false;
        }
    }

    private List<String> fsck(String table)
    {
        Table paimonTable = uncachedPaimon().getTable(DATABASE, table);
        List<String> violations = new ArrayList<>(Fsck.check(new LocalFileSystem(root()), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table)), paimonTable));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable));
        return violations;
    }
}
