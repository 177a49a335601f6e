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
package io.trino.plugin.paimon.procedure;

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.CommitFault;
import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RunnerTasks;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * reliability.md T6 for compaction commits: a file system failure at each step of {@code optimize}'s commit leaves
 * the table as it was and none of the files the compaction wrote (or, when the snapshot was published, compacts
 * exactly once); a failure of the compaction that follows a write cannot fail a statement whose rows are committed,
 * except where readers cannot see them until that compaction, and then the error says they are committed. Every
 * step ends with {@code Fsck} and a comparison with Paimon Java 1.4.2.
 */
final class TestCompactionReliability
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "compaction_faults";

    TestCompactionReliability()
    {
        super(DATABASE, 23);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("raced", "stopped")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("k", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("k")
                    .option("bucket", "2")
                    .build());
        }
        paimon.createTable(DATABASE, "optimized", partitionedTableSchema());
        for (String name : List.of("summed", "summed_dv")) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("k", DataTypes.INT().notNull())
                    .column("n", DataTypes.BIGINT())
                    .primaryKey("k")
                    .option("bucket", "1")
                    .option("merge-engine", "aggregation")
                    .option("fields.n.aggregate-function", "sum");
            if (name.endsWith("_dv")) {
                schema.option("deletion-vectors.enabled", "true");
            }
            paimon.createTable(DATABASE, name, schema.build());
        }
        paimon.createTable(DATABASE, "appended_dv", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("n", DataTypes.BIGINT())
                .option("bucket", "1")
                .option("bucket-key", "k")
                .option("deletion-vectors.enabled", "true")
                .build());
    }

    /**
     * Each round adds a sorted run without compacting, then runs {@code optimize} with one failure: before the publish
     * it fails naming the file and leaves the table's files as they were; a publish that landed, or a LATEST hint
     * that failed, ends compacted with the same rows.
     */
    @Test
    void optimizeFailureAtEachCommitStep()
    {
        Session withoutCompaction = withoutCompactionOnWrite();
        int round = 0;
        for (CommitFault fault : CommitFault.STEPS) {
            round++;
            getQueryRunner().execute(withoutCompaction, "INSERT INTO optimized VALUES ('d1', %1$s, 'a%1$s'), ('d2', %1$s, 'b%1$s'), ('d1', 1, 'latest %1$s')".formatted(round));
            List<String> rowsBefore = tableRows("optimized");
            long snapshotBefore = latestSnapshotIdOf("optimized");
            Set<String> filesBefore = tableFiles("optimized");
            long injectedBefore = faultFs().injectedFaults();
            faultFs().addRule(fault.rule());
            try {
                if (fault.succeeds()) {
                    getQueryRunner().execute("ALTER TABLE optimized EXECUTE optimize");
                }
                else {
                    assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE optimized EXECUTE optimize"))
                            .as(fault.step())
                            .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_FILESYSTEM_ERROR))
                            .hasMessageContaining(fault.pathInMessage());
                }
            }
            finally {
                faultFs().clearRules();
            }
            assertThat(faultFs().injectedFaults() - injectedBefore).as(fault.step() + ": the fault was hit").isEqualTo(1);

            assertThat(tableRows("optimized")).as(fault.step()).isEqualTo(rowsBefore);
            if (fault.succeeds()) {
                assertThat(latestSnapshotIdOf("optimized")).as(fault.step()).isEqualTo(snapshotBefore + 1);
                assertThat(computeActual("SELECT DISTINCT level FROM \"optimized$files\"").getOnlyColumnAsSet()).as(fault.step()).containsExactly(5);
            }
            else {
                assertThat(latestSnapshotIdOf("optimized")).as(fault.step()).isEqualTo(snapshotBefore);
                awaitQueryCleanup("optimized");
                assertThat(tableFiles("optimized")).as(fault.step() + ": the compacted files, manifests and lists are removed").isEqualTo(filesBefore);
            }
            assertThat(fsckViolations("optimized")).as(fault.step()).isEmpty();
        }
    }

    /**
     * Trino rolls a failed query back as soon as it fails, while a task compacting another bucket may still run: the
     * compaction of bucket 0 fails; bucket 1, its data file written, is held at its fragment until the rollback has
     * listed the staging folder, then writes the fragment before the rollback removes the folder, and must remove the
     * data file and the fragment the rollback could not see.
     */
    @Test
    void bucketFinishingAfterTheRollbackRemovesItsFiles()
            throws Exception
    {
        writeTwoRuns("raced");
        List<String> rowsBefore = tableRows("raced");
        Set<String> filesBefore = tableFiles("raced");
        Hang compaction = faultFs().hangThroughInterrupts(Operation.CREATE_OR_OVERWRITE, "**/raced/_trino-optimize-*/*-1.*.json", 1);
        Hang rollback = faultFs().hang(Operation.DELETE_DIRECTORY, "**/raced/_trino-optimize-*", 1);
        Hang cleanup = faultFs().hang(Operation.DELETE, "**/raced/_trino-optimize-*/*.json", 1);
        // bucket 0 fails only once bucket 1 is under way: a failure before bucket 1 started would end the execution early
        Hang failing = faultFs().hang(Operation.CREATE, "**/raced/bucket-0/data-*", 1);
        faultFs().addRule(Rule.nth(Operation.CREATE, "**/raced/bucket-0/data-*", 1, Action.THROW_BEFORE));
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> optimize = executor.submit(() -> getQueryRunner().execute("ALTER TABLE raced EXECUTE optimize"));
            assertThat(compaction.awaitReached(1, TimeUnit.MINUTES)).as("the compaction of bucket 1 reached its fragment").isTrue();
            assertThat(failing.awaitReached(1, TimeUnit.MINUTES)).as("the compaction of bucket 0 reached its data file").isTrue();
            failing.release();
            // Trino reports the failure only after the rollback ends
            assertThat(rollback.awaitReached(1, TimeUnit.MINUTES)).as("the rollback reached the staging folder's removal").isTrue();
            compaction.release();
            // the rollback listed no fragment: the first fragment removed is bucket 1's own, after its data file
            assertThat(cleanup.awaitReached(1, TimeUnit.MINUTES)).as("bucket 1 found the execution abandoned and removed its fragment").isTrue();
            cleanup.release();
            rollback.release();
            assertThatThrownBy(() -> optimize.get(1, TimeUnit.MINUTES)).hasMessageContaining("/raced/bucket-0/data-");
        }
        finally {
            faultFs().clearRules();
            executor.shutdownNow();
        }
        awaitQueryCleanup("raced");
        assertThat(tableFiles("raced")).as("neither bucket's compacted files nor fragments are left").isEqualTo(filesBefore);
        assertThat(tableRows("raced")).isEqualTo(rowsBefore);
        assertThat(fsckViolations("raced")).isEmpty();
    }

    /**
     * As above, with bucket 1 held while it writes its data file: once released, its task is either closed, and the
     * compaction deletes what it wrote, or it finishes and finds the execution abandoned. Either way nothing stays.
     */
    @Test
    void bucketStoppedWhileCompactingRemovesItsFiles()
            throws Exception
    {
        writeTwoRuns("stopped");
        List<String> rowsBefore = tableRows("stopped");
        Set<String> filesBefore = tableFiles("stopped");
        Hang compaction = faultFs().hangThroughInterrupts(Operation.CREATE, "**/stopped/bucket-1/data-*", 1);
        Hang rollback = faultFs().hang(Operation.DELETE_DIRECTORY, "**/stopped/_trino-optimize-*", 1);
        Hang failing = faultFs().hang(Operation.CREATE, "**/stopped/bucket-0/data-*", 1);
        faultFs().addRule(Rule.nth(Operation.CREATE, "**/stopped/bucket-0/data-*", 1, Action.THROW_BEFORE));
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> optimize = executor.submit(() -> getQueryRunner().execute("ALTER TABLE stopped EXECUTE optimize"));
            assertThat(compaction.awaitReached(1, TimeUnit.MINUTES)).as("the compaction of bucket 1 reached its data file").isTrue();
            assertThat(failing.awaitReached(1, TimeUnit.MINUTES)).as("the compaction of bucket 0 reached its data file").isTrue();
            failing.release();
            assertThat(rollback.awaitReached(1, TimeUnit.MINUTES)).as("the rollback reached the staging folder's removal").isTrue();
            compaction.release();
            rollback.release();
            assertThatThrownBy(() -> optimize.get(1, TimeUnit.MINUTES)).hasMessageContaining("/stopped/bucket-0/data-");
        }
        finally {
            faultFs().clearRules();
            executor.shutdownNow();
        }
        awaitQueryCleanup("stopped");
        assertThat(tableFiles("stopped")).as("neither bucket's compacted files nor fragments are left").isEqualTo(filesBefore);
        assertThat(tableRows("stopped")).isEqualTo(rowsBefore);
        assertThat(fsckViolations("stopped")).isEmpty();
    }

    // two runs in each of the table's buckets, for optimize to merge
    private void writeTwoRuns(String table)
    {
        Session withoutCompaction = withoutCompactionOnWrite();
        for (int i = 1; i <= 2; i++) {
            getQueryRunner().execute(withoutCompaction, "INSERT INTO %s SELECT k, 'v%s' FROM UNNEST(sequence(1, 8)) t(k)".formatted(table, i));
        }
    }

    /**
     * The compaction after an INSERT fails at its publish: the INSERT's own snapshot stands, so the statement
     * succeeds with its rows there once (a statement reported failed would be repeated, and a sum counted twice), and
     * the next INSERT compacts.
     */
    @Test
    void failedCompactionAfterWriteKeepsTheStatement()
    {
        assertThat(compactionTriggeringInsertWithFailedCompaction("summed")).isEqualTo(1);
        // five single-row INSERTs of k = 1 with n = 1, 2, 3, 4, 5; the fifth reached the trigger of 5 runs
        assertThat(tableRows("summed")).containsExactly("(1, 15)");
        assertThat(computeActual("SELECT count(*) FROM \"summed$files\"").getOnlyValue()).as("the runs stay uncompacted").isEqualTo(5L);
        assertThat(fsckViolations("summed")).isEmpty();

        getQueryRunner().execute("INSERT INTO summed VALUES (1, 6)");
        assertThat(tableRows("summed")).containsExactly("(1, 21)");
        assertThat(computeActual("SELECT count(*) FROM \"summed$files\"").getOnlyValue()).as("the next write compacts").isEqualTo(1L);
        assertThat(fsckViolations("summed")).isEmpty();
    }

    /**
     * On a deletion-vector table readers skip level 0, so rows whose compaction failed are committed but unseen: the
     * statement fails, naming the snapshot that holds them and {@code optimize}, which makes them visible.
     */
    @Test
    void failedCompactionAfterWriteOnDeletionVectorTableSaysRowsAreCommitted()
    {
        getQueryRunner().execute("INSERT INTO summed_dv VALUES (1, 1)");
        long committed = latestSnapshotIdOf("summed_dv") + 1;
        faultFs().addRule(Rule.nth(Operation.RENAME, "**/summed_dv/snapshot/snapshot-*", 2, Action.THROW_BEFORE));
        try {
            assertThatThrownBy(() -> getQueryRunner().execute("INSERT INTO summed_dv VALUES (1, 2)"))
                    .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_FILESYSTEM_ERROR))
                    .hasMessageContaining("Table compaction_faults.summed_dv: the statement's rows are committed (snapshot %s)".formatted(committed))
                    .hasMessageContaining("run ALTER TABLE compaction_faults.summed_dv EXECUTE optimize");
        }
        finally {
            faultFs().clearRules();
        }
        assertThat(tableRows("summed_dv")).as("level 0 is not read").containsExactly("(1, 1)");
        getQueryRunner().execute("ALTER TABLE summed_dv EXECUTE optimize");
        assertThat(tableRows("summed_dv")).containsExactly("(1, 3)");
        assertThat(fsckViolations("summed_dv")).isEmpty();
    }

    /**
     * An append table's level-0 rows are visible, deletion vectors or not: when the compaction after its fifth small
     * file fails, the INSERT succeeds with its row there once (a repeated statement would append it twice), and the
     * next INSERT compacts.
     */
    @Test
    void failedCompactionAfterWriteToAppendTableWithDeletionVectorsKeepsTheStatement()
    {
        assertThat(compactionTriggeringInsertWithFailedCompaction("appended_dv")).isEqualTo(1);
        assertThat(tableRows("appended_dv")).containsExactlyInAnyOrder("(1, 1)", "(1, 2)", "(1, 3)", "(1, 4)", "(1, 5)");
        assertThat(computeActual("SELECT count(*) FROM \"appended_dv$files\"").getOnlyValue()).as("the files stay uncompacted").isEqualTo(5L);
        assertThat(fsckViolations("appended_dv")).isEmpty();

        getQueryRunner().execute("INSERT INTO appended_dv VALUES (1, 6)");
        assertThat(tableRows("appended_dv")).containsExactlyInAnyOrder("(1, 1)", "(1, 2)", "(1, 3)", "(1, 4)", "(1, 5)", "(1, 6)");
        // Paimon's append writer compacts the oldest small files once there are compaction.min.file-num (5) of them
        assertThat(computeActual("SELECT count(*) FROM \"appended_dv$files\"").getOnlyValue()).as("the next write compacts five files into one").isEqualTo(2L);
        assertThat(fsckViolations("appended_dv")).isEmpty();
    }

    /**
     * Trino rolls a failed query's transaction back after it reports the failure: waits until no task runs and no
     * staging folder of an {@code optimize} is left (the rollback's work), at most a minute.
     */
    private void awaitQueryCleanup(String table)
    {
        awaitUntil(() -> noTaskRuns() && tableFiles(table).stream().noneMatch(file -> file.startsWith("_trino-optimize-")));
    }

    private boolean noTaskRuns()
    {
        return RunnerTasks.allDone(getQueryRunner());
    }

    private static void awaitUntil(BooleanSupplier condition)
    {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Still waiting after a minute");
            }
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
        }
    }

    /**
     * Runs INSERTs of (1, i) until the trigger, the last with its compaction's publish failing, and returns the
     * faults injected.
     */
    private long compactionTriggeringInsertWithFailedCompaction(String table)
    {
        for (int i = 1; i <= 4; i++) {
            getQueryRunner().execute("INSERT INTO %s VALUES (1, %s)".formatted(table, i));
        }
        assertThat(computeActual("SELECT count(*) FROM \"%s$files\"".formatted(table)).getOnlyValue()).isEqualTo(4L);
        long injectedBefore = faultFs().injectedFaults();
        // the INSERT's own snapshot is the first rename, the compaction's the second
        faultFs().addRule(Rule.nth(Operation.RENAME, "**/%s/snapshot/snapshot-*".formatted(table), 2, Action.THROW_BEFORE));
        try {
            getQueryRunner().execute("INSERT INTO %s VALUES (1, 5)".formatted(table));
        }
        finally {
            faultFs().clearRules();
        }
        return faultFs().injectedFaults() - injectedBefore;
    }
}
