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
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.CommitFault;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability of UPDATE, DELETE and MERGE, and of writes that read the table they write (reliability.md T5, T6, T9):
 * readers racing a stream of commits see one whole snapshot each; concurrent read-dependent INSERTs land or fail with
 * {@code TRANSACTION_CONFLICT} so that the table is a serial replay of the ones that landed; a file system failure at
 * each commit step of an UPDATE, DELETE or MERGE leaves the table as it was, or, once the snapshot is published, with
 * the change made once. The catalog reads and writes through a {@link FaultFs}.
 * <p>
 * Size: {@code -Dpaimon.test.transfers=N} transfer statements in T9 (default 40); the seed is printed and can be
 * fixed with {@code -Dpaimon.test.seed=S}.
 */
final class TestRowChangeReliability
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "row_changes";
    private static final int TRANSFERS = Integer.getInteger("paimon.test.transfers", 40);
    private static final long TOTAL = 1_000_000;
    private static final int ACCOUNTS = 10;
    private static final int READERS = 3;
    private static final int WRITERS = 3;
    private static final int ROUNDS = 5;

    TestRowChangeReliability()
    {
        super(DATABASE);
    }

    /**
     * Every statement here runs without compaction on write: the tests count one snapshot per landed statement and
     * inject faults at the steps of its one commit (compaction on write is tested in {@code TestCompactionOnWrite}).
     */
    @Override
    protected Session getSession()
    {
        return Session.builder(super.getSession()).setCatalogSessionProperty("paimon", "compaction_on_write_enabled", "false").build();
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createTable(DATABASE, "accounts", Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .build());
        for (String name : List.of("counted", "counted_pinned")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("k", DataTypes.BIGINT().notNull())
                    .column("writer", DataTypes.STRING())
                    .primaryKey("k")
                    .option("bucket", "1")
                    .build());
        }
        paimon.createTable(DATABASE, "faults", partitionedTableSchema());
    }

    @AfterEach
    void noFaultsLeftNoStreamsOpen()
    {
        clearFaultsAndAssertNoStreamsOpen();
    }

    /**
     * T9: a writer moves amounts between accounts of different partitions with MERGE and adds zero-sum pairs of
     * accounts with INSERT, so every snapshot holds the same total; readers querying the latest snapshot never see
     * another total nor fewer accounts than before, and a query of one pinned snapshot always returns the same.
     */
    @Test
    void readersNeverSeeTornState()
            throws Exception
    {
        StringBuilder accounts = new StringBuilder();
        for (int id = 0; id < ACCOUNTS; id++) {
            accounts.append(id == 0 ? "" : ", ").append("('p%s', %s, %s)".formatted(id % 2, id, TOTAL / ACCOUNTS));
        }
        assertUpdate("INSERT INTO accounts VALUES " + accounts, ACCOUNTS);
        long pinned = latestSnapshotIdOf("accounts");
        String pinnedQuery = "SELECT count(*), sum(v) FROM accounts FOR VERSION AS OF " + pinned;
        List<Object> pinnedResult = computeActual(pinnedQuery).getMaterializedRows().getFirst().getFields();
        assertThat(pinnedResult).containsExactly((long) ACCOUNTS, TOTAL);

        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        ExecutorService executor = Executors.newFixedThreadPool(READERS + 1);
        try {
            List<Future<?>> readers = new ArrayList<>();
            for (int reader = 0; reader < READERS; reader++) {
                readers.add(executor.submit(() -> {
                    long lastCount = 0;
                    // at least one read after the writer finished, so that every reader sees the end too
                    boolean last = false;
                    while (!last) {
                        last = !writing.get();
                        MaterializedRow latest = computeActual("SELECT count(*), sum(v) FROM accounts").getMaterializedRows().getFirst();
                        long count = (long) latest.getField(0);
                        if (!latest.getField(1).equals(TOTAL)) {
                            violations.add("a read of the latest snapshot returned %s accounts holding %s".formatted(count, latest.getField(1)));
                        }
                        if (count < lastCount) {
                            violations.add("a read returned %s accounts after one returned %s".formatted(count, lastCount));
                        }
                        lastCount = count;
                        List<Object> again = computeActual(pinnedQuery).getMaterializedRows().getFirst().getFields();
                        if (!again.equals(pinnedResult)) {
                            violations.add("snapshot %s read as %s, first as %s".formatted(pinned, again, pinnedResult));
                        }
                        reads.addAndGet(2);
                    }
                    return null;
                }));
            }
            Future<?> writer = executor.submit(() -> {
                try {
                    Random random = new Random(seed());
                    int nextAccount = ACCOUNTS;
                    for (int transfer = 0; transfer < TRANSFERS; transfer++) {
                        if (transfer % 5 == 4) {
                            // a zero-sum pair of new accounts, one in each partition
                            getQueryRunner().execute(getSession(), "INSERT INTO accounts VALUES ('p0', %1$s, %3$s), ('p1', %2$s, -%3$s)".formatted(nextAccount, nextAccount + 1, 1 + random.nextInt(1000)));
                            nextAccount += 2;
                            continue;
                        }
                        int from = 2 * random.nextInt(ACCOUNTS / 2);
                        int to = 2 * random.nextInt(ACCOUNTS / 2) + 1;
                        long amount = 1 + random.nextInt(5_000);
                        getQueryRunner().execute(getSession(), """
                                MERGE INTO accounts a USING (VALUES ('p0', %s, -%3$s), ('p1', %s, %3$s)) s(dt, id, delta)
                                ON a.dt = s.dt AND a.id = s.id
                                WHEN MATCHED THEN UPDATE SET v = v + s.delta""".formatted(from, to, amount));
                    }
                }
                finally {
                    writing.set(false);
                }
                return null;
            });
            writer.get();
            for (Future<?> reader : readers) {
                reader.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(violations).isEmpty();
        assertThat(latestSnapshotIdOf("accounts")).isEqualTo(pinned + TRANSFERS);
        assertThat(computeActual("SELECT count(*), sum(v) FROM accounts").getMaterializedRows().getFirst().getFields())
                .containsExactly((long) ACCOUNTS + 2L * (TRANSFERS / 5), TOTAL);
        assertThat(fsckViolations("accounts")).isEmpty();
        System.out.printf("T9: %s commits, %s reads%n", TRANSFERS, reads.get());
    }

    /**
     * T5: sessions each insert the table's row count as a new key at once. A primary-key INSERT conflicts with any
     * commit to its bucket since the snapshot it read (README, reliability.md §1 P4), so each statement lands or
     * fails with {@code TRANSACTION_CONFLICT}, and the table is what running the landed ones one after the other in
     * snapshot order gives: keys 0, 1, 2, … each written by the statement of that snapshot.
     */
    @Test
    void readDependentInsertsAreSerial()
            throws Exception
    {
        Map<String, Integer> landed = racingInserts("INSERT INTO counted SELECT count(*), '%s' FROM counted");

        Map<Long, String> replay = new TreeMap<>();
        for (Snapshot snapshot : snapshotsAfter("counted", 0)) {
            String writer = sessionOf(landed, snapshot);
            replay.put((long) replay.size(), writer);
        }
        assertThat(replay).as("a snapshot per landed statement").hasSize(landed.size());
        assertThat(tableRows("counted")).isEqualTo(replay.entrySet().stream().map(row -> "(%s, %s)".formatted(row.getKey(), row.getValue())).sorted().toList());
        assertThat(fsckViolations("counted")).isEmpty();
    }

    /**
     * T5 with the source pinned by {@code FOR VERSION AS OF}: every statement inserts the same key (the pinned
     * snapshot's row count), and still lands or fails with {@code TRANSACTION_CONFLICT} on the bucket it writes; the
     * key holds the session of the last landed snapshot.
     */
    @Test
    void readDependentInsertsOfAPinnedSnapshotAreSerial()
            throws Exception
    {
        assertUpdate("INSERT INTO counted_pinned VALUES (100, 'first'), (101, 'second')", 2);
        long pinned = latestSnapshotIdOf("counted_pinned");
        assertUpdate("INSERT INTO counted_pinned VALUES (102, 'after the pinned snapshot')", 1);
        long before = latestSnapshotIdOf("counted_pinned");

        Map<String, Integer> landed = racingInserts("INSERT INTO counted_pinned SELECT count(*), '%s' FROM counted_pinned FOR VERSION AS OF " + pinned);

        List<Snapshot> snapshots = snapshotsAfter("counted_pinned", before);
        assertThat(snapshots).as("a snapshot per landed statement").hasSize(landed.size());
        String lastWriter = null;
        for (Snapshot snapshot : snapshots) {
            lastWriter = sessionOf(landed, snapshot);
        }
        assertThat(tableRows("counted_pinned")).containsExactly("(100, first)", "(101, second)", "(102, after the pinned snapshot)", "(2, %s)".formatted(lastWriter));
        assertThat(fsckViolations("counted_pinned")).isEmpty();
    }

    /**
     * Runs the statement (its {@code %s} replaced by the session's name) in {@value #WRITERS} sessions at once, {@value
     * #ROUNDS} times; returns the query ids of the statements that landed with their session. Every failure must be
     * {@code TRANSACTION_CONFLICT}, and in each round at least one statement lands.
     */
    private Map<String, Integer> racingInserts(String statement)
            throws Exception
    {
        Map<String, Integer> landed = new ConcurrentHashMap<>();
        List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        CyclicBarrier barrier = new CyclicBarrier(WRITERS);
        ExecutorService executor = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int session = 0; session < WRITERS; session++) {
                int id = session;
                futures.add(executor.submit(() -> {
                    int conflicts = 0;
                    for (int round = 0; round < ROUNDS; round++) {
                        barrier.await();
                        String sql = statement.formatted("session-" + id);
                        try {
                            String queryId = ((DistributedQueryRunner) getQueryRunner()).executeWithPlan(getSession(), sql).queryId().toString();
                            landed.put(queryId, id);
                        }
                        catch (RuntimeException e) {
                            try {
                                assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
                                conflicts++;
                            }
                            catch (AssertionError notAConflict) {
                                unexpected.add(sql + " failed with " + e);
                            }
                        }
                    }
                    return conflicts;
                }));
            }
            int conflicts = 0;
            for (Future<Integer> future : futures) {
                conflicts += future.get();
            }
            System.out.printf("T5 %s: %s landed, %s conflicts%n", statement, landed.size(), conflicts);
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(unexpected).isEmpty();
        assertThat(landed.size()).as("at least one statement of each round lands").isGreaterThanOrEqualTo(ROUNDS);
        return landed;
    }

    private static String sessionOf(Map<String, Integer> landed, Snapshot snapshot)
    {
        String queryId = snapshot.properties().orElseThrow().get("trino.query-id");
        Integer session = landed.get(queryId);
        assertThat(session).as("snapshot %s is of a statement that landed: %s", snapshot.id(), queryId).isNotNull();
        return "session-" + session;
    }

    private record Statement(String kind, String sql, Map<String, String> expectedAfter) {}

    /**
     * T6 for UPDATE, DELETE and MERGE: a failure at each commit step. Before the publish the statement fails naming
     * the file, the table is unchanged, nothing that existed is deleted and no metadata file it wrote is left (data
     * files of its writer tasks that had finished may be, unreferenced); a publish that landed although the file
     * system reported a failure, and a LATEST hint that cannot be written, end in success with the change made once.
     */
    @Test
    void failureAtEachCommitStep()
    {
        Map<String, String> model = new TreeMap<>();
        int round = 0;
        int orphans = 0;
        for (CommitFault fault : CommitFault.STEPS) {
            for (String kind : List.of("UPDATE", "DELETE", "MERGE")) {
                round++;
                // the rows the statement changes, written without faults
                getQueryRunner().execute(getSession(), "INSERT INTO faults VALUES ('d1', %1$s, 'a%1$s'), ('d2', %1$s, 'b%1$s'), ('d2', %2$s, 'c%1$s')".formatted(round, round + 1000));
                model.put(key("d1", round), "a" + round);
                model.put(key("d2", round), "b" + round);
                model.put(key("d2", round + 1000), "c" + round);
                Statement statement = statement(kind, round, model);

                List<String> rowsBefore = tableRows("faults");
                assertThat(rowsBefore).isEqualTo(modelRows(model));
                long snapshotBefore = latestSnapshotIdOf("faults");
                Set<String> filesBefore = tableFiles("faults");
                long injectedBefore = faultFs().injectedFaults();
                String step = kind + " at " + fault.step();
                faultFs().addRule(fault.rule());
                try {
                    if (fault.succeeds()) {
                        getQueryRunner().execute(getSession(), statement.sql());
                    }
                    else {
                        assertThatThrownBy(() -> getQueryRunner().execute(getSession(), statement.sql()))
                                .as(step)
                                .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_FILESYSTEM_ERROR))
                                .hasMessageContaining(fault.pathInMessage());
                    }
                }
                finally {
                    faultFs().clearRules();
                }
                assertThat(faultFs().injectedFaults() - injectedBefore).as(step + ": the fault was hit").isEqualTo(1);

                if (fault.succeeds()) {
                    model = new TreeMap<>(statement.expectedAfter());
                    assertThat(latestSnapshotIdOf("faults")).as(step).isEqualTo(snapshotBefore + 1);
                    assertThat(tableRows("faults")).as(step).isEqualTo(modelRows(model));
                    assertThat(tableFiles("faults")).as(step + ": nothing that existed was deleted").containsAll(filesBefore);
                }
                else {
                    assertThat(latestSnapshotIdOf("faults")).as(step).isEqualTo(snapshotBefore);
                    assertThat(tableRows("faults")).as(step).isEqualTo(rowsBefore);
                    // the failed writer removes its files; a writer task of the statement that had already finished
                    // is not told of the failure, so its data files can stay behind, unreferenced (orphans)
                    Set<String> filesAfter = tableFiles("faults");
                    assertThat(filesAfter).as(step + ": nothing that existed was deleted").containsAll(filesBefore);
                    Set<String> leftOver = new HashSet<>(filesAfter);
                    leftOver.removeAll(filesBefore);
                    assertThat(leftOver).as(step + ": only data files of finished writers are left").isEqualTo(dataFiles(leftOver));
                    orphans += leftOver.size();
                }
                assertThat(fsckViolations("faults")).as(step).isEmpty();
            }
        }
        System.out.printf("T6 row changes: %s statements, %s data files left by finished writers of failed statements%n", 3 * CommitFault.STEPS.size(), orphans);
    }

    /** The statement of a kind for the round's rows, and the table it leaves when it lands. */
    private static Statement statement(String kind, int round, Map<String, String> model)
    {
        Map<String, String> after = new TreeMap<>(model);
        return switch (kind) {
            case "UPDATE" -> {
                after.put(key("d1", round), "u" + round);
                after.put(key("d2", round), "u" + round);
                yield new Statement(kind, "UPDATE faults SET v = 'u%1$s' WHERE k = %1$s".formatted(round), after);
            }
            case "DELETE" -> {
                after.remove(key("d1", round));
                after.remove(key("d2", round + 1000));
                yield new Statement(kind, "DELETE FROM faults WHERE (dt = 'd1' AND k = %s) OR v = 'c%s'".formatted(round, round), after);
            }
            case "MERGE" -> {
                after.remove(key("d1", round));
                after.put(key("d2", round), "m" + round);
                after.put(key("d1", round + 2000), "n" + round);
                yield new Statement(kind, """
                        MERGE INTO faults f USING (VALUES ('d1', %1$s, 'gone'), ('d2', %1$s, 'm%1$s'), ('d1', %2$s, 'n%1$s')) s(dt, k, v)
                        ON f.dt = s.dt AND f.k = s.k
                        WHEN MATCHED AND s.v = 'gone' THEN DELETE
                        WHEN MATCHED THEN UPDATE SET v = s.v
                        WHEN NOT MATCHED THEN INSERT VALUES (s.dt, s.k, s.v)""".formatted(round, round + 2000), after);
            }
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static String key(String dt, int k)
    {
        return dt + ", " + k;
    }

    private static List<String> modelRows(Map<String, String> model)
    {
        return model.entrySet().stream().map(row -> "(%s, %s)".formatted(row.getKey(), row.getValue())).sorted().toList();
    }

    private List<Snapshot> snapshotsAfter(String table, long after)
    {
        SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(root()), tableLocation(table));
        List<Snapshot> result = new ArrayList<>();
        for (long id = after + 1; id <= latestSnapshotIdOf(table); id++) {
            result.add(snapshots.readSnapshot(id));
        }
        return result;
    }

    private static Set<String> dataFiles(Set<String> files)
    {
        return files.stream().filter(file -> file.contains("bucket-") && Path.of(file).getFileName().toString().startsWith("data-")).collect(Collectors.toSet());
    }
}
