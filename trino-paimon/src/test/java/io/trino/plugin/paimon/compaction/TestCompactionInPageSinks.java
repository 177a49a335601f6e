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

import com.google.common.collect.ImmutableMap;
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
import org.apache.paimon.table.Table;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
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
import static java.util.stream.Collectors.joining;
import static org.apache.paimon.types.DataTypes.INT;
import static org.apache.paimon.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compaction on write in the page sinks ({@code compaction_on_workers_enabled}): a write (CREATE TABLE AS too) to a
 * deletion-vector, first-row, or {@code changelog-producer} = {@code lookup} or {@code full-compaction} table has its
 * buckets compacted before the coordinator commits (the compacted files, and changelog files, exist while the commit
 * is held, and the coordinator reads no data file), and so has a write to any other primary-key table or fixed-bucket
 * append table whose bucket calls for compaction. Paimon Java reads exactly the expected rows and changelog. A rival
 * commit to the bucket between the sink's compaction and the commit makes the coordinator compact the bucket again, so
 * does one between the statement's APPEND and COMPACT snapshots, an overwrite and a compaction that failed in the
 * sink; a failed commit leaves none of the sinks' files.
 */
final class TestCompactionInPageSinks
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "sink_compaction";
    private static final List<String> CHANGELOG_PRODUCERS = List.of("lookup", "full-compaction");

    TestCompactionInPageSinks()
    {
        super(DATABASE, 31);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("dv", "raced", "aborted", "overwritten", "sink_failed")) {
            paimon.createTable(DATABASE, name, keyed().option("deletion-vectors.enabled", "true").build());
        }
        paimon.createTable(DATABASE, "first_row", keyed().option("merge-engine", "first-row").build());
        for (String producer : CHANGELOG_PRODUCERS) {
            for (String writer : List.of("sinks", "coordinator", "paimon")) {
                paimon.createTable(DATABASE, changelogTable(producer, writer), keyed().option("changelog-producer", producer).build());
            }
            paimon.createTable(DATABASE, changelogTable(producer, "ctas_paimon"), keyed().option("changelog-producer", producer).build());
        }
        paimon.createTable(DATABASE, "raced_lookup", keyed().option("changelog-producer", "lookup").build());
        paimon.createTable(DATABASE, "raced_compact", keyed().option("deletion-vectors.enabled", "true").build());
        for (String writer : List.of("sinks", "coordinator", "paimon")) {
            // a universal compaction once a bucket holds three sorted runs
            paimon.createTable(DATABASE, "plain_" + writer, keyed().option("num-sorted-run.compaction-trigger", "3").build());
            // an append compaction once a bucket holds three small files
            paimon.createTable(DATABASE, "append_" + writer, Schema.newBuilder()
                    .column("k", INT())
                    .column("v", STRING())
                    .option("bucket", "1")
                    .option("bucket-key", "k")
                    .option("compaction.min.file-num", "3")
                    .build());
        }
    }

    // a table of the changelog producer written by the writer: Trino's page sinks, Trino's coordinator, Paimon Java
    private static String changelogTable(String producer, String writer)
    {
        return producer.replace('-', '_') + "_" + writer;
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
     * {@code changelog-producer} = {@code lookup} and {@code full-compaction} tables without deletion vectors, whose
     * changelog comes from the compaction of every bucket a write reached: the sinks compact and write that changelog,
     * and Paimon Java streams the same changelog as after the coordinator's compactions and after its own writer's.
     */
    @Test
    void changelogTablesCompactInThePageSinks()
            throws Exception
    {
        List<String> statements = List.of(
                "INSERT INTO %s VALUES (1, 'a'), (2, 'b'), (3, 'c')",
                "INSERT INTO %s VALUES (1, 'a2'), (4, 'd')",
                "DELETE FROM %s WHERE k = 2");
        List<String> expectedChangelog = List.of(
                "+I(1, a)", "+I(2, b)", "+I(3, c)",
                "-U(1, a)", "+U(1, a2)", "+I(4, d)",
                "-D(2, b)");
        for (String producer : CHANGELOG_PRODUCERS) {
            String sinks = changelogTable(producer, "sinks");
            String coordinator = changelogTable(producer, "coordinator");
            for (String statement : statements) {
                // each statement's level-0 file and the file the sink compacted the bucket into, with one changelog file
                assertCompactedBeforeCommit(sinks, statement.formatted(sinks), 2, false, 1);
                getQueryRunner().execute(onCoordinator(), statement.formatted(coordinator));
            }
            Table paimonTable = paimon().getTable(DATABASE, changelogTable(producer, "paimon"));
            writeAsPaimon(paimonTable, producer, List.of(row(1, "a"), row(2, "b"), row(3, "c")));
            writeAsPaimon(paimonTable, producer, List.of(row(1, "a2"), row(4, "d")));
            writeAsPaimon(paimonTable, producer, List.of(GenericRow.ofKind(RowKind.DELETE, 2, BinaryString.fromString("b"))));

            List<String> changelog = changelog(sinks);
            assertThat(changelog).as(sinks).containsExactlyInAnyOrderElementsOf(expectedChangelog);
            assertThat(changelog).as(sinks).isEqualTo(changelog(coordinator)).isEqualTo(changelog(paimonTable.name()));
            for (String table : List.of(sinks, coordinator)) {
                assertRowsInPaimonJavaAndTrino(table, List.of("+I(1, a2)", "+I(3, c)", "+I(4, d)"));
            }
            assertThat(fsckViolations(sinks)).as(sinks).isEmpty();
            assertThat(orphanFiles(sinks)).as(sinks).isEmpty();
        }
    }

    /**
     * CREATE TABLE AS writes the new table as an INSERT into it does: its sinks compact the buckets they wrote, on
     * deletion-vector and changelog tables, and the table reads (and streams) as one written with
     * compaction on the coordinator, and a changelog table as one Paimon Java wrote.
     */
    @Test
    void createTableAsSelectCompactsInThePageSinks()
            throws Exception
    {
        String rows = "SELECT k, CAST(v AS varchar) v FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) t(k, v)";
        List<String> expected = List.of("+I(1, a)", "+I(2, b)", "+I(3, c)");
        // first-row tables take the deletion-vector tables' way (readers skip level 0)
        Map<String, String> properties = ImmutableMap.of(
                "ctas_dv", "deletion_vectors_enabled = true",
                "ctas_lookup", "changelog_producer = 'lookup'",
                "ctas_full_compaction", "changelog_producer = 'full-compaction'");
        for (Map.Entry<String, String> table : properties.entrySet()) {
            String sinks = table.getKey() + "_sinks";
            String coordinator = table.getKey() + "_coordinator";
            String create = "CREATE TABLE %s WITH (primary_key = ARRAY['k'], bucket = 1, " + table.getValue() + ") AS " + rows;
            int changelogFiles = table.getValue().startsWith("changelog") ? 1 : 0;
            // the new table has no snapshot before the statement's: its level-0 file and the file the sink compacted
            // it into; no row of a file above level 0 is superseded, so no deletion vector
            assertCompactedBeforeCommit(sinks, create.formatted(sinks), 2, false, changelogFiles);
            getQueryRunner().execute(onCoordinator(), create.formatted(coordinator));
            for (String name : List.of(sinks, coordinator)) {
                assertRowsInPaimonJavaAndTrino(name, expected);
                assertThat(computeActual("SELECT count(*) FROM \"%s$files\" WHERE level = 0".formatted(name)).getOnlyValue()).as("level-0 files of %s", name).isEqualTo(0L);
            }
            assertThat(fsckViolations(sinks)).as(sinks).isEmpty();
            if (changelogFiles > 0) {
                String producer = table.getKey().endsWith("lookup") ? "lookup" : "full-compaction";
                Table paimonTable = paimon().getTable(DATABASE, changelogTable(producer, "ctas_paimon"));
                writeAsPaimon(paimonTable, producer, List.of(row(1, "a"), row(2, "b"), row(3, "c")));
                assertThat(changelog(sinks)).as(sinks).containsExactlyElementsOf(expected)
                        .isEqualTo(changelog(coordinator))
                        .isEqualTo(changelog(paimonTable.name()));
            }
            assertThat(orphanFiles(sinks)).as(sinks).isEmpty();
        }
    }

    /**
     * A primary-key table without deletion vectors, first-row or a compaction changelog, and a fixed-bucket append
     * table: a write is compacted only when the bucket's runs (files) call for it, here at the third write. Then the
     * sink compacts the bucket, and each write leaves the bucket's files on the same levels as the coordinator's
     * compaction and Paimon Java's writer leave them.
     */
    @Test
    void writesCompactInThePageSinksWhenTheBucketCallsForIt()
            throws Exception
    {
        for (String kind : List.of("plain", "append")) {
            String sinks = kind + "_sinks";
            String coordinator = kind + "_coordinator";
            Table paimonTable = paimon().getTable(DATABASE, kind + "_paimon");
            List<List<GenericRow>> writes = List.of(
                    List.of(row(1, "a"), row(2, "b")),
                    List.of(row(1, "a2"), row(3, "c")),
                    List.of(row(2, "b3"), row(4, "d")));
            for (int i = 0; i < writes.size(); i++) {
                String values = writes.get(i).stream()
                        .map(row -> "(%s, '%s')".formatted(row.getInt(0), row.getString(1)))
                        .collect(joining(", "));
                // the statement's file, and at the third write the file the sink compacted the bucket into
                assertCompactedBeforeCommit(sinks, "INSERT INTO %s VALUES %s".formatted(sinks, values), i < 2 ? 1 : 2, false);
                getQueryRunner().execute(onCoordinator(), "INSERT INTO %s VALUES %s".formatted(coordinator, values));
                PaimonJavaCatalog.write(uncachedPaimon().getTable(DATABASE, paimonTable.name()), writes.get(i));
                List<String> levels = fileLevels(sinks);
                assertThat(levels).as("files per level of %s after write %s", sinks, i + 1)
                        .isEqualTo(fileLevels(coordinator))
                        .isEqualTo(fileLevels(paimonTable.name()));
            }
            assertThat(fileLevels(sinks)).as("one file after the compaction").hasSize(1);
            List<String> expected = kind.equals("plain")
                    ? List.of("+I(1, a2)", "+I(2, b3)", "+I(3, c)", "+I(4, d)")
                    : List.of("+I(1, a)", "+I(2, b)", "+I(1, a2)", "+I(3, c)", "+I(2, b3)", "+I(4, d)");
            assertRowsInPaimonJavaAndTrino(sinks, expected);
            assertRowsInPaimonJavaAndTrino(paimonTable.name(), expected);
            assertThat(fsckViolations(sinks)).as(sinks).isEmpty();
            assertThat(orphanFiles(sinks)).as(sinks).isEmpty();
        }
    }

    // the level of each live file of the table, ordered
    private List<String> fileLevels(String table)
    {
        return computeActual("SELECT level FROM \"%s$files\" ORDER BY level".formatted(table)).getOnlyColumn()
                .map(String::valueOf)
                .toList();
    }

    /**
     * Paimon Java writes to the bucket (and compacts it) after the statement's APPEND snapshot and before the COMPACT
     * snapshot of its sinks' compactions: that commit conflicts (the level-0 file it removes is gone), so the sinks'
     * files are deleted and the coordinator compacts again from the newest snapshot, where Paimon's compaction left
     * nothing to do. Paimon's rows are newer, and win.
     */
    @Test
    void sinkCompactionsLosingTheRaceToTheirCommitAreDoneAgain()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO raced_compact VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        long before = (long) computeActual("SELECT max(snapshot_id) FROM \"raced_compact$snapshots\"").getOnlyValue();
        // the first snapshot the statement publishes is its APPEND, the second its sinks' COMPACT
        Hang hang = faultFs().hang(Operation.CREATE_EXCLUSIVE, "**/raced_compact/snapshot/snapshot-*", 2);
        runHeld(hang, onWorkers(), "INSERT INTO raced_compact VALUES (1, 'a2'), (4, 'd')", () -> PaimonJavaCatalog.write(
                uncachedPaimon().getTable(DATABASE, "raced_compact"),
                List.of(row(1, "a3"), row(5, "e"))));
        assertThat(computeActual("SELECT commit_kind FROM \"raced_compact$snapshots\" WHERE snapshot_id > %s ORDER BY snapshot_id".formatted(before)).getOnlyColumn().toList())
                .as("the statement's APPEND, then Paimon Java's APPEND and COMPACT; the sinks' COMPACT did not land")
                .containsExactly("APPEND", "APPEND", "COMPACT");
        assertRowsInPaimonJavaAndTrino("raced_compact", List.of("+I(1, a3)", "+I(2, b)", "+I(3, c)", "+I(4, d)", "+I(5, e)"));
        assertThat(computeActual("SELECT DISTINCT level FROM \"raced_compact$files\"").getOnlyColumnAsSet()).as("no level-0 file is left").doesNotContain(0);
        assertThat(fsckViolations("raced_compact")).isEmpty();
        assertThat(orphanFiles("raced_compact")).as("the sinks' compacted files are deleted").isEmpty();
    }

    // Paimon Java's batch writer: its lookup compaction writes the changelog; a full compaction after each write, as Flink's at the end of a batch
    private void writeAsPaimon(Table table, String producer, List<GenericRow> rows)
    {
        PaimonJavaCatalog.write(table, rows);
        if (producer.equals("full-compaction")) {
            PaimonJavaCatalog.compact(uncachedPaimon().getTable(DATABASE, table.name()), root(), 1, _ -> true);
        }
    }

    private List<String> changelog(String table)
    {
        return PaimonJavaCatalog.readChangelog(uncachedPaimon().getTable(DATABASE, table));
    }

    private static GenericRow row(int key, String value)
    {
        return GenericRow.of(key, BinaryString.fromString(value));
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

    /**
     * The same race on a {@code changelog-producer} = {@code lookup} table: Paimon Java's commit compacts its own
     * level-0 file with its changelog, the sink's compaction and changelog are discarded, and the coordinator's
     * compaction of the statement's level-0 file writes the statement's changelog, each key's change once.
     */
    @Test
    void rivalCommitToAChangelogTableMakesTheCoordinatorCompact()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO raced_lookup VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        runHeld("raced_lookup", "INSERT INTO raced_lookup VALUES (1, 'a2'), (4, 'd')", _ -> PaimonJavaCatalog.write(
                uncachedPaimon().getTable(DATABASE, "raced_lookup"),
                List.of(row(2, "b2"), row(5, "e"))));
        assertRowsInPaimonJavaAndTrino("raced_lookup", List.of("+I(1, a2)", "+I(2, b2)", "+I(3, c)", "+I(4, d)", "+I(5, e)"));
        assertThat(changelog("raced_lookup")).containsExactlyInAnyOrder(
                "+I(1, a)", "+I(2, b)", "+I(3, c)",
                "-U(2, b)", "+U(2, b2)", "+I(5, e)",
                "-U(1, a)", "+U(1, a2)", "+I(4, d)");
        assertThat(computeActual("SELECT DISTINCT level FROM \"raced_lookup$files\"").getOnlyColumnAsSet()).as("no level-0 file is left").doesNotContain(0);
        assertThat(fsckViolations("raced_lookup")).isEmpty();
        assertThat(orphanFiles("raced_lookup")).isEmpty();
    }

    /**
     * An overwrite's commit replaces the files a sink would compact, so its sinks do not compact, the property on or
     * not: when its commit is held, the bucket holds only the statement's level-0 file, and the coordinator compacts
     * it after the commit, leaving no level-0 file and the rows visible.
     */
    @Test
    void overwriteIsCompactedByTheCoordinator()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO overwritten VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        Set<String> before = tableFiles("overwritten");
        Session overwrite = Session.builder(onWorkers())
                .setCatalogSessionProperty(CATALOG, "insert_existing_partitions_behavior", "OVERWRITE")
                .build();
        runHeld("overwritten", overwrite, "INSERT INTO overwritten VALUES (1, 'a2'), (4, 'd')", held ->
                assertThat(held.stream().filter(file -> !before.contains(file) && file.startsWith("bucket-0/data-")))
                        .as("the statement's level-0 file alone, no compacted file")
                        .hasSize(1));
        assertRowsInPaimonJavaAndTrino("overwritten", List.of("+I(1, a2)", "+I(4, d)"));
        assertThat(computeActual("SELECT DISTINCT level FROM \"overwritten$files\"").getOnlyColumnAsSet()).as("no level-0 file is left").doesNotContain(0);
        assertThat(fsckViolations("overwritten")).isEmpty();
    }

    /**
     * The page sink's compaction fails where it creates its first file (the statement's own level-0 file is already
     * written): the statement's files are committed as written, and the coordinator compacts the bucket after the
     * commit, so the statement succeeds with its rows visible and no level-0 file left.
     */
    @Test
    void failedSinkCompactionIsDoneByTheCoordinator()
            throws Exception
    {
        assertUpdate(onWorkers(), "INSERT INTO sink_failed VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        // the statement's level-0 file is the first data file it creates, the sink's compacted file the second
        faultFs().addRule(Rule.nth(Operation.CREATE, "**/sink_failed/bucket-0/data-*", 2, Action.THROW_BEFORE));
        try {
            assertUpdate(onWorkers(), "INSERT INTO sink_failed VALUES (1, 'a2'), (4, 'd')", 2);
        }
        finally {
            faultFs().clearRules();
        }
        assertRowsInPaimonJavaAndTrino("sink_failed", List.of("+I(1, a2)", "+I(2, b)", "+I(3, c)", "+I(4, d)"));
        assertThat(computeActual("SELECT DISTINCT level FROM \"sink_failed$files\"").getOnlyColumnAsSet()).as("no level-0 file is left").doesNotContain(0);
        assertThat(fsckViolations("sink_failed")).isEmpty();
        assertThat(orphanFiles("sink_failed")).isEmpty();
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
        assertCompactedBeforeCommit(table, write, dataFiles, deletionVectors, 0);
    }

    /**
     * @param changelogFiles the changelog files the sink's compaction writes to the bucket
     */
    private void assertCompactedBeforeCommit(String table, String write, int dataFiles, boolean deletionVectors, int changelogFiles)
            throws Exception
    {
        // a CREATE TABLE AS creates the table
        Set<String> before = getQueryRunner().tableExists(getSession(), table) ? tableFiles(table) : Set.of();
        runHeld(table, write, held -> {
            Set<String> added = held.stream().filter(file -> !before.contains(file)).collect(toImmutableSet());
            assertThat(added.stream().filter(file -> file.startsWith("bucket-0/data-"))).as("level-0 and compacted files of %s", write).hasSize(dataFiles);
            assertThat(added.stream().filter(file -> file.startsWith("bucket-0/changelog-"))).as("changelog files of %s", write).hasSize(changelogFiles);
            assertThat(added.stream().anyMatch(file -> file.startsWith("index/"))).as("new deletion vectors of %s", write).isEqualTo(deletionVectors);
            faultFs().resetReads();
        });
        assertThat(faultFs().reads().elementSet().stream().map(Location::toString).filter(path -> path.contains("/data-")))
                .as("data files the coordinator read for %s", write)
                .isEmpty();
    }

    private void runHeld(String table, String write, Consumer<Set<String>> meanwhile)
            throws Exception
    {
        runHeld(table, onWorkers(), write, meanwhile);
    }

    /** Runs the write until its commit writes its first manifest, calls {@code meanwhile} with the table's files then, and lets it finish. */
    private void runHeld(String table, Session session, String write, Consumer<Set<String>> meanwhile)
            throws Exception
    {
        Hang hang = faultFs().hang(Operation.CREATE_OR_OVERWRITE, "**/%s/manifest/manifest-*".formatted(table), 1);
        runHeld(hang, session, write, () -> meanwhile.accept(tableFiles(table)));
    }

    /** Runs the write until the hang holds it, calls {@code meanwhile}, and lets it finish. */
    private void runHeld(Hang hang, Session session, String write, Runnable meanwhile)
            throws Exception
    {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> held = executor.submit(() -> getQueryRunner().execute(session, write));
            hang.awaitReached();
            try {
                meanwhile.run();
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

    private Session onCoordinator()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "false")
                .build();
    }
}
