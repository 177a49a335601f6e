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

import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.CommitFault;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.RunnerTasks;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.FixedBucketRowKeyExtractor;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.testing.ConcurrentSessions.runSessions;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability of INSERT (reliability.md T2, T3, T6, T23): concurrent statements into different buckets all land,
 * concurrent statements into one bucket land or fail with {@code TRANSACTION_CONFLICT} and never lose or double an
 * update, a file system failure at each commit step leaves the table as it was (or, when the snapshot was
 * published, committed exactly once), and a cancelled statement leaves nothing behind. Every test ends with
 * {@link Fsck} and a comparison with Paimon Java 1.4.2. The catalog reads and writes through a {@link FaultFs}.
 * <p>
 * Size: {@code -Dpaimon.test.scale=N} multiplies the statements per session; the seed is printed and can be fixed
 * with {@code -Dpaimon.test.seed=S}.
 */
final class TestInsertReliability
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "reliability";
    private static final int SESSIONS = 4;
    private static final int SCALE = Integer.getInteger("paimon.test.scale", 1);

    TestInsertReliability()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createTable(DATABASE, "buckets", Schema.newBuilder()
                .column("k", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", String.valueOf(SESSIONS))
                .build());
        paimon.createTable(DATABASE, "distinct_keys", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .build());
        paimon.createTable(DATABASE, "shared_dedup", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .build());
        paimon.createTable(DATABASE, "shared_sum", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("n", DataTypes.BIGINT())
                .primaryKey("k")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.n.aggregate-function", "sum")
                .build());
        paimon.createTable(DATABASE, "faults", partitionedTableSchema());
        paimon.createTable(DATABASE, "cancelled", Schema.newBuilder()
                .column("k", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "2")
                .build());
    }

    @AfterEach
    void noFaultsLeftNoStreamsOpen()
    {
        clearFaultsAndAssertNoStreamsOpen();
    }

    /** T2: sessions writing disjoint buckets concurrently all land, one snapshot each, no row lost. */
    @Test
    void concurrentInsertsIntoDifferentBucketsAllLand()
            throws Exception
    {
        int statementsPerSession = 8 * SCALE;
        FixedBucketRowKeyExtractor buckets = new FixedBucketRowKeyExtractor(((FileStoreTable) paimon().getTable(DATABASE, "buckets")).schema());
        Map<Integer, List<Long>> keysByBucket = new HashMap<>();
        for (long key = 0; keysByBucket.values().stream().mapToInt(List::size).sum() < SESSIONS * 30; key++) {
            buckets.setRecord(GenericRow.of(key, null));
            List<Long> keys = keysByBucket.computeIfAbsent(buckets.bucket(), _ -> new ArrayList<>());
            if (keys.size() < 30) {
                keys.add(key);
            }
        }
        long before = latestSnapshotIdOf("buckets");

        List<Map<Long, String>> models = runSessions(SESSIONS, session -> {
            Random random = new Random(seed() + session);
            Map<Long, String> model = new TreeMap<>();
            for (int statement = 0; statement < statementsPerSession; statement++) {
                Map<Long, String> rows = new TreeMap<>();
                int count = 1 + random.nextInt(5);
                for (int i = 0; i < count; i++) {
                    rows.put(keysByBucket.get(session).get(random.nextInt(30)), "s%s-%s".formatted(session, statement));
                }
                getQueryRunner().execute(withoutCompactionOnWrite(), "INSERT INTO buckets VALUES " + rows.entrySet().stream()
                        .map(row -> "(%s, '%s')".formatted(row.getKey(), row.getValue()))
                        .collect(Collectors.joining(", ")));
                model.putAll(rows);
            }
            return model;
        });

        assertThat(latestSnapshotIdOf("buckets")).isEqualTo(before + (long) SESSIONS * statementsPerSession);
        List<String> expected = models.stream()
                .flatMap(model -> model.entrySet().stream())
                .map(row -> "(%s, %s)".formatted(row.getKey(), row.getValue()))
                .sorted()
                .toList();
        assertThat(RowText.paimonText(computeActual("SELECT * FROM buckets"))).isEqualTo(expected);
        assertThat(fsckViolations("buckets")).isEmpty();
    }

    /**
     * Sessions inserting distinct keys into one bucket concurrently all land: a rival commit to the bucket conflicts
     * only when it wrote one of the statement's keys, so each statement is committed on top of the others', and the
     * table holds every row once.
     */
    @Test
    void concurrentInsertsOfDistinctKeysIntoOneBucketAllLand()
            throws Exception
    {
        int statementsPerSession = 6 * SCALE;
        long before = latestSnapshotIdOf("distinct_keys");
        List<List<String>> written = runSessions(SESSIONS, session -> {
            List<String> rows = new ArrayList<>();
            for (int statement = 0; statement < statementsPerSession; statement++) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    // the sessions' keys interleave, so their files' key ranges overlap
                    int key = (statement * 5 + i) * SESSIONS + session;
                    values.add("(%s, 's%s-%s')".formatted(key, session, statement));
                    rows.add("(%s, s%s-%s)".formatted(key, session, statement));
                }
                getQueryRunner().execute(withoutCompactionOnWrite(), "INSERT INTO distinct_keys VALUES " + String.join(", ", values));
            }
            return rows;
        });
        assertThat(latestSnapshotIdOf("distinct_keys")).isEqualTo(before + (long) SESSIONS * statementsPerSession);
        List<String> expected = written.stream().flatMap(List::stream).sorted().toList();
        assertThat(RowText.paimonText(computeActual("SELECT * FROM distinct_keys"))).isEqualTo(expected);
        assertThat(fsckViolations("distinct_keys")).isEmpty();
    }

    /**
     * T3: sessions upserting the same keys of one bucket concurrently either land or fail with
     * {@code TRANSACTION_CONFLICT}; the table is the landed statements replayed in snapshot order, for last-value
     * deduplication and for {@code sum}, which would count a doubled statement twice.
     */
    @ParameterizedTest
    @ValueSource(strings = {"shared_dedup", "shared_sum"})
    void concurrentUpsertsIntoOneBucketLandOrConflict(String table)
            throws Exception
    {
        int statementsPerSession = 6 * SCALE;
        boolean sum = table.equals("shared_sum");
        long before = latestSnapshotIdOf(table);
        Map<String, Map<Integer, String>> landed = new ConcurrentHashMap<>();
        List<String> unexpected = new ArrayList<>();

        List<Integer> conflicts = runSessions(SESSIONS, session -> {
            Random random = new Random(seed() * 31 + session);
            int conflicted = 0;
            for (int statement = 0; statement < statementsPerSession; statement++) {
                Map<Integer, String> rows = new TreeMap<>();
                while (rows.size() < 5) {
                    rows.put(random.nextInt(20), sum ? "1" : "'s%s-%s'".formatted(session, statement));
                }
                String sql = "INSERT INTO %s VALUES %s".formatted(table, rows.entrySet().stream()
                        .map(row -> "(%s, %s)".formatted(row.getKey(), row.getValue()))
                        .collect(Collectors.joining(", ")));
                try {
                    MaterializedResultWithPlan result = ((DistributedQueryRunner) getQueryRunner()).executeWithPlan(withoutCompactionOnWrite(), sql);
                    landed.put(result.queryId().toString(), rows);
                }
                catch (RuntimeException e) {
                    try {
                        assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
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
        assertThat(landed).as("some statements land").isNotEmpty();

        // replay the landed statements in the order of their snapshots
        SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(root()), tableLocation(table));
        long latest = latestSnapshotIdOf(table);
        assertThat(latest - before).as("one snapshot per landed statement").isEqualTo(landed.size());
        Map<Integer, Object> replay = new TreeMap<>();
        for (long id = before + 1; id <= latest; id++) {
            Snapshot snapshot = snapshots.readSnapshot(id);
            String queryId = snapshot.properties().orElseThrow().get("trino.query-id");
            Map<Integer, String> rows = landed.remove(queryId);
            assertThat(rows).as("snapshot %s is of a statement that landed once: %s", id, queryId).isNotNull();
            rows.forEach((key, value) -> replay.merge(key, sum ? (Object) Long.parseLong(value) : value.replace("'", ""),
                    (old, update) -> sum ? (Object) ((Long) old + (Long) update) : update));
        }
        assertThat(landed).as("landed statements without a snapshot").isEmpty();
        List<String> expected = replay.entrySet().stream().map(row -> "(%s, %s)".formatted(row.getKey(), row.getValue())).sorted().toList();
        assertThat(RowText.paimonText(computeActual("SELECT * FROM " + table))).isEqualTo(expected);
        assertThat(fsckViolations(table)).isEmpty();
        System.out.printf("T3 %s: %s landed, %s conflicts%n", table, latest - before, conflicts.stream().mapToInt(Integer::intValue).sum());
    }

    /**
     * T6 for INSERT: a failure at each commit step. Before the publish the statement fails naming the file, the
     * table is unchanged and every file it wrote is gone (data files, manifests, lists); a publish that landed although the file system
     * reported a failure, and a LATEST hint that cannot be written, end in success with the rows there once.
     */
    @Test
    void failureAtEachCommitStep()
    {
        int round = 0;
        for (CommitFault fault : CommitFault.STEPS) {
            round++;
            List<String> rowsBefore = tableRows("faults");
            long snapshotBefore = latestSnapshotIdOf("faults");
            Set<String> filesBefore = tableFiles("faults");
            String sql = "INSERT INTO faults VALUES ('d1', %1$s, 'a%1$s'), ('d1', %2$s, 'b%1$s'), ('d2', %1$s, 'c%1$s')".formatted(round, round + 100);
            long injectedBefore = faultFs().injectedFaults();
            faultFs().addRule(fault.rule());
            try {
                if (fault.succeeds()) {
                    getQueryRunner().execute(sql);
                }
                else {
                    assertThatThrownBy(() -> getQueryRunner().execute(sql))
                            .as(fault.step())
                            .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_FILESYSTEM_ERROR))
                            .hasMessageContaining(fault.pathInMessage());
                }
            }
            finally {
                faultFs().clearRules();
            }
            assertThat(faultFs().injectedFaults() - injectedBefore).as(fault.step() + ": the fault was hit").isEqualTo(1);

            if (fault.succeeds()) {
                assertThat(latestSnapshotIdOf("faults")).as(fault.step()).isEqualTo(snapshotBefore + 1);
                List<String> expected = new ArrayList<>(rowsBefore);
                expected.addAll(List.of("(d1, %1$s, a%1$s)".formatted(round), "(d1, %s, b%s)".formatted(round + 100, round), "(d2, %1$s, c%1$s)".formatted(round)));
                expected.sort(null);
                assertThat(tableRows("faults")).as(fault.step()).isEqualTo(expected);
                assertThat(tableFiles("faults")).as(fault.step() + ": nothing that existed was deleted").containsAll(filesBefore);
            }
            else {
                assertThat(latestSnapshotIdOf("faults")).as(fault.step()).isEqualTo(snapshotBefore);
                assertThat(tableRows("faults")).as(fault.step()).isEqualTo(rowsBefore);
                assertThat(tableFiles("faults")).as(fault.step() + ": the statement's data files, manifests and manifest lists are removed").isEqualTo(filesBefore);
            }
            assertThat(fsckViolations("faults")).as(fault.step()).isEmpty();
        }
    }

    /** S8: when removing the written files after a failure fails too, the statement reports the original failure. */
    @Test
    void failedCleanupKeepsTheOriginalError()
    {
        List<String> rowsBefore = tableRows("faults");
        faultFs().addRule(Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/manifest/manifest-[!l]*", 1, Action.THROW_BEFORE));
        faultFs().addRule(Rule.random(Operation.DELETE, "**/bucket-*/data-*", 1.0, Action.THROW_BEFORE));
        try {
            assertThatThrownBy(() -> getQueryRunner().execute("INSERT INTO faults VALUES ('d3', 1, 'x')"))
                    .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_FILESYSTEM_ERROR))
                    .hasMessageContaining("/manifest/manifest-");
        }
        finally {
            faultFs().clearRules();
        }
        assertThat(tableRows("faults")).isEqualTo(rowsBefore);
        assertThat(fsckViolations("faults")).isEmpty();
    }

    /**
     * T23: an INSERT … SELECT cancelled while it writes its first data file leaves the table unchanged, none of its
     * files, and every file that was there before.
     */
    @Test
    void cancelledInsertLeavesNothingBehind()
            throws Exception
    {
        getQueryRunner().execute("INSERT INTO cancelled SELECT sequential_number, 'before' FROM TABLE(sequence(1, 1000))");
        List<String> rowsBefore = tableRows("cancelled");
        long snapshotBefore = latestSnapshotIdOf("cancelled");
        Set<String> filesBefore = tableFiles("cancelled");

        DistributedQueryRunner queryRunner = (DistributedQueryRunner) getQueryRunner();
        Hang hang = faultFs().hang(Operation.CREATE, "**/cancelled/bucket-*/data-*", 1);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> insert = executor.submit(() -> queryRunner.execute("INSERT INTO cancelled SELECT sequential_number, 'cancelled' FROM TABLE(sequence(1, 200000))"));
            hang.awaitReached();
            QueryId running = queryRunner.getCoordinator().getQueryManager().getQueries().stream()
                    .filter(query -> query.getQuery().contains("'cancelled'") && !query.getState().isDone())
                    .map(query -> query.getQueryId())
                    .findFirst()
                    .orElseThrow();
            queryRunner.getCoordinator().getQueryManager().cancelQuery(running);
            hang.release();
            assertThatThrownBy(insert::get).hasMessageContaining("Query was canceled");
        }
        finally {
            faultFs().clearRules();
            executor.shutdownNow();
        }
        // the cancelled query's writers finish their cleanup asynchronously; nothing here waits on time, so
        // wait for the tasks of the query to be gone
        while (!RunnerTasks.allDone(queryRunner)) {
            Thread.sleep(50);
        }
        assertThat(latestSnapshotIdOf("cancelled")).isEqualTo(snapshotBefore);
        assertThat(tableRows("cancelled")).isEqualTo(rowsBefore);
        assertThat(tableFiles("cancelled")).as("files after the cancelled INSERT").isEqualTo(filesBefore);
        assertThat(fsckViolations("cancelled")).isEmpty();
    }
}
