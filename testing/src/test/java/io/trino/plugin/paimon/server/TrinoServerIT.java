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

import com.google.common.collect.ImmutableMap;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.jdbc.TrinoStatement;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.HdfsCluster;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import static com.google.common.collect.Iterables.getOnlyElement;
import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The plugin as users run it: stock Trino 476 from the server tarball, the plugin folder from plugin-assembly in
 * {@code plugin/paimon}, queried over JDBC. Only here does the plugin run in its own class loader, so a jar missing
 * from the plugin folder shows up here and nowhere else. The cluster is two processes, a coordinator that runs no
 * tasks and one worker ({@link TrinoCluster}), so splits, page sinks and their fragments cross between nodes as they
 * do in production. Beside {@code paimon} over a local warehouse, catalog {@code paimon_jdbc} keeps its tables in a
 * SQLite file, and catalog {@code hdfs} serves a warehouse on HDFS as the README's HDFS section configures it, Hadoop's
 * client running in the plugin's own class loader on both nodes (the NameNode and DataNode run in this test's JVM,
 * {@link HdfsCluster}). One cluster for the whole class.
 */
@TestInstance(PER_CLASS)
final class TrinoServerIT
{
    private static final String JDBC_WAREHOUSE = "jdbc-warehouse";

    private Path localRoot;
    private PaimonJavaCatalog hdfsPaimon;
    private TrinoCluster server;

    @BeforeAll
    void startCluster()
            throws Exception
    {
        localRoot = Files.createTempDirectory("trino-paimon-it");
        DemoWarehouse.create(localRoot);
        Files.createDirectories(localRoot.resolve(JDBC_WAREHOUSE));
        // a second catalog, whose tables are rows of Paimon's catalog tables in a SQLite file: the driver and its
        // native library load inside the plugin's class loader, on both nodes
        Path jdbcCatalog = Files.writeString(localRoot.resolve("paimon_jdbc.properties"), """
                connector.name=paimon
                paimon.catalog.type=jdbc
                paimon.jdbc.uri=%s
                paimon.warehouse=local:///%s
                fs.native-local.enabled=true
                local.location=%s
                """.formatted(sqliteUri(), JDBC_WAREHOUSE, localRoot));
        server = TrinoCluster.start(Path.of(System.getProperty("repository.root")).toRealPath(), localRoot, List.of(jdbcCatalog, createHdfsWarehouse()));
    }

    /** Paimon Java writes {@code lake.orders} into a warehouse on HDFS; returns the catalog file of {@code hdfs} over it. */
    private Path createHdfsWarehouse()
            throws Exception
    {
        HdfsCluster cluster = HdfsCluster.shared();
        String warehouse = cluster.uri() + "/server-warehouse";
        Path coreSite = HdfsCluster.writeConfigurationFile(localRoot.resolve("core-site.xml"), ImmutableMap.of("fs.defaultFS", cluster.uri()));
        hdfsPaimon = PaimonJavaCatalog.onHadoop(warehouse, cluster.clientConfiguration());
        hdfsPaimon.createDatabase("lake");
        Table orders = hdfsPaimon.createTable("lake", "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(hdfsRow(1, "apple"), hdfsRow(2, "pear"), hdfsRow(3, "plum")));
        GenericRow deleted = hdfsRow(3, "plum");
        deleted.setRowKind(RowKind.DELETE);
        PaimonJavaCatalog.write(hdfsPaimon.getTable("lake", "orders"), List.of(hdfsRow(2, "PEAR"), deleted));
        return Files.writeString(localRoot.resolve("hdfs.properties"), """
                connector.name=paimon
                paimon.warehouse=%s
                fs.hadoop.enabled=true
                hive.config.resources=%s
                """.formatted(warehouse, coreSite));
    }

    private static GenericRow hdfsRow(int id, String item)
    {
        return GenericRow.of(id, BinaryString.fromString(item));
    }

    @AfterAll
    void stopCluster()
            throws Exception
    {
        try (PaimonJavaCatalog _ = hdfsPaimon) {
            if (server != null) {
                server.close();
            }
        }
        finally {
            if (localRoot != null) {
                deleteRecursively(localRoot, ALLOW_INSECURE);
            }
        }
    }

    @Test
    void pluginIsLoadedAsCatalog()
            throws SQLException
    {
        assertThat(column("SHOW CATALOGS")).contains("paimon", "system");
        assertThat(server.coordinatorLog()).contains("Registering connector paimon");
        assertThat(server.workerLog()).contains("Registering connector paimon");
    }

    @Test
    void listsDatabasesAndTablesPaimonJavaWrote()
            throws SQLException
    {
        assertThat(column("SHOW SCHEMAS FROM paimon")).contains("demo", "information_schema");
        assertThat(column("SHOW TABLES FROM paimon.demo")).containsExactlyInAnyOrder("orders", "customers", "page_views", "events", "accounts");
    }

    @Test
    void describesPaimonJavaTable()
            throws SQLException
    {
        List<String> columns = new ArrayList<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("DESCRIBE paimon.demo.orders")) {
            while (result.next()) {
                columns.add(result.getString(1) + " " + result.getString(2) + " " + result.getString(4));
            }
        }
        assertThat(columns).containsExactly(
                "dt varchar ",
                "order_id bigint order number, unique within a day",
                "customer varchar ",
                "amount decimal(12,2) ",
                "status varchar ",
                "updated_at timestamp(3) ");
    }

