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
package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.hdfs.HdfsConfig;
import io.trino.plugin.paimon.hdfs.HdfsEnvironment;
import io.trino.plugin.paimon.hdfs.HdfsFileSystemFactory;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.HdfsCluster;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.spi.security.ConnectorIdentity;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNodeFaultInjector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.PaimonTestTables.createOrders;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A warehouse on a real HDFS ({@link HdfsCluster}, NameNode and DataNode in this JVM): Paimon Java 1.4.2 writes
 * tables through its own Hadoop file IO; the connector, configured with the catalog file the README shows
 * ({@code fs.hadoop.enabled}, {@code hive.config.resources} naming a core-site.xml), reads exactly Paimon Java's
 * rows, writes, updates, compacts, expires and cleans tables whose rows Paimon Java reads back, and commits beside
 * Paimon Java on one table without losing or doubling a commit. Catalog {@code lake} reaches the same warehouse
 * through a {@code viewfs://} mount of the core-site.xml.
 */
final class TestHdfsWarehouse
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "lake";
    private static final int DV_COMMITS = 3;

    private HdfsCluster cluster;
    private java.nio.file.Path configDirectory;
    private PaimonJavaCatalog paimon;
    private HdfsFileSystemFactory fileSystemFactory;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        cluster = HdfsCluster.shared();
        configDirectory = Files.createTempDirectory("hdfs-warehouse-config");
        java.nio.file.Path coreSite = HdfsCluster.writeConfigurationFile(configDirectory.resolve("core-site.xml"), ImmutableMap.of(
                "fs.defaultFS", cluster.uri(),
                "fs.viewfs.mounttable.lake.link./warehouse", warehouse(),
                // a DataNode that stops answering fails a read or write within 20 s, not the default minute
                "dfs.client.socket-timeout", "20000"));
        paimon = PaimonJavaCatalog.onHadoop(warehouse(), cluster.clientConfiguration());
        paimon.createDatabase(DATABASE);
        createTables();
        fileSystemFactory = new HdfsFileSystemFactory(HdfsEnvironment.create(new HdfsConfig().setResources(coreSite.toString())));

        Map<String, String> catalog = ImmutableMap.<String, String>builder()
                .put("fs.hadoop.enabled", "true")
                .put("hive.config.resources", coreSite.toString())
                .put("paimon.expire-snapshots.min-retention", "0s")
                .put("paimon.remove-orphan-files.min-retention", "0s")
                .buildOrThrow();
        QueryRunner queryRunner = PaimonQueryRunner.create(ImmutableMap.<String, String>builder()
                .put("paimon.warehouse", warehouse())
                .putAll(catalog)
                .buildOrThrow(), DATABASE);
        try {
            queryRunner.createCatalog("lake", "paimon", ImmutableMap.<String, String>builder()
                    .put("paimon.warehouse", "viewfs://lake/warehouse")
                    .putAll(catalog)
                    .buildOrThrow());
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    private String warehouse()
    {
        return cluster.uri() + "/warehouse";
    }

    private void createTables()
    {
        createOrders(paimon, DATABASE, "orders");

        Table partial = paimon.createTable(DATABASE, "partial", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .build());
        PaimonJavaCatalog.write(partial, List.of(GenericRow.of(1, BinaryString.fromString("a1"), null), GenericRow.of(2, null, BinaryString.fromString("b2"))));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "partial"), List.of(GenericRow.of(1, null, BinaryString.fromString("b1")), GenericRow.of(2, BinaryString.fromString("a2"), null)));

        Table totals = paimon.createTable(DATABASE, "totals", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .column("biggest", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.biggest.aggregate-function", "max")
                .build());
        PaimonJavaCatalog.write(totals, List.of(GenericRow.of(1, 10L, 3), GenericRow.of(2, 20L, 9)));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "totals"), List.of(GenericRow.of(1, 5L, 7), GenericRow.of(3, 7L, 1)));

        Table firstRow = paimon.createTable(DATABASE, "first_row", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "first-row")
                .build());
        PaimonJavaCatalog.write(firstRow, List.of(GenericRow.of(1, BinaryString.fromString("first")), GenericRow.of(2, BinaryString.fromString("first"))));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "first_row"), List.of(GenericRow.of(1, BinaryString.fromString("second")), GenericRow.of(3, BinaryString.fromString("second"))));

        // each file format, with deletion vectors (Paimon Java's lookup compaction marks the rows the second commit replaces)
        for (String format : List.of("parquet", "orc", "avro")) {
            String name = "dv_" + format;
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("file.format", format)
                    .option("deletion-vectors.enabled", "true")
                    .build());
            for (int commit = 0; commit < DV_COMMITS; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int id = commit * 50; id < commit * 50 + 100; id++) {
                    rows.add(GenericRow.of(id, BinaryString.fromString(format + commit)));
                }
                PaimonJavaCatalog.write(paimon.getTable(DATABASE, name), rows);
            }
        }

        for (String table : List.of("race", "maintained")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("k", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("k")
                    .option("bucket", "2")
                    .option("snapshot.num-retained.min", "1")
                    // the race is between commits of new rows: a compaction Paimon Java's writer ran beside them would
                    // give up on its own when a Trino commit lands first ("File deletion conflicts"), after its rows did
                    .option("write-only", String.valueOf(table.equals("race")))
                    .build());
        }
    }

    @AfterAll
    void closeFixtures()
            throws Exception
    {
        try (PaimonJavaCatalog _ = paimon) {
            fileSystemFactory.close();
        }
        finally {
            deleteRecursively(configDirectory, ALLOW_INSECURE);
        }
    }

    @Test
    void readsWhatPaimonJavaWroteOnHdfs()
    {
        assertThat(rows("orders")).containsExactly(
                "(2026-11-01, 1, apple, 1.50)",
                "(2026-11-01, 2, pear, 3.00)",
                "(2026-11-02, 4, fig, 10.00)",
                "(2026-11-02, 5, kiwi, 0.42)");
        assertThat(rows("partial")).containsExactly("(1, a1, b1)", "(2, a2, b2)");
        assertThat(rows("totals")).containsExactly("(1, 15, 7)", "(2, 20, 9)", "(3, 7, 1)");
        assertThat(rows("first_row")).containsExactly("(1, first)", "(2, first)", "(3, second)");
        for (String table : List.of("orders", "partial", "totals", "first_row")) {
            assertThat(rows(table)).as(table).isEqualTo(RowText.paimonText(paimonTable(table)));
        }
        assertThat(computeActual("SELECT id FROM orders WHERE dt = '2026-11-02'").getOnlyColumnAsSet()).containsExactlyInAnyOrder(4L, 5L);
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders", "partial", "totals", "first_row");
    }

    @Test
    void readsEachFileFormatWithDeletionVectorsOnHdfs()
    {
        for (String format : List.of("parquet", "orc", "avro")) {
            String table = "dv_" + format;
            // commit c wrote ids [50c, 50c + 100): id was last written by commit min(id / 50, last)
            List<String> expected = new ArrayList<>();
            for (int id = 0; id < (DV_COMMITS - 1) * 50 + 100; id++) {
                expected.add("(%s, %s%s)".formatted(id, format, Math.min(id / 50, DV_COMMITS - 1)));
            }
            expected.sort(null);
            assertThat(files(table)).as(table)
                    .anyMatch(name -> name.startsWith("index/"))
                    .anyMatch(name -> name.endsWith("." + format));
            assertThat(rows(table)).as(table).isEqualTo(expected);
            assertThat(RowText.paimonText(paimonTable(table))).as(table).isEqualTo(expected);
        }
    }

    @Test
    void writesUpdatesAndMergesAreReadBackByPaimonJava()
    {
        assertUpdate("CREATE TABLE written (id bigint, name varchar, score double) WITH (primary_key = ARRAY['id'], bucket = 2)");
        assertUpdate("INSERT INTO written VALUES (1, 'a', 1.5), (2, 'b', 2.5), (3, 'c', 3.5)", 3);
        assertUpdate("UPDATE written SET score = score * 10 WHERE id = 2", 1);
        assertUpdate("DELETE FROM written WHERE id = 3", 1);
        assertUpdate("MERGE INTO written t USING (VALUES (1, 'A'), (4, 'd')) s(id, name) ON t.id = s.id " +
                "WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, 0.5)", 2);
        List<String> expected = List.of("(1, A, 1.5)", "(2, b, 25.0)", "(4, d, 0.5)");
        assertThat(rows("written")).isEqualTo(expected);
        assertThat(RowText.paimonText(paimonTable("written"))).isEqualTo(expected);
        assertThat(files("written")).contains("snapshot/snapshot-1", "snapshot/snapshot-4", "snapshot/LATEST", "schema/schema-0")
                .noneMatch(name -> name.endsWith(".tmp"));
        assertThat(check("written")).isEmpty();

        // Paimon Java writes on top of ours, and both read the same rows
        PaimonJavaCatalog.write(paimonTable("written"), List.of(GenericRow.of(5L, BinaryString.fromString("e"), 5.5)));
        assertThat(rows("written")).contains("(5, e, 5.5)").hasSize(4);
        assertThat(rows("written")).isEqualTo(RowText.paimonText(paimonTable("written")));

        assertUpdate("INSERT INTO orders VALUES ('2026-11-03', 6, 'lime', 12.34), ('2026-11-01', 1, 'apple', 1.75)", 2);
        assertThat(rows("orders")).isEqualTo(RowText.paimonText(paimonTable("orders")));
        assertThat(rows("orders")).contains("(2026-11-03, 6, lime, 12.34)", "(2026-11-01, 1, apple, 1.75)");
        assertUpdate("DROP TABLE written");
        assertThat(files("written")).isEmpty();
    }

    @Test
    void optimizeExpireAndRemoveOrphanFilesOnHdfs()
            throws IOException
    {
        for (int commit = 0; commit < 4; commit++) {
            assertUpdate("INSERT INTO maintained VALUES (%s, 'v%s'), (%s, 'w%s')".formatted(commit, commit, commit + 100, commit), 2);
        }
        assertUpdate("UPDATE maintained SET v = 'updated' WHERE k = 0", 1);
        List<String> expected = List.of("(0, updated)", "(1, v1)", "(100, w0)", "(101, w1)", "(102, w2)", "(103, w3)", "(2, v2)", "(3, v3)");
        assertThat(rows("maintained")).isEqualTo(expected);

        assertUpdate("ALTER TABLE maintained EXECUTE optimize");
        assertThat(rows("maintained")).isEqualTo(expected);
        assertThat(RowText.paimonText(paimonTable("maintained"))).isEqualTo(expected);
        long latest = snapshots("maintained").latestSnapshotId().orElseThrow();

        assertUpdate("ALTER TABLE maintained EXECUTE expire_snapshots(retention_threshold => '0s')");
        assertThat(files("maintained").stream().filter(name -> name.startsWith("snapshot/snapshot-"))).containsExactly("snapshot/snapshot-" + latest);
        assertThat(rows("maintained")).isEqualTo(expected);
        assertThat(RowText.paimonText(paimonTable("maintained"))).isEqualTo(expected);

        // a data file no snapshot references, last modified long ago, as a failed writer leaves it
        FileSystem hdfs = cluster.fileSystem();
        Path orphan = new Path(tableLocation("maintained").appendPath("bucket-0/data-orphan.parquet").toString());
        try (var output = hdfs.create(orphan, false)) {
            output.write(new byte[] {1, 2, 3});
        }
        long longAgo = System.currentTimeMillis() - DAYS.toMillis(30);
        hdfs.setTimes(orphan, longAgo, longAgo);
        assertThat(files("maintained")).contains("bucket-0/data-orphan.parquet");
        assertUpdate("ALTER TABLE maintained EXECUTE remove_orphan_files(retention_threshold => '1d')");
        assertThat(files("maintained")).doesNotContain("bucket-0/data-orphan.parquet");
        assertThat(rows("maintained")).isEqualTo(expected);
        assertThat(check("maintained")).isEmpty();
    }

    /**
     * Trino and Paimon Java commit to one table at the same time, each through HDFS's rename that refuses an
     * existing target: every commit lands once or fails cleanly (Trino's with TRANSACTION_CONFLICT when Paimon
     * Java's commit wrote one of its buckets), and the table holds exactly the rows of the commits that landed.
     */
    @Test
    void trinoAndPaimonJavaCommitToOneTableAtOnce()
            throws Exception
    {
        int commits = 6;
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            Future<List<Integer>> trino = executor.submit(() -> {
                List<Integer> landed = new ArrayList<>();
                for (int commit = 0; commit < commits; commit++) {
                    try {
                        getQueryRunner().execute("INSERT INTO race VALUES (%s, 'trino')".formatted(commit));
                        landed.add(commit);
                    }
                    catch (RuntimeException e) {
                        assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
                    }
                }
                return landed;
            });
            Future<List<Integer>> paimonJava = executor.submit(() -> {
                List<Integer> landed = new ArrayList<>();
                for (int commit = 0; commit < commits; commit++) {
                    int key = 1000 + commit;
                    PaimonJavaCatalog.write(paimonTable("race"), List.of(GenericRow.of(key, BinaryString.fromString("paimon"))));
                    landed.add(key);
                }
                return landed;
            });
            List<String> expected = new ArrayList<>();
            trino.get().forEach(key -> expected.add("(%s, trino)".formatted(key)));
            paimonJava.get().forEach(key -> expected.add("(%s, paimon)".formatted(key)));
            expected.sort(null);

            assertThat(trino.get()).as("Trino's commits that landed").isNotEmpty();
            assertThat(rows("race")).isEqualTo(expected);
            assertThat(RowText.paimonText(paimonTable("race"))).isEqualTo(expected);
            // one APPEND snapshot per commit that landed, numbered without a gap (Paimon Java's writer adds COMPACT ones)
            SnapshotFiles snapshots = snapshots("race");
            long latest = snapshots.latestSnapshotId().orElseThrow();
            assertThat(snapshots.listSnapshotIds()).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, latest).boxed().toList());
            assertThat(LongStream.rangeClosed(1, latest).filter(id -> snapshots.readSnapshot(id).commitKind() == Snapshot.CommitKind.APPEND).count())
                    .isEqualTo(trino.get().size() + paimonJava.get().size());
            assertThat(files("race")).noneMatch(name -> name.endsWith(".tmp"));
            assertThat(check("race")).isEmpty();
        }
        finally {
            executor.shutdownNow();
        }
    }

    @Test
    void viewfsMountReadsAndWritesTheSameWarehouse()
    {
        Session lake = testSessionBuilder().setCatalog("lake").setSchema(DATABASE).build();
        assertThat(RowText.paimonText(computeActual(lake, "SELECT * FROM totals"))).containsExactly("(1, 15, 7)", "(2, 20, 9)", "(3, 7, 1)");
        getQueryRunner().execute(lake, "CREATE TABLE through_viewfs (k int, v varchar) WITH (primary_key = ARRAY['k'], bucket = 1)");
        getQueryRunner().execute(lake, "INSERT INTO through_viewfs VALUES (1, 'one'), (2, 'two')");
        getQueryRunner().execute(lake, "UPDATE through_viewfs SET v = 'TWO' WHERE k = 2");
        assertThat(rows("through_viewfs")).containsExactly("(1, one)", "(2, TWO)");
        assertThat(RowText.paimonText(paimonTable("through_viewfs"))).containsExactly("(1, one)", "(2, TWO)");
        getQueryRunner().execute(lake, "DROP TABLE through_viewfs");
        assertThat(files("through_viewfs")).isEmpty();
    }

    /**
     * The cluster's only DataNode is stopped while an INSERT's first file is on its way to it (the DataNode holds
     * the first packet it receives until the test has stopped it): the statement fails with the file system's error
     * within the client's socket timeout, publishes no snapshot, and once the DataNode is back the table reads as
     * before, in Trino and in Paimon Java, and takes the next INSERT.
     */
    @Test
    void dataNodeStoppedMidWriteFailsTheInsertCleanly()
            throws Exception
    {
        assertUpdate("CREATE TABLE outage (k int, v varchar) WITH (primary_key = ARRAY['k'], bucket = 1)");
        assertUpdate("INSERT INTO outage VALUES (1, 'before')", 1);
        long snapshot = snapshots("outage").latestSnapshotId().orElseThrow();

        MiniDFSCluster miniCluster = cluster.cluster();
        HoldFirstPacket holdFirstPacket = new HoldFirstPacket();
        DataNodeFaultInjector previous = DataNodeFaultInjector.get();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        MiniDFSCluster.DataNodeProperties dataNode = null;
        try {
            DataNodeFaultInjector.set(holdFirstPacket);
            Future<?> insert = executor.submit(() -> getQueryRunner().execute("INSERT INTO outage SELECT k, 'during' FROM UNNEST(sequence(2, 1000)) t(k)"));
            assertThat(holdFirstPacket.received.await(60, SECONDS)).as("the INSERT's first packet reached the DataNode").isTrue();
            dataNode = miniCluster.stopDataNode(0);
            holdFirstPacket.release.countDown();
            assertThatThrownBy(() -> insert.get(60, SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .hasMessageContaining("outage");
        }
        finally {
            holdFirstPacket.release.countDown();
            DataNodeFaultInjector.set(previous);
            executor.shutdownNow();
            if (dataNode != null) {
                miniCluster.restartDataNode(dataNode, true);
                miniCluster.waitActive();
            }
        }
        assertThat(snapshots("outage").latestSnapshotId()).hasValue(snapshot);
        assertThat(rows("outage")).containsExactly("(1, before)");
        assertThat(RowText.paimonText(paimonTable("outage"))).containsExactly("(1, before)");
        assertUpdate("INSERT INTO outage VALUES (3, 'after')", 1);
        assertThat(rows("outage")).containsExactly("(1, before)", "(3, after)");
        assertThat(RowText.paimonText(paimonTable("outage"))).containsExactly("(1, before)", "(3, after)");
        assertUpdate("DROP TABLE outage");
    }

    /** Holds the first packet a DataNode receives, before it writes it, until released (or interrupted by the DataNode's shutdown). */
    private static final class HoldFirstPacket
            extends DataNodeFaultInjector
    {
        private final CountDownLatch received = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean held = new AtomicBoolean();

        @Override
        public void delayWriteToDisk()
        {
            if (!held.compareAndSet(false, true)) {
                return;
            }
            received.countDown();
            try {
                release.await(60, SECONDS);
            }
            catch (InterruptedException _) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private List<String> rows(String table)
    {
        return RowText.paimonText(computeActual("SELECT * FROM " + table));
    }

    private Table paimonTable(String table)
    {
        return paimon.getTable(DATABASE, table);
    }

    private List<String> check(String table)
    {
        List<String> violations = new ArrayList<>(Fsck.check(fileSystem(), tableLocation(table), paimonTable(table)));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable(table)));
        return violations;
    }

    private SnapshotFiles snapshots(String table)
    {
        return new SnapshotFiles(fileSystem(), tableLocation(table));
    }

    private TrinoFileSystem fileSystem()
    {
        return fileSystemFactory.create(ConnectorIdentity.ofUser("test"));
    }

    private Location tableLocation(String table)
    {
        return Location.of(warehouse()).appendPath(DATABASE + ".db").appendPath(table);
    }

    /** The table's files on the cluster, by path relative to the table's folder, as HDFS's own client lists them. */
    private List<String> files(String table)
    {
        FileSystem hdfs = cluster.fileSystem();
        Path folder = new Path(tableLocation(table).toString());
        List<String> files = new ArrayList<>();
        try {
            if (!hdfs.exists(folder)) {
                return files;
            }
            String prefix = hdfs.makeQualified(folder).toUri().getPath() + "/";
            RemoteIterator<LocatedFileStatus> iterator = hdfs.listFiles(folder, true);
            while (iterator.hasNext()) {
                files.add(iterator.next().getPath().toUri().getPath().substring(prefix.length()));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
