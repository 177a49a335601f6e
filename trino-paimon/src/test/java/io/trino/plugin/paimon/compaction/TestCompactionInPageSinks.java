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
package io.trino.plugin.paimon.compaction;

import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static java.util.concurrent.TimeUnit.DAYS;
import static org.apache.paimon.types.DataTypes.INT;
import static org.apache.paimon.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compaction on write in the page sinks ({@code compaction_on_workers_enabled}): a write to a deletion-vector or
 * first-row table has its buckets compacted before the coordinator commits (the compacted files exist while the commit
 * is held, and the coordinator reads no data file), Paimon Java reads exactly the expected rows, a rival commit to the
 * bucket between the sink's compaction and the commit makes the coordinator compact the bucket again, and a failed
 * commit leaves none of the sinks' files.
 */
final class TestCompactionInPageSinks
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "sink_compaction";

    TestCompactionInPageSinks()
    {
        super(DATABASE, 31);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("dv", "raced", "aborted")) {
            paimon.createTable(DATABASE, name, keyed().option("deletion-vectors.enabled", "true").build());
        }
        paimon.createTable(DATABASE, "first_row", keyed().option("merge-engine", "first-row").build());
    }

    // one bucket: the files a write adds to it can be counted
    private static Schema.Builder keyed()
    {
        return Schema.newBuilder()
                .column("k", INT().notNull())
                .column("v", STRING())
                .primaryKey("k")
                .option("bucket", "1");
    }

    @AfterEach
    void clearFaults()
    {
        clearFaultsAndAssertNoStreamsOpen();
    }

    @Test
    void insertAndMergeIntoDeletionVectorTableCompactInThePageSinks()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO dv VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        assertCompactedBeforeCommit("dv", "INSERT INTO dv VALUES (1, 'a2'), (4, 'd')", 2, true);
        assertRowsInPaimonJavaAndTrino("dv", List.of("+I(1, a2)", "+I(2, b)", "+I(3, c)", "+I(4, d)"));

        assertCompactedBeforeCommit("dv", "MERGE INTO dv t USING (VALUES (2, 'b3'), (5, 'e')) s(k, v) ON t.k = s.k " +
                "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", 2, true);
        // the compaction of a lone delete writes no data file: the retraction is dropped, its row marked deleted
        assertCompactedBeforeCommit("dv", "DELETE FROM dv WHERE k = 3", 1, true);
        assertRowsInPaimonJavaAndTrino("dv", List.of("+I(1, a2)", "+I(2, b3)", "+I(4, d)", "+I(5, e)"));
        assertThat(fsckViolations("dv")).isEmpty();
        assertThat(orphanFiles("dv")).isEmpty();
    }

    @Test
    void insertIntoFirstRowTableCompactsInThePageSinks()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO first_row VALUES (1, 'a'), (2, 'b')", 2);
        // a first-row compaction drops the newer record of a key it finds, and marks nothing
        assertCompactedBeforeCommit("first_row", "INSERT INTO first_row VALUES (1, 'a2'), (3, 'c')", 2, false);
        assertRowsInPaimonJavaAndTrino("first_row", List.of("+I(1, a)", "+I(2, b)", "+I(3, c)"));
        assertThat(fsckViolations("first_row")).isEmpty();
        assertThat(orphanFiles("first_row")).isEmpty();
    }

    /**
     * Paimon Java commits to the bucket after the page sink compacted it and before the statement commits: the
     * statement's commit lands on top (other keys), the sink's compaction no longer covers the bucket's files, so the
     * coordinator compacts the bucket itself. No row is lost (Paimon Java's level-0 run is compacted too) and none
     * doubled (its deletion vectors are kept); the sink's compacted files are removed.
     */
    @Test
    void rivalCommitBeforeTheCommitMakesTheCoordinatorCompact()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO raced VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        runHeld("raced", "INSERT INTO raced VALUES (1, 'a2'), (4, 'd')", _ -> PaimonJavaCatalog.write(
                uncachedPaimon().getTable(DATABASE, "raced"),
                List.of(GenericRow.of(2, BinaryString.fromString("b2")), GenericRow.of(5, BinaryString.fromString("e")))));
        assertRowsInPaimonJavaAndTrino("raced", List.of("+I(1, a2)", "+I(2, b2)", "+I(3, c)", "+I(4, d)", "+I(5, e)"));
        assertThat(computeActual("SELECT DISTINCT level FROM \"raced$files\"").getOnlyColumnAsSet()).as("no level-0 file is left").doesNotContain(0);
        assertThat(fsckViolations("raced")).isEmpty();
        assertThat(orphanFiles("raced")).isEmpty();
    }

    /** A statement whose commit fails leaves neither its data files nor the files its sinks compacted into. */
    @Test
    void failedCommitLeavesNoCompactedFiles()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO aborted VALUES (1, 'a'), (2, 'b')", 2);
        Set<String> filesBefore = tableFiles("aborted");
        faultFs().addRule(Rule.nth(Operation.RENAME, "**/aborted/snapshot/snapshot-*", 1, Action.THROW_BEFORE));
        assertThatThrownBy(() -> getQueryRunner().execute(onWorkers(), "INSERT INTO aborted VALUES (1, 'a2'), (3, 'c')"))
                .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_FILESYSTEM_ERROR));
        faultFs().clearRules();
        assertThat(tableFiles("aborted")).isEqualTo(filesBefore);
        assertThat(orphanFiles("aborted")).isEmpty();
        assertRowsInPaimonJavaAndTrino("aborted", List.of("+I(1, a)", "+I(2, b)"));
    }

    /**
     * Runs the write with its commit held at its first manifest: by then its page sinks are done, and the bucket's new
     * files are its level-0 run and, compacted, the run it moved up to; a deletion-vector table also has a new index
     * file. From there until the statement ends, the coordinator reads no data file.
     *
     * @param dataFiles the data files the write and its compaction add to the bucket
     */
    private void assertCompactedBeforeCommit(String table, String write, int dataFiles, boolean deletionVectors)
            throws Exception
    {
        Set<String> before = tableFiles(table);
        runHeld(table, write, held -> {
            Set<String> added = held.stream().filter(file -> !before.contains(file)).collect(toImmutableSet());
            assertThat(added.stream().filter(file -> file.startsWith("bucket-0/data-"))).as("level-0 and compacted files of %s", write).hasSize(dataFiles);
            assertThat(added.stream().anyMatch(file -> file.startsWith("index/"))).as("new deletion vectors of %s", write).isEqualTo(deletionVectors);
            faultFs().resetReads();
        });
        assertThat(faultFs().reads().elementSet().stream().map(Location::toString).filter(path -> path.contains("/data-")))
                .as("data files the coordinator read for %s", write)
                .isEmpty();
    }

    /** Runs the write until its commit writes its first manifest, calls {@code meanwhile} with the table's files then, and lets it finish. */
    private void runHeld(String table, String write, Consumer<Set<String>> meanwhile)
            throws Exception
    {
        Hang hang = faultFs().hang(Operation.CREATE_OR_OVERWRITE, "**/%s/manifest/manifest-*".formatted(table), 1);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> held = executor.submit(() -> getQueryRunner().execute(onWorkers(), write));
            hang.awaitReached();
            try {
                meanwhile.accept(tableFiles(table));
            }
            finally {
                hang.release();
            }
            held.get();
        }
        finally {
            faultFs().clearRules();
            executor.shutdownNow();
        }
    }

    private List<String> orphanFiles(String table)
            throws Exception
    {
        long future = System.currentTimeMillis() + DAYS.toMillis(1);
        return new LocalOrphanFilesClean((FileStoreTable) uncachedPaimon().getTable(DATABASE, table), future, true).clean().getDeletedFilesPath().stream()
                .map(Object::toString)
                .toList();
    }

    private Session onWorkers()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "true")
                .build();
    }
}
