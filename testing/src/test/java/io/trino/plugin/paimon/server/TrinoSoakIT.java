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
package io.trino.plugin.paimon.server;

import com.google.common.base.Throwables;
import io.trino.plugin.paimon.PaimonErrorCode;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.spi.ErrorCode;
import io.trino.spi.StandardErrorCode;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableMap.toImmutableMap;
import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A soak beside Paimon Java: a real Trino cluster (a coordinator and a worker, {@link TrinoCluster}) and Paimon Java
 * writers in this JVM share one warehouse for {@code soak.duration} (an ISO-8601 duration: two minutes in the build,
 * {@code PT10M} for a real soak, {@code PT0S} skips it; docs/dev/testing.md has the command). At the same time:
 * <ul>
 * <li>Paimon Java streaming writers commit a batch about every 300 ms to two primary-key tables with the lookup
 * changelog producer and compaction on, one with Paimon's snapshot expiry and one with an aggressive one (one to
 * three snapshots, one second), and a Paimon Java compaction job compacts the {@code accounts} table every two
 * seconds; a failed commit restarts the writer, as a Flink job restarts;</li>
 * <li>Trino writers insert batches ({@code INSERT}, {@code MERGE}), update whole batches of either side and delete
 * their own, through a catalog with compaction on write off ({@code soak.trino-compaction} = true uses one with it
 * on), retrying {@code TRANSACTION_CONFLICT}; and move amounts between accounts, two rows per statement;</li>
 * <li>Trino runs {@code optimize}, {@code expire_snapshots} and {@code remove_orphan_files} every 20 seconds;</li>
 * <li>two Trino readers check on every read that each batch is whole (a batch's rows are its commit's) and that the
 * accounts' sum never changes.</li>
 * </ul>
 * At the end: every acknowledged batch is there exactly once and every acknowledged delete took, as Paimon Java
 * reads the tables; the sum holds; no orphan is left after {@code remove_orphan_files}; every error has a name, and
 * only conflicts (retried) and reads of expired snapshots (named so) occur. The counts are printed.
 */
final class TrinoSoakIT
{
    private static final String DATABASE = "soak";
    private static final List<String> EVENT_TABLES = List.of("events", "events_fast");
    private static final int ACCOUNTS = 16;
    private static final long BALANCE = 1_000;
    private static final Map<Integer, String> ERROR_NAMES = Stream.concat(
                    Stream.of(StandardErrorCode.values()).map(StandardErrorCode::toErrorCode),
                    Stream.of(PaimonErrorCode.values()).map(PaimonErrorCode::toErrorCode))
            .collect(toImmutableMap(ErrorCode::getCode, ErrorCode::getName));

    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final List<String> violations = new ArrayList<>();
    // Trino's batch ids, then those of the Paimon Java writer of each table
    private static final long TRINO_BATCHES = 2_000_000;
    private static final long JAVA_BATCHES = 10_000_000;

    private final AtomicLong nextTrinoBatch = new AtomicLong(TRINO_BATCHES);
    // per table: acknowledged batches and their sizes, and acknowledged deletes
    private final Map<String, Map<Long, Integer>> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, Set<Long>> deleted = new ConcurrentHashMap<>();
    // batches whose commit failed but may have landed, and batches whose DELETE failed but may have landed
    private final Map<String, Set<Long>> uncertain = new ConcurrentHashMap<>();
    private final Map<String, Set<Long>> uncertainDeletes = new ConcurrentHashMap<>();

    private Path localRoot;
    private TrinoCluster cluster;
    private volatile long deadline;

