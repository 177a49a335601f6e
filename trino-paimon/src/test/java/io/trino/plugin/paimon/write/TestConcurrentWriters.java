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
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.testing.DistributedQueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static io.trino.plugin.paimon.testing.ConcurrentSessions.runSessions;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Concurrent writers to one primary-key table, with compaction on write as configured by default: a rival commit to
 * a bucket a statement wrote is a conflict only when it wrote one of the statement's keys, so writers of distinct keys
 * all land without a retry, and writers of shared keys land or fail with {@code TRANSACTION_CONFLICT}, the table
 * holding for each key the value of the last committed statement. The same holds with Paimon Java committing beside
 * Trino.
 * <p>
 * Size: {@code -Dpaimon.test.writers=N} (default 4) sessions each run {@code -Dpaimon.test.statements=M} (default 15)
 * statements; the figures in the benchmarks' RESULTS.md are of 8 × 50.
 */
final class TestConcurrentWriters
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "concurrency";
    private static final int WRITERS = Integer.getInteger("paimon.test.writers", 4);
    private static final int STATEMENTS = Integer.getInteger("paimon.test.statements", 15);
    private static final int ROWS_PER_STATEMENT = 5;

    TestConcurrentWriters()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String table : List.of("distinct_keys", "shared_keys")) {
            paimon.createTable(DATABASE, table, writerTable(4).build());
        }
        for (String name : List.of("deletion_vectors", "deletion_vectors_coordinator")) {
            paimon.createTable(DATABASE, name, writerTable(4).option("deletion-vectors.enabled", "true").build());
        }
        paimon.createTable(DATABASE, "no_retries", writerTable(4).option("commit.max-retries", "0").build());
        for (String table : List.of("beside_disjoint", "beside_shared")) {
            paimon.createTable(DATABASE, table, writerTable(1).build());
        }
    }

    // the tables the writers race on: an INT key and a STRING value
    private static Schema.Builder writerTable(int buckets)
    {
        return Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", String.valueOf(buckets));
    }

    @AfterEach
    void noFaultsLeft()
    {
        faultFs().clearRules();
    }

    /**
     * Writers inserting distinct keys into the same buckets all land, none retried: the keys interleave, so the
     * files' key ranges overlap and the keys themselves are compared. Every row is there once, as Paimon Java reads it.
     */
    @Test
    void writersOfDistinctKeysAllLand()
            throws Exception
    {
        writersOfDistinctKeysAllLand("distinct_keys");
    }

    /**
     * The statements of one Trino cluster queue for the table's next snapshot id on its coordinator instead of
     * racing for it: with {@code commit.max-retries = 0}, where any lost race fails the statement, every statement
     * lands.
     */
    @Test
    void writersOfOneClusterNeverRaceEachOther()
            throws Exception
    {
        writersOfDistinctKeysAllLand("no_retries");
    }

    private void writersOfDistinctKeysAllLand(String table)
            throws Exception
    {
        AtomicInteger failed = new AtomicInteger();
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        List<List<String>> written = runSessions(WRITERS, writer -> {
            List<String> rows = new ArrayList<>();
            for (int statement = 0; statement < STATEMENTS; statement++) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < ROWS_PER_STATEMENT; i++) {
                    int key = (statement * ROWS_PER_STATEMENT + i) * WRITERS + writer;
                    values.add("(%s, 'w%s-%s')".formatted(key, writer, statement));
                    rows.add("(%s, w%s-%s)".formatted(key, writer, statement));
                }
                try {
                    getQueryRunner().execute("INSERT INTO " + table + " VALUES " + String.join(", ", values));
                }
                catch (RuntimeException e) {
                    failed.incrementAndGet();
                    synchronized (failures) {
                        failures.add(e.getMessage());
                    }
                }
            }
            return rows;
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.println("%s: %s writers x %s statements in %.1f s, %.2f statements/s, %s failed".formatted(
                table, WRITERS, STATEMENTS, seconds, WRITERS * STATEMENTS / seconds, failed.get()));

        assertThat(failures).as("statements that failed").isEmpty();
        assertThat(appendSnapshots(table, 0)).as("one APPEND snapshot per statement").hasSize(WRITERS * STATEMENTS);
        List<String> expected = written.stream().flatMap(List::stream).sorted().toList();
        assertThat(tableRows(table)).isEqualTo(expected);
        assertThat(fsckViolations(table)).isEmpty();
    }

    /**
     * On a deletion-vector table, whose readers skip level 0, every statement's rows are visible once it returns, also
     * when another writer's commit made its page sinks' compactions stale or its compaction on write raced another
     * writer's: writers of distinct keys all land and every row reads back.
     */
    @Test
    void writersOfDistinctKeysToDeletionVectorTableAllVisible()
            throws Exception
    {
        writersOfDistinctKeysAllVisible("deletion_vectors", getSession());
    }

    /**
     * The same with compaction in the page sinks off: the coordinator compacts after each commit, and a compaction
     * that lost its race to another writer's is done again from the newest snapshot.
     */
    @Test
    void writersOfDistinctKeysToDeletionVectorTableAllVisibleWhenTheCoordinatorCompacts()
            throws Exception
    {
        writersOfDistinctKeysAllVisible("deletion_vectors_coordinator", Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "false")
                .build());
    }

    private void writersOfDistinctKeysAllVisible(String table, Session session)
            throws Exception
    {
        List<String> failures = new ArrayList<>();
        List<String> invisible = new ArrayList<>();
        List<List<String>> written = runSessions(WRITERS, writer -> {
            List<String> rows = new ArrayList<>();
            for (int statement = 0; statement < STATEMENTS; statement++) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < ROWS_PER_STATEMENT; i++) {
                    int key = (statement * ROWS_PER_STATEMENT + i) * WRITERS + writer;
                    values.add("(%s, 'w%s-%s')".formatted(key, writer, statement));
                    rows.add("(%s, w%s-%s)".formatted(key, writer, statement));
                }
                try {
                    getQueryRunner().execute(session, "INSERT INTO %s VALUES %s".formatted(table, String.join(", ", values)));
                }
                catch (RuntimeException e) {
                    synchronized (failures) {
                        failures.add(e.getMessage());
                    }
                    continue;
                }
                List<Integer> keys = new ArrayList<>();
                for (int i = 0; i < ROWS_PER_STATEMENT; i++) {
                    keys.add((statement * ROWS_PER_STATEMENT + i) * WRITERS + writer);
                }
                long visible = (Long) computeActual("SELECT count(*) FROM %s WHERE v = 'w%s-%s'".formatted(table, writer, statement)).getOnlyValue();
                if (visible != ROWS_PER_STATEMENT) {
                    synchronized (invisible) {
                        invisible.add("w%s-%s: %s of keys %s visible".formatted(writer, statement, visible, keys));
                    }
                }
            }
            return rows;
        });
        assertThat(failures).as("statements that failed").isEmpty();
        assertThat(invisible).as("statements whose rows were not all visible once they returned").isEmpty();
        List<String> expected = written.stream().flatMap(List::stream).sorted().toList();
        assertThat(tableRows(table)).isEqualTo(expected);
        assertThat(fsckViolations(table)).isEmpty();
    }

    /**
     * Writers upserting keys from one small set: each statement lands or fails with {@code TRANSACTION_CONFLICT}, and
     * every key ends with the value of the last statement that committed it, in the order of the table's snapshots.
     */
    @Test
    void writersOfSharedKeysEndWithTheLastCommittedValue()
            throws Exception
    {
        long before = latestSnapshotIdOf("shared_keys");
        Map<String, Map<Integer, String>> landed = new ConcurrentHashMap<>();
        List<String> unexpected = new ArrayList<>();
        List<Integer> conflicts = runSessions(WRITERS, writer -> {
            Random random = new Random(seed() * 31 + writer);
            int conflicted = 0;
            for (int statement = 0; statement < STATEMENTS; statement++) {
                Map<Integer, String> rows = new TreeMap<>();
                while (rows.size() < ROWS_PER_STATEMENT) {
                    rows.put(random.nextInt(40), "w%s-%s".formatted(writer, statement));
                }
                String sql = "INSERT INTO shared_keys VALUES " + rows.entrySet().stream()
                        .map(row -> "(%s, '%s')".formatted(row.getKey(), row.getValue()))
                        .collect(Collectors.joining(", "));
                try {
                    landed.put(((DistributedQueryRunner) getQueryRunner()).executeWithPlan(getSession(), sql).queryId().toString(), rows);
                }
                catch (RuntimeException e) {
                    try {
                        assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
                        assertThat(e).hasMessageContaining("conflicts with a concurrent commit");
                        conflicted++;
                    }
                    catch (AssertionError notAConflict) {
                        synchronized (unexpected) {
                            unexpected.add(sql + " failed with " + e);
                        }
                    }
                }
            }
            return conflicted;
        });
        assertThat(unexpected).isEmpty();

        // replay the landed statements in the order of their APPEND snapshots, as $snapshots lists them
        List<Long> appends = computeActual("SELECT snapshot_id FROM \"shared_keys$snapshots\" WHERE commit_kind = 'APPEND' AND snapshot_id > %s ORDER BY snapshot_id".formatted(before))
                .getMaterializedRows().stream()
                .map(row -> (Long) row.getField(0))
                .toList();
        assertThat(appends).isEqualTo(appendSnapshots("shared_keys", before).stream().map(Snapshot::id).toList());
        assertThat(appends).as("one APPEND snapshot per landed statement").hasSize(landed.size());
        SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(root()), tableLocation("shared_keys"));
        Map<Integer, String> replay = new TreeMap<>();
        for (long id : appends) {
            String queryId = snapshots.readSnapshot(id).properties().orElseThrow().get("trino.query-id");
            Map<Integer, String> rows = landed.remove(queryId);
            assertThat(rows).as("snapshot %s is of a statement that landed, once: %s", id, queryId).isNotNull();
            replay.putAll(rows);
        }
        assertThat(landed).as("landed statements without a snapshot").isEmpty();
        List<String> expected = replay.entrySet().stream().map(row -> "(%s, %s)".formatted(row.getKey(), row.getValue())).sorted().toList();
        assertThat(tableRows("shared_keys")).isEqualTo(expected);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "shared_keys"))).as("Paimon Java").isEqualTo(expected);
        assertThat(fsckViolations("shared_keys")).isEmpty();
        System.out.println("shared keys: %s landed, %s conflicts".formatted(appends.size(), conflicts.stream().mapToInt(Integer::intValue).sum()));
    }

    /**
     * Paimon Java commits other keys to the bucket while a Trino INSERT is writing: the INSERT lands on top, and both
     * read every row once.
     */
    @Test
    void paimonJavaCommitOfOtherKeysBesideTrinoLetsTheInsertLand()
            throws Exception
    {
        getQueryRunner().execute("INSERT INTO beside_disjoint VALUES (1, 'trino-1'), (3, 'trino-1'), (5, 'trino-1')");
        Runnable paimonJava = () -> PaimonJavaCatalog.write(uncachedPaimon().getTable(DATABASE, "beside_disjoint"),
                List.of(row(2, "paimon"), row(4, "paimon"), row(6, "paimon")));
        insertWhilePaimonJavaCommits("beside_disjoint", "INSERT INTO beside_disjoint VALUES (3, 'trino-2'), (7, 'trino-2')", paimonJava).get();

        List<String> expected = List.of("(1, trino-1)", "(2, paimon)", "(3, trino-2)", "(4, paimon)", "(5, trino-1)", "(6, paimon)", "(7, trino-2)");
        assertThat(tableRows("beside_disjoint")).isEqualTo(expected);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "beside_disjoint"))).as("Paimon Java").isEqualTo(expected);
        assertThat(fsckViolations("beside_disjoint")).isEmpty();
    }

    /**
     * Paimon Java commits a key a running Trino INSERT also writes: the INSERT fails with {@code TRANSACTION_CONFLICT},
     * its files removed, and the table holds Paimon Java's value, for Trino and for Paimon Java.
     */
    @Test
    void paimonJavaCommitOfTheSameKeyBesideTrinoIsAConflict()
            throws Exception
    {
        getQueryRunner().execute("INSERT INTO beside_shared VALUES (1, 'trino-1'), (2, 'trino-1')");
        Runnable paimonJava = () -> PaimonJavaCatalog.write(uncachedPaimon().getTable(DATABASE, "beside_shared"),
                List.of(row(2, "paimon"), row(3, "paimon")));
        Set<String> filesBefore = tableFiles("beside_shared");
        Future<?> insert = insertWhilePaimonJavaCommits("beside_shared", "INSERT INTO beside_shared VALUES (2, 'trino-2'), (4, 'trino-2')", paimonJava);
        assertThatThrownBy(insert::get).satisfies(e -> assertThatTrinoException(e.getCause()).hasErrorCode(TRANSACTION_CONFLICT));

        List<String> expected = List.of("(1, trino-1)", "(2, paimon)", "(3, paimon)");
        assertThat(tableRows("beside_shared")).isEqualTo(expected);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "beside_shared"))).as("Paimon Java").isEqualTo(expected);
        assertThat(fsckViolations("beside_shared")).isEmpty();
        // the INSERT's data file is removed: every data file written meanwhile is Paimon Java's, and live
        Set<String> liveFiles = computeActual("SELECT file_path FROM \"beside_shared$files\"").getOnlyColumnAsSet().stream()
                .map(path -> ((String) path).substring(((String) path).indexOf("bucket-")))
                .collect(Collectors.toSet());
        assertThat(tableFiles("beside_shared").stream().filter(file -> !filesBefore.contains(file) && file.contains("/data-")).toList())
                .hasSize(1)
                .allSatisfy(file -> assertThat(liveFiles).contains(file));
    }

    /**
     * Runs the INSERT, holding it while it creates its data file (after it read the table) until Paimon Java has
     * committed; returns the INSERT's outcome.
     */
    private Future<?> insertWhilePaimonJavaCommits(String table, String sql, Runnable paimonJava)
            throws InterruptedException
    {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Hang hang = faultFs().hang(Operation.CREATE, "**/%s/bucket-*/data-*".formatted(table), 1);
            Future<?> insert = executor.submit(() -> getQueryRunner().execute(sql));
            hang.awaitReached();
            try {
                paimonJava.run();
            }
            finally {
                hang.release();
            }
            while (!insert.isDone()) {
                Thread.sleep(10);
            }
            return insert;
        }
        finally {
            executor.shutdownNow();
        }
    }

    private List<Snapshot> appendSnapshots(String table, long after)
    {
        SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(root()), tableLocation(table));
        List<Snapshot> appends = new ArrayList<>();
        for (long id = after + 1; id <= latestSnapshotIdOf(table); id++) {
            Snapshot snapshot = snapshots.readSnapshot(id);
            if (snapshot.commitKind() == CommitKind.APPEND) {
                appends.add(snapshot);
            }
        }
        return appends;
    }

    private static GenericRow row(int key, String value)
    {
        return GenericRow.of(key, BinaryString.fromString(value));
    }
}