    @Test
    void showCreateTableOfAggregationTable()
            throws SQLException
    {
        assertThat(column("SHOW CREATE TABLE paimon.demo.page_views")).containsExactly("""
                CREATE TABLE paimon.demo.page_views (
                   page varchar NOT NULL,
                   views bigint,
                   last_visit timestamp(3)
                )
                COMMENT 'Page views; the aggregation engine sums views and keeps the latest visit'
                WITH (
                   bucket = 1,
                   merge_engine = 'aggregation',
                   options = ARRAY['fields.last_visit.aggregate-function=max','fields.views.aggregate-function=sum','write-only=true'],
                   primary_key = ARRAY['page']
                )""");
    }

    @Test
    void readsManifestsPaimonJavaWrote()
            throws Exception
    {
        // Paimon writes its manifests zstandard-compressed: decoding them in the plugin's own class loader proves
        // the plugin folder carries what it needs
        List<String> expected = new ArrayList<>();
        long snapshots;
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(localRoot.resolve("warehouse"))) {
            FileStoreTable orders = (FileStoreTable) paimon.getTable(DemoWarehouse.DATABASE, "orders");
            orders.store().newScan().plan().files().forEach(entry -> expected.add(entry.file().fileName()));
            snapshots = orders.snapshotManager().snapshotCount();
        }
        expected.sort(null);
        List<String> actual = column("SELECT file_path FROM paimon.demo.\"orders$files\"").stream()
                .map(path -> path.substring(path.lastIndexOf('/') + 1))
                .sorted()
                .toList();
        assertThat(actual).isNotEmpty().isEqualTo(expected);
        assertThat(column("SELECT count(*) FROM paimon.demo.\"orders$snapshots\"")).containsExactly(String.valueOf(snapshots));
    }

    @Test
    void selectMergesSortedRunsAsPaimonJavaDoes()
            throws Exception
    {
        // demo.orders holds three commits (inserts, an update, a delete): several sorted runs per bucket
        List<String> actual = rows("SELECT dt, order_id, customer, amount, status, updated_at FROM paimon.demo.orders", result -> String.join(", ",
                result.getString(1),
                result.getString(2),
                result.getString(3),
                result.getBigDecimal(4).toPlainString(),
                result.getString(5),
                result.getTimestamp(6).toLocalDateTime().toString()));
        List<String> expected = paimonJavaRows("orders");
        assertThat(actual).hasSize(3).isEqualTo(expected);
    }

    @Test
    void selectPartialUpdateTable()
            throws Exception
    {
        List<String> actual = rows("SELECT name, email, city, CAST(date_diff('day', DATE '1970-01-01', signup_date) AS varchar) FROM paimon.demo.customers",
                result -> String.join(", ", result.getString(1), result.getString(2), result.getString(3), result.getString(4)));
        List<String> expected = paimonJavaRows("customers");
        assertThat(actual).hasSize(2).isEqualTo(expected);
    }

    @Test
    void selectAggregationTable()
            throws SQLException
    {
        // page_views: /home 10 + 5 views, latest visit 2026-11-02 09:00; /docs 3 views
        assertThat(column("SELECT page || ' ' || CAST(views AS varchar) || ' ' || CAST(last_visit AS varchar) FROM paimon.demo.page_views ORDER BY page"))
                .containsExactly("/docs 3 2026-11-01 11:00:00.000", "/home 15 2026-11-02 09:00:00.000");
    }

    @Test
    void createsAndDropsSchema()
            throws SQLException
    {
        execute("CREATE SCHEMA paimon.made_by_server");
        assertThat(Files.isDirectory(localRoot.resolve("warehouse/made_by_server.db"))).isTrue();
        execute("DROP SCHEMA paimon.made_by_server");
        assertThat(Files.exists(localRoot.resolve("warehouse/made_by_server.db"))).isFalse();
    }

    @Test
    void insertIntoPrimaryKeyTableOnTheWorker()
            throws Exception
    {
        // demo.accounts: 4 fixed buckets, Paimon Java wrote (1, alice, 100.00) and (2, bob, 20.50); the INSERT
        // replaces bob's row and adds two keys
        String queryId = executeUpdate("INSERT INTO paimon.demo.accounts VALUES (2, 'bob', 75.25), (3, 'carol', 9.99), (4, 'dave', 0.00)", 3);
        assertRanOnTheWorker(queryId);

        List<String> expected = List.of("1, alice, 100.00", "2, bob, 75.25", "3, carol, 9.99", "4, dave, 0.00");
        assertThat(rows("SELECT id, owner, balance FROM paimon.demo.accounts", result -> String.join(", ", result.getString(1), result.getString(2), result.getBigDecimal(3).toPlainString())))
                .isEqualTo(expected);
        assertThat(paimonJavaRows("accounts")).isEqualTo(expected);
    }

    @Test
    void insertIntoAppendTableOnTheWorker()
            throws Exception
    {
        // demo.events: an append table partitioned by event_date, without buckets; 2026-11-03 is a new partition
        String queryId = executeUpdate("""
                INSERT INTO paimon.demo.events VALUES
                    (DATE '2026-11-02', 'login', '{"user": "carol"}'),
                    (DATE '2026-11-03', 'purchase', '{"user": "carol", "amount": 12}')""", 2);
        assertRanOnTheWorker(queryId);

        // dates as days since 1970-01-01 (2026-11-01 is day 20758), as Paimon Java renders them
        List<String> expected = List.of(
                "20758, login, {\"user\": \"alice\"}",
                "20759, login, {\"user\": \"carol\"}",
                "20759, logout, {\"user\": \"bob\"}",
                "20760, purchase, {\"user\": \"carol\", \"amount\": 12}");
        assertThat(rows("SELECT CAST(date_diff('day', DATE '1970-01-01', event_date) AS varchar), kind, payload FROM paimon.demo.events",
                result -> String.join(", ", result.getString(1), result.getString(2), result.getString(3))))
                .isEqualTo(expected);
        assertThat(paimonJavaRows("events")).isEqualTo(expected);
    }

    /**
     * The JDBC catalog in a real server: Trino creates a schema and a table, which Paimon Java's {@code JdbcCatalog}
     * finds registered in the SQLite file and reads back; Trino writes on the worker and commits on the coordinator
     * under Paimon's lock row.
     */
    @Test
    void jdbcCatalogOnSqlite()
            throws Exception
    {
        execute("CREATE SCHEMA paimon_jdbc.lake");
        execute("CREATE TABLE paimon_jdbc.lake.items (id integer, name varchar) WITH (primary_key = ARRAY['id'], bucket = 2)");
        String queryId = executeUpdate("INSERT INTO paimon_jdbc.lake.items VALUES (1, 'one'), (2, 'two'), (3, 'three')", 3);
        assertRanOnTheWorker(queryId);
        executeUpdate("UPDATE paimon_jdbc.lake.items SET name = 'TWO' WHERE id = 2", 1);
        assertThat(rows("SELECT id, name FROM paimon_jdbc.lake.items", result -> result.getInt(1) + ", " + result.getString(2)))
                .containsExactly("1, one", "2, TWO", "3, three");
        assertThat(column("SHOW TABLES FROM paimon_jdbc.lake")).containsExactly("items");

        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.withOptions(localRoot.resolve(JDBC_WAREHOUSE), Map.of("metastore", "jdbc", "uri", sqliteUri(), "lock.enabled", "true"))) {
            assertThat(paimon.listTables("lake")).containsExactly("items");
            assertThat(PaimonJavaCatalog.readRows(paimon.getTable("lake", "items")).stream().sorted().toList())
                    .containsExactly("+I(1, one)", "+I(3, three)", "+U(2, TWO)");
        }
    }

    /** The warehouse on HDFS: what Paimon Java wrote is read, changed on the worker, and read back by Paimon Java. */
    @Test
    void readsAndWritesAWarehouseOnHdfs()
            throws Exception
    {
        try (Connection connection = server.connect()) {
            assertThat(rows(connection, "SELECT id, item FROM hdfs.lake.orders ORDER BY id", 2)).containsExactly("1 apple", "2 PEAR");
        }
        assertRanOnTheWorker(executeUpdate("INSERT INTO hdfs.lake.orders VALUES (4, 'fig'), (1, 'APPLE')", 2));
        assertRanOnTheWorker(executeUpdate("UPDATE hdfs.lake.orders SET item = 'kiwi' WHERE id = 2", 1));
        try (Connection connection = server.connect()) {
            assertThat(rows(connection, "SELECT id, item FROM hdfs.lake.orders ORDER BY id", 2)).containsExactly("1 APPLE", "2 kiwi", "4 fig");
        }
        assertThat(RowText.paimonText(hdfsPaimon.getTable("lake", "orders"))).containsExactly("(1, APPLE)", "(2, kiwi)", "(4, fig)");
        assertThat(server.coordinatorLog()).doesNotContain("ClassNotFoundException", "No FileSystem for scheme");
        assertThat(server.workerLog()).doesNotContain("ClassNotFoundException", "No FileSystem for scheme");
    }

    private String sqliteUri()
    {
        return "jdbc:sqlite:" + localRoot.resolve("catalog.sqlite");
    }

    /**
     * T7 of reliability.md: the whole cluster killed with SIGKILL while an INSERT ... SELECT of two million rows runs.
     * After a restart the table holds what it held before or all of the statement's rows, never a part; Paimon Java
     * reads it as Trino does, {@code Fsck} finds its snapshots, manifests and live files intact (files the killed
     * statement wrote may be left as orphans, which no snapshot refers to, and {@code remove_orphan_files} removes all
     * of them), and the next INSERT lands. The moment of the kill is random, its seed printed.
     */
    @Test
    void killedInsertIsAllOrNothing()
            throws Exception
    {
        execute("CREATE SCHEMA paimon.crash");
        execute("CREATE TABLE paimon.crash.killed (id bigint, v varchar) WITH (primary_key = ARRAY['id'], bucket = 4)");
        executeUpdate("INSERT INTO paimon.crash.killed SELECT x, 'before' FROM UNNEST(sequence(1, 1000)) t(x)", 1000);
        long seed = Long.getLong("paimon.test.seed", new Random().nextLong());
        System.out.printf("killedInsertIsAllOrNothing seed=%s (-Dpaimon.test.seed=%s)%n", seed, seed);
        Random random = new Random(seed);

        AtomicReference<String> queryId = new AtomicReference<>();
        // the statement gets a thread of its own: its client blocks, retrying, until the restarted coordinator answers
        // or its request timeout (minutes) passes, and on the common pool (one thread on two cores) it would hold up
        // every other task given to the pool meanwhile
        ExecutorService client = Executors.newSingleThreadExecutor();
        Future<Long> insert = client.submit(() -> {
            try (Connection connection = server.connect();
                    Statement statement = connection.createStatement()) {
                statement.unwrap(TrinoStatement.class).setProgressMonitor(stats -> queryId.compareAndSet(null, stats.getQueryId()));
                return statement.executeLargeUpdate("""
                        INSERT INTO paimon.crash.killed
                        SELECT 1000000 + a * 1000 + b, 'after' FROM UNNEST(sequence(1, 2000)) x(a) CROSS JOIN UNNEST(sequence(1, 1000)) y(b)""");
            }
            catch (SQLException e) {
                return -1L;
            }
        });
        client.shutdown();
        // the statement is running (or already done): kill within the next 0.2 to 3 seconds
        while (queryId.get() == null && !insert.isDone()) {
            Thread.sleep(50);
        }
        Thread.sleep(200 + random.nextInt(2800));
        boolean finishedBeforeKill = insert.isDone();
        server.kill();
        // restarted first: the client of the killed statement keeps retrying its requests for a while before it gives up
        server = server.restart(Path.of(System.getProperty("repository.root")).toRealPath(), localRoot);
        // the launcher kept the killed coordinator's log beside the new one
        assertThat(server.previousCoordinatorLog()).contains("SERVER STARTED");
        assertThat(server.coordinatorLog()).contains("SERVER STARTED");
        long reported = insert.get();
        System.out.printf("killedInsertIsAllOrNothing: statement %s before the kill, reported %s rows%n", finishedBeforeKill ? "finished" : "still running", reported);
        long count = Long.parseLong(column("SELECT count(*) FROM paimon.crash.killed").getFirst());
        assertThat(count).isIn(1000L, 2_001_000L);
        if (reported == 2_000_000L) {
            assertThat(count).isEqualTo(2_001_000L);
        }
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(localRoot.resolve("warehouse"))) {
            FileStoreTable table = (FileStoreTable) paimon.getTable("crash", "killed");
            assertThat(PaimonJavaCatalog.readRows(table)).hasSize((int) count);
            assertThat(Fsck.check(new LocalFileSystem(localRoot), Location.of("local:///warehouse/crash.db/killed"), table)).isEmpty();
        }
        // the files the killed statement left are orphans: remove_orphan_files (its floor lowered) removes every one
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION paimon.remove_orphan_files_min_retention = '0s'");
            statement.execute("ALTER TABLE paimon.crash.killed EXECUTE remove_orphan_files(retention_threshold => '0s')");
        }
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(localRoot.resolve("warehouse"))) {
            FileStoreTable table = (FileStoreTable) paimon.getTable("crash", "killed");
            long future = System.currentTimeMillis() + 86_400_000L;
            assertThat(new LocalOrphanFilesClean(table, future, true).clean().getDeletedFilesPath()).isEmpty();
            assertThat(PaimonJavaCatalog.readRows(table)).hasSize((int) count);
        }
        executeUpdate("INSERT INTO paimon.crash.killed VALUES (1, 'next')", 1);
        assertThat(column("SELECT v FROM paimon.crash.killed WHERE id = 1")).containsExactly("next");
        assertThat(column("SELECT count(*) FROM paimon.crash.killed")).containsExactly(String.valueOf(count));
    }

    /**
     * The query's work ran on the worker: the coordinator ran only the root stage (the commit, Trino's table-finish
     * fragment, which is coordinator-only), every other task, the page sinks' among them, ran on the worker, so the
     * files' descriptions travelled to the coordinator as fragments.
     */
    private void assertRanOnTheWorker(String queryId)
            throws SQLException
    {
        String workerNodeId = server.workerNodeId();
        String coordinatorNodeId = server.coordinatorNodeId();
        assertThat(workerNodeId).isNotEqualTo(coordinatorNodeId);
        List<String> tasks = rows("SELECT node_id, stage_id FROM system.runtime.tasks WHERE query_id = '%s'".formatted(queryId),
                result -> (result.getString(1).equals(workerNodeId) ? "worker " : result.getString(1).equals(coordinatorNodeId) ? "coordinator " : "unknown ")
                        + (result.getString(2).equals(queryId + ".0") ? "root" : "other"));
        assertThat(tasks).contains("coordinator root", "worker other").allMatch(task -> task.equals("coordinator root") || task.equals("worker other"));
    }

    /** Runs an INSERT, checks its row count, and returns its query id. */
    private String executeUpdate(String sql, long expectedRows)
            throws SQLException
    {
        AtomicReference<String> queryId = new AtomicReference<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            statement.unwrap(TrinoStatement.class).setProgressMonitor(stats -> queryId.set(stats.getQueryId()));
            assertThat(statement.executeLargeUpdate(sql)).isEqualTo(expectedRows);
        }
        assertThat(queryId.get()).isNotNull();
        return queryId.get();
    }

    /** The rows Paimon Java reads from a demo table, values only, sorted. */
    private List<String> paimonJavaRows(String table)
    {
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(localRoot.resolve("warehouse"))) {
            return PaimonJavaCatalog.readRows(paimon.getTable(DemoWarehouse.DATABASE, table)).stream()
                    .map(row -> row.substring(3, row.length() - 1))
                    .sorted()
                    .toList();
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /**
     * What Superset sends through the Trino SQLAlchemy dialect (trino-python-client's {@code trino/sqlalchemy/dialect.py})
     * when it connects with {@code trino://…/paimon/demo} and a user opens a table in SQL Lab: catalogs, schemas, tables,
     * views, columns, the table comment, the partition listing its {@code get_indexes} reads as partition keys, and the
     * latest-partition query and preview of Superset's {@code PrestoBaseEngineSpec}.
     */
    @Test
    void answersSupersetIntrospection()
            throws Exception
    {
        try (Connection connection = server.connect()) {
            connection.setSchema("demo");
            assertThat(column(connection, "SELECT \"table_cat\" FROM \"system\".\"jdbc\".\"catalogs\"")).contains("paimon");
            assertThat(column(connection, "SELECT \"schema_name\" FROM \"information_schema\".\"schemata\"")).contains("demo", "information_schema");
            assertThat(column(connection, "SELECT \"table_name\" FROM \"information_schema\".\"tables\" WHERE \"table_schema\" = 'demo' AND \"table_type\" = 'BASE TABLE'"))
                    .containsExactlyInAnyOrder("orders", "customers", "page_views", "events", "accounts");
            assertThat(column(connection, "SELECT \"table_name\" FROM \"information_schema\".\"tables\" WHERE \"table_schema\" = 'demo' AND \"table_type\" = 'VIEW'")).isEmpty();
            assertThat(column(connection, "SELECT \"table_name\" FROM \"information_schema\".\"tables\" WHERE \"table_schema\" = 'demo' AND \"table_name\" = 'orders'")).containsExactly("orders");
            assertThat(rows(connection, """
                    SELECT "column_name", "data_type", "column_default", UPPER("is_nullable") AS "is_nullable"
                    FROM "information_schema"."columns"
                    WHERE "table_schema" = 'demo' AND "table_name" = 'orders'
                    ORDER BY "ordinal_position" ASC""", 4)).containsExactly(
                    "dt varchar null NO",
                    "order_id bigint null NO",
                    "customer varchar null YES",
                    "amount decimal(12,2) null YES",
                    "status varchar null YES",
                    "updated_at timestamp(3) null YES");
            assertThat(column(connection, """
                    SELECT "comment" FROM "system"."metadata"."table_comments"
                    WHERE "catalog_name" = 'paimon' AND "schema_name" = 'demo' AND "table_name" = 'orders'"""))
                    .containsExactly("Orders; each commit is a new sorted run, merged at read time");

            // get_indexes: every column of SELECT * is taken for a partition key; an unpartitioned table must fail
            // here (the dialect then reports no partitions) rather than offer its counts as keys
            try (Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT * FROM demo.\"orders$partitions\"")) {
                assertThat(result.getMetaData().getColumnCount()).isEqualTo(1);
                assertThat(result.getMetaData().getColumnName(1)).isEqualTo("dt");
            }
            assertThatThrownBy(() -> column(connection, "SELECT * FROM demo.\"customers$partitions\""))
                    .hasMessageContaining("SELECT * not allowed from relation that has no columns");

            // latest_partition, then the preview of the latest partition Superset builds from it
            String latest = getOnlyElement(column(connection, "SELECT * FROM demo.\"orders$partitions\" ORDER BY dt DESC LIMIT 1"));
            assertThat(latest).isEqualTo("2026-11-02");
            List<String> preview = rows(connection, "SELECT dt, order_id, customer, amount, status FROM demo.orders WHERE dt = '%s' LIMIT 100".formatted(latest), 5);
            List<String> expected = paimonJavaRows("orders").stream()
                    .filter(row -> row.startsWith(latest + ", "))
                    .map(row -> row.substring(0, row.lastIndexOf(", ")).replace(", ", " "))
                    .toList();
            assertThat(preview).hasSize(2).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(column(connection, "SELECT version()")).containsExactly(System.getProperty("paimon.trino.version", "476"));
        }
    }

    /** What Metabase's Starburst (Trino) driver sends to sync a database ({@code implementation/sync.clj}). */
    @Test
    void answersMetabaseSync()
            throws Exception
    {
        try (Connection connection = server.connect()) {
            assertThat(column(connection, "SHOW SCHEMAS FROM \"paimon\"")).contains("demo");
            assertThat(column(connection, "SHOW TABLES FROM \"paimon\".\"demo\"")).containsExactlyInAnyOrder("orders", "customers", "page_views", "events", "accounts");
            assertThat(column(connection, "SHOW TABLES FROM \"demo\" LIKE 'page_views'")).containsExactly("page_views");
            assertThat(rows(connection, "DESCRIBE \"paimon\".\"demo\".\"page_views\"", 2)).containsExactly(
                    "page varchar",
                    "views bigint",
                    "last_visit timestamp(3)");
            assertThat(column(connection, "SELECT current_timezone() as \"time-zone\"")).hasSize(1);
        }
    }

    /** What DBeaver (and every JDBC tool) asks through {@link DatabaseMetaData} to draw its navigator. */
    @Test
    void answersJdbcDatabaseMetaData()
            throws Exception
    {
        try (Connection connection = server.connect()) {
            DatabaseMetaData metaData = connection.getMetaData();
            assertThat(values(metaData.getCatalogs(), "TABLE_CAT")).contains("paimon");
            assertThat(values(metaData.getSchemas("paimon", null), "TABLE_SCHEM")).contains("demo");
            assertThat(values(metaData.getTables("paimon", "demo", "%", new String[] {"TABLE"}), "TABLE_NAME"))
                    .containsExactlyInAnyOrder("orders", "customers", "page_views", "events", "accounts");
            List<String> columns = new ArrayList<>();
            try (ResultSet result = metaData.getColumns("paimon", "demo", "orders", "%")) {
                while (result.next()) {
                    columns.add("%s %s %s %s".formatted(result.getString("COLUMN_NAME"), result.getString("TYPE_NAME"), result.getString("IS_NULLABLE"), result.getString("REMARKS")));
                }
            }
            assertThat(columns).containsExactly(
                    "dt varchar NO null",
                    "order_id bigint NO order number, unique within a day",
                    "customer varchar YES null",
                    "amount decimal(12,2) YES null",
                    "status varchar YES null",
                    "updated_at timestamp(3) YES null");
            assertThat(values(metaData.getPrimaryKeys("paimon", "demo", "orders"), "COLUMN_NAME")).isEmpty();
        }
    }

    private static List<String> values(ResultSet result, String column)
            throws SQLException
    {
        try (result) {
            List<String> values = new ArrayList<>();
            while (result.next()) {
                values.add(result.getString(column));
            }
            return values;
        }
    }

    /** The query's rows, the first {@code columns} columns joined by spaces, in the order returned. */
    private static List<String> rows(Connection connection, String sql, int columns)
            throws SQLException
    {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(String.valueOf(result.getString(i)));
                }
                rows.add(String.join(" ", values));
            }
        }
        return rows;
    }

    private static List<String> column(Connection connection, String sql)
            throws SQLException
    {
        return rows(connection, sql, 1);
    }

    private interface RowRenderer
    {
        String render(ResultSet result)
                throws SQLException;
    }

    /** The query's rows, each rendered to text, sorted. */
    private List<String> rows(String sql, RowRenderer renderer)
            throws SQLException
    {
        List<String> rows = new ArrayList<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(renderer.render(result));
            }
        }
        rows.sort(null);
        return rows;
    }

    private List<String> column(String sql)
            throws SQLException
    {
        List<String> values = new ArrayList<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                values.add(result.getString(1));
            }
        }
        return values;
    }

    private void execute(String sql)
            throws SQLException
    {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