    @Test
    void soak()
            throws Exception
    {
        Duration duration = Duration.parse(System.getProperty("soak.duration", "PT2M"));
        assumeTrue(!duration.isZero(), "soak.duration is zero");
        boolean trinoCompaction = Boolean.getBoolean("soak.trino-compaction");
        localRoot = Files.createTempDirectory("trino-paimon-soak");
        try {
            Path warehouse = Files.createDirectories(localRoot.resolve("warehouse"));
            try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(warehouse)) {
                createTables(paimon);
            }
            Path writeOnly = Files.writeString(localRoot.resolve("paimon_write_only.properties"), """
                    connector.name=paimon
                    paimon.warehouse=local:///warehouse
                    fs.native-local.enabled=true
                    local.location=%s
                    paimon.compaction-on-write.enabled=false
                    """.formatted(localRoot));
            cluster = TrinoCluster.start(Path.of(System.getProperty("repository.root")).toRealPath(), localRoot, List.of(writeOnly));
            run(duration, trinoCompaction ? "paimon" : "paimon_write_only");
            check();
        }
        finally {
            if (cluster != null) {
                cluster.close();
            }
            if (violations.isEmpty()) {
                deleteRecursively(localRoot, ALLOW_INSECURE);
            }
            else {
                System.out.println("Soak warehouse kept for inspection: " + localRoot);
            }
        }
    }

    private static void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createDatabase(DATABASE);
        for (String table : EVENT_TABLES) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("batch_id", DataTypes.BIGINT().notNull())
                    .column("seq", DataTypes.INT().notNull())
                    .column("writer", DataTypes.STRING())
                    .column("size", DataTypes.INT())
                    .column("note", DataTypes.STRING())
                    .primaryKey("batch_id", "seq")
                    .option("bucket", "2")
                    .option("changelog-producer", "lookup");
            if (table.equals("events_fast")) {
                schema.option("snapshot.num-retained.min", "1")
                        .option("snapshot.num-retained.max", "3")
                        .option("snapshot.time-retained", "1 s");
            }
            paimon.createTable(DATABASE, table, schema.build());
        }
        paimon.createTable(DATABASE, "accounts", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("balance", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        List<GenericRow> accounts = new ArrayList<>();
        for (int id = 0; id < ACCOUNTS; id++) {
            accounts.add(GenericRow.of(id, BALANCE));
        }
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "accounts"), accounts);
    }

    private void run(Duration duration, String writeCatalog)
            throws Exception
    {
        for (String table : EVENT_TABLES) {
            acknowledged.put(table, new ConcurrentHashMap<>());
            deleted.put(table, ConcurrentHashMap.newKeySet());
            uncertain.put(table, ConcurrentHashMap.newKeySet());
            uncertainDeletes.put(table, ConcurrentHashMap.newKeySet());
        }
        deadline = System.nanoTime() + duration.toNanos();
        List<Runnable> actors = new ArrayList<>();
        for (int i = 0; i < EVENT_TABLES.size(); i++) {
            String table = EVENT_TABLES.get(i);
            long firstBatch = JAVA_BATCHES + 1_000_000L * i;
            actors.add(() -> javaBatches(table, firstBatch));
            actors.add(() -> trinoBatches(table, writeCatalog));
        }
        actors.add(this::javaCompactions);
        actors.add(() -> transfers(writeCatalog));
        actors.add(this::maintenance);
        actors.add(this::reads);
        actors.add(this::reads);
        ExecutorService executor = Executors.newFixedThreadPool(actors.size());
        try {
            List<Future<?>> running = actors.stream().<Future<?>>map(executor::submit).toList();
            for (Future<?> actor : running) {
                actor.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
    }

    private static boolean isTrinoBatch(long batch)
    {
        return batch >= TRINO_BATCHES && batch < JAVA_BATCHES;
    }

    private boolean running()
    {
        return System.nanoTime() < deadline;
    }

    // a streaming job: a batch per checkpoint, compaction on (lookup changelog); a failed commit restarts the writer
    private void javaBatches(String table, long firstBatch)
    {
        long batch = firstBatch;
        long checkpoint = 0;
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(localRoot.resolve("warehouse"))) {
            while (running()) {
                FileStoreTable fileStoreTable = (FileStoreTable) paimon.getTable(DATABASE, table);
                StreamWriteBuilder builder = fileStoreTable.newStreamWriteBuilder().withCommitUser("soak-java-" + table);
                try (StreamTableWrite write = builder.newWrite(); StreamTableCommit commit = builder.newCommit()) {
                    write.withIOManager(IOManager.create(localRoot.toString()));
                    while (running()) {
                        batch++;
                        checkpoint++;
                        int size = ThreadLocalRandom.current().nextInt(20, 60);
                        try {
                            for (int seq = 0; seq < size; seq++) {
                                write.write(GenericRow.of(batch, seq, BinaryString.fromString("java"), size, BinaryString.fromString("new")));
                            }
                            List<CommitMessage> messages = write.prepareCommit(false, checkpoint);
                            commit.commit(checkpoint, messages);
                            acknowledged.get(table).put(batch, size);
                            count("java commits");
                        }
                        catch (Exception e) {
                            // a Flink job restarts on any failure of a checkpoint; the batch may have landed before a
                            // failure of the commit (its compaction is a second snapshot)
                            count("java checkpoint failures");
                            uncertain.get(table).add(batch);
                            break;
                        }
                        Thread.sleep(300);
                    }
                }
            }
        }
        catch (Exception e) {
            violation("Paimon Java writer of %s stopped: %s".formatted(table, e));
        }
    }

    // a compaction job: every two seconds it compacts both buckets of accounts fully, from the latest files
    private void javaCompactions()
    {
        long checkpoint = 0;
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(localRoot.resolve("warehouse"))) {
            while (running()) {
                FileStoreTable table = (FileStoreTable) paimon.getTable(DATABASE, "accounts");
                StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser("soak-java-compaction");
                try (StreamTableWrite write = builder.newWrite(); StreamTableCommit commit = builder.newCommit()) {
                    write.withIOManager(IOManager.create(localRoot.toString()));
                    checkpoint++;
                    write.compact(BinaryRow.EMPTY_ROW, 0, true);
                    write.compact(BinaryRow.EMPTY_ROW, 1, true);
                    commit.commit(checkpoint, write.prepareCommit(true, checkpoint));
                    count("java compactions");
                }
                catch (RuntimeException e) {
                    count("java compaction failures");
                }
                Thread.sleep(2_000);
            }
        }
        catch (Exception e) {
            violation("Paimon Java compaction job stopped: " + e);
        }
    }

    private void trinoBatches(String table, String catalog)
    {
        String name = catalog + "." + DATABASE + "." + table;
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            while (running()) {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                int choice = random.nextInt(10);
                if (choice < 4) {
                    long batch = nextTrinoBatch.incrementAndGet();
                    int size = random.nextInt(10, 40);
                    String rows = "SELECT %s, s, 'trino', %s, 'new' FROM UNNEST(sequence(0, %s)) AS x(s)".formatted(batch, size, size - 1);
                    String sql = choice < 3
                            ? "INSERT INTO %s %s".formatted(name, rows)
                            : "MERGE INTO %s t USING (%s) AS n(batch_id, seq, writer, size, note) ON t.batch_id = n.batch_id AND t.seq = n.seq WHEN NOT MATCHED THEN INSERT VALUES (n.batch_id, n.seq, n.writer, n.size, n.note)".formatted(name, rows);
                    if (write(statement, choice < 3 ? "trino inserts" : "trino merges", sql)) {
                        acknowledged.get(table).put(batch, size);
                    }
                    else {
                        uncertain.get(table).add(batch);
                    }
                }
                else if (choice < 8) {
                    // a whole batch of either side, so every batch stays whole
                    List<Long> batches = new ArrayList<>(acknowledged.get(table).keySet());
                    batches.removeAll(deleted.get(table));
                    if (!batches.isEmpty()) {
                        long batch = batches.get(random.nextInt(batches.size()));
                        write(statement, "trino updates", "UPDATE %s SET note = 'updated by trino' WHERE batch_id = %s".formatted(name, batch));
                    }
                }
                else {
                    List<Long> own = acknowledged.get(table).keySet().stream().filter(batch -> isTrinoBatch(batch) && !deleted.get(table).contains(batch)).toList();
                    if (!own.isEmpty()) {
                        long batch = own.get(random.nextInt(own.size()));
                        if (write(statement, "trino deletes", "DELETE FROM %s WHERE batch_id = %s".formatted(name, batch))) {
                            deleted.get(table).add(batch);
                        }
                        else {
                            // a statement that failed may still have committed: the batch is there whole or gone
                            uncertainDeletes.get(table).add(batch);
                            acknowledged.get(table).remove(batch);
                        }
                    }
                }
                Thread.sleep(100);
            }
        }
        catch (Exception e) {
            violation("Trino writer of %s stopped: %s".formatted(table, e));
        }
    }

    private void transfers(String catalog)
    {
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            while (running()) {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                int from = random.nextInt(ACCOUNTS);
                int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                int amount = random.nextInt(1, 50);
                write(statement, "trino transfers", "UPDATE %s.%s.accounts SET balance = balance + CASE id WHEN %s THEN -%s ELSE %s END WHERE id IN (%s, %s)"
                        .formatted(catalog, DATABASE, from, amount, amount, from, to));
                Thread.sleep(100);
            }
        }
        catch (Exception e) {
            violation("Trino transfers stopped: " + e);
        }
    }

    // runs a write, retrying a conflict up to five times; false when it did not succeed
    private boolean write(Statement statement, String kind, String sql)
    {
        for (int attempt = 0; attempt < 6; attempt++) {
            try {
                statement.executeUpdate(sql);
                count(kind);
                return true;
            }
            catch (SQLException e) {
                String error = errorName(e);
                count("error " + error + " (" + kind + ")");
                if (expiredUnderIt(sql, e)) {
                    return false;
                }
                if (!error.equals("TRANSACTION_CONFLICT")) {
                    violation("%s failed with %s: %s".formatted(kind, error, trace(e)));
                    return false;
                }
                count("retries");
            }
        }
        return false;
    }

    private void maintenance()
    {
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION paimon.expire_snapshots_min_retention = '1s'");
            statement.execute("SET SESSION paimon.remove_orphan_files_min_retention = '1s'");
            int round = 0;
            while (running()) {
                Thread.sleep(20_000);
                round++;
                for (String table : List.of("events", "events_fast", "accounts")) {
                    String name = "paimon.%s.%s".formatted(DATABASE, table);
                    // a writer's files are orphans only until its commit: an hour keeps them, as Paimon advises a day
                    String[] procedures = {
                            round % 2 == 0 ? "ALTER TABLE %s EXECUTE optimize".formatted(name) : null,
                            "ALTER TABLE %s EXECUTE expire_snapshots(retention_threshold => '%s')".formatted(name, System.getProperty("soak.expire-retention", "30s")),
                            "ALTER TABLE %s EXECUTE remove_orphan_files(retention_threshold => '1h')".formatted(name)};
                    for (String sql : procedures) {
                        if (sql != null) {
                            write(statement, "trino maintenance", sql);
                        }
                    }
                }
            }
        }
        catch (Exception e) {
            violation("Trino maintenance stopped: " + e);
        }
    }

    private void reads()
    {
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            while (running()) {
                for (String table : EVENT_TABLES) {
                    read(statement, table, "SELECT batch_id, count(*), min(size), max(size) FROM paimon.%s.%s GROUP BY batch_id HAVING count(*) <> max(size) OR min(size) <> max(size)".formatted(DATABASE, table),
                            result -> "batch %s has %s of %s rows".formatted(result.getLong(1), result.getLong(2), result.getInt(4)));
                }
                read(statement, "accounts", "SELECT sum(balance), count(*) FROM paimon.%s.accounts HAVING sum(balance) <> %s OR count(*) <> %s".formatted(DATABASE, ACCOUNTS * BALANCE, ACCOUNTS),
                        result -> "accounts sum to %s over %s rows".formatted(result.getLong(1), result.getLong(2)));
            }
        }
        catch (Exception e) {
            violation("Trino reader stopped: " + e);
        }
    }

    private void read(Statement statement, String table, String sql, SqlFunction<ResultSet, String> wrong)
    {
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                count("wrong reads");
                violation("a read of %s saw %s".formatted(table, wrong.apply(result)));
            }
            count("reads");
        }
        catch (SQLException e) {
            String error = errorName(e);
            count("error " + error + " (reads of " + table + ")");
            if (!expiredUnderIt(sql, e)) {
                violation("a read of %s failed with %s: %s".formatted(table, error, trace(e)));
            }
        }
    }

    // on the table with aggressive expiry, a snapshot expired under a running statement may fail it, with an error that says so
    private static boolean expiredUnderIt(String sql, SQLException e)
    {
        return sql.contains(".events_fast") && e.getMessage() != null && e.getMessage().contains("expired");
    }

    private void check()
            throws Exception
    {
        // what was left unreferenced while writers ran, gone now that none runs
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION paimon.remove_orphan_files_min_retention = '1s'");
            Thread.sleep(2_000);
            for (String table : List.of("events", "events_fast", "accounts")) {
                statement.execute("ALTER TABLE paimon.%s.%s EXECUTE remove_orphan_files(retention_threshold => '1s')".formatted(DATABASE, table));
            }
        }
        Map<String, Object> summary = new TreeMap<>();
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(localRoot.resolve("warehouse"))) {
            for (String table : EVENT_TABLES) {
                FileStoreTable fileStoreTable = (FileStoreTable) paimon.getTable(DATABASE, table);
                Map<Long, Integer> rows = new HashMap<>();
                Map<Long, Integer> sizes = new HashMap<>();
                for (InternalRow row : PaimonJavaCatalog.readInternalRows(fileStoreTable)) {
                    rows.merge(row.getLong(0), 1, Integer::sum);
                    sizes.put(row.getLong(0), row.getInt(3));
                }
                Map<Long, Integer> expected = new HashMap<>(acknowledged.get(table));
                deleted.get(table).forEach(expected::remove);
                for (Map.Entry<Long, Integer> batch : expected.entrySet()) {
                    int found = rows.getOrDefault(batch.getKey(), 0);
                    if (found != batch.getValue()) {
                        violation("%s: acknowledged batch %s has %s of its %s rows".formatted(table, batch.getKey(), found, batch.getValue()));
                    }
                }
                for (Map.Entry<Long, Integer> batch : rows.entrySet()) {
                    if (!expected.containsKey(batch.getKey())) {
                        if (deleted.get(table).contains(batch.getKey())) {
                            violation("%s: deleted batch %s is back".formatted(table, batch.getKey()));
                        }
                        else if (!uncertain.get(table).contains(batch.getKey()) && !uncertainDeletes.get(table).contains(batch.getKey())) {
                            violation("%s: batch %s appeared without a writer".formatted(table, batch.getKey()));
                        }
                        else if (batch.getValue().intValue() != sizes.get(batch.getKey())) {
                            violation("%s: batch %s, whose statement or commit failed, is there in part".formatted(table, batch.getKey()));
                        }
                        else if (uncertainDeletes.get(table).contains(batch.getKey())) {
                            count("batches a failed DELETE left whole");
                        }
                        else {
                            count("batches whose failed commit landed whole");
                        }
                    }
                }
                summary.put(table + " batches", rows.size());
                long future = System.currentTimeMillis() + 86_400_000L;
                List<?> orphans = new LocalOrphanFilesClean(fileStoreTable, future, true).clean().getDeletedFilesPath();
                if (!orphans.isEmpty()) {
                    violation("%s: orphan files left after remove_orphan_files: %s".formatted(table, orphans));
                }
            }
            long sum = PaimonJavaCatalog.readInternalRows(paimon.getTable(DATABASE, "accounts")).stream().mapToLong(row -> row.getLong(1)).sum();
            if (sum != ACCOUNTS * BALANCE) {
                violation("accounts sum to " + sum);
            }
        }
        counts.forEach((name, value) -> summary.put(name, value.get()));
        System.out.println("Soak summary: " + summary);
        assertThat(violations).as("soak violations; counts %s", summary).isEmpty();
        assertThat(counts.getOrDefault("reads", new AtomicLong()).get()).isPositive();
        assertThat(counts.getOrDefault("java commits", new AtomicLong()).get()).isPositive();
    }

    private void count(String name)
    {
        counts.computeIfAbsent(name, _ -> new AtomicLong()).incrementAndGet();
    }

    private void violation(String text)
    {
        synchronized (violations) {
            violations.add(text);
        }
    }

    // the message and the first frames of each cause, the server's stack trace among them
    private static String trace(SQLException e)
    {
        return Throwables.getStackTraceAsString(e).lines()
                .filter(line -> !line.startsWith("\tat ") || line.contains("io.trino.plugin.paimon"))
                .limit(40)
                .collect(joining("\n"));
    }

    private static String errorName(SQLException e)
    {
        return ERROR_NAMES.getOrDefault(e.getErrorCode(), "code " + e.getErrorCode());
    }

    @FunctionalInterface
    private interface SqlFunction<T, R>
    {
        R apply(T value)
                throws SQLException;
    }
}
