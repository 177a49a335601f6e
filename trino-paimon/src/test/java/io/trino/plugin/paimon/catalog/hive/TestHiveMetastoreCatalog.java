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
package io.trino.plugin.paimon.catalog.hive;

import com.google.common.collect.ImmutableMap;
import io.airlift.units.Duration;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.plugin.hive.metastore.thrift.DefaultThriftMetastoreClientFactory;
import io.trino.plugin.hive.metastore.thrift.IdentityAwareMetastoreClientFactory;
import io.trino.plugin.hive.metastore.thrift.NoHiveMetastoreAuthentication;
import io.trino.plugin.hive.metastore.thrift.StaticMetastoreConfig;
import io.trino.plugin.hive.metastore.thrift.StaticTokenAwareMetastoreClientFactory;
import io.trino.plugin.hive.metastore.thrift.ThriftHiveMetastoreFactory;
import io.trino.plugin.hive.metastore.thrift.ThriftMetastoreAuthenticationConfig;
import io.trino.plugin.hive.metastore.thrift.ThriftMetastoreClient;
import io.trino.plugin.hive.metastore.thrift.ThriftMetastoreConfig;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.catalog.CatalogLocations;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.testing.HiveMetastoreServer;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.spi.catalog.CatalogName;
import io.trino.spi.connector.SchemaTableName;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.LockComponent;
import org.apache.hadoop.hive.metastore.api.LockLevel;
import org.apache.hadoop.hive.metastore.api.LockRequest;
import org.apache.hadoop.hive.metastore.api.LockResponse;
import org.apache.hadoop.hive.metastore.api.LockState;
import org.apache.hadoop.hive.metastore.api.LockType;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.ShowLocksRequest;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.utils.PartitionStatisticsReporter;
import org.apache.paimon.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static com.google.common.util.concurrent.MoreExecutors.newDirectExecutorService;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.TestingConnectorSession.SESSION;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Catalog type {@code hive_metastore} against a real Hive Metastore 4.0.1 ({@link HiveMetastoreServer}), with Paimon
 * Java 1.4.2's HiveCatalog on the other side: Trino lists and reads the tables Paimon Java registers, skips entries
 * that are not Paimon tables, and registers the tables it creates exactly as Paimon Java does, so that Paimon Java
 * reads them back through the metastore. The warehouse is a local folder that both reach as {@code file:} locations
 * (Trino through its local file system rooted at {@code /}, Paimon Java through its own).
 */
final class TestHiveMetastoreCatalog
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "lake";

    private Path root;
    private HiveMetastoreServer metastore;
    private PaimonJavaCatalog paimon;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        root = Files.createTempDirectory("hive-metastore-catalog");
        Path warehouse = Files.createDirectories(root.resolve("warehouse"));
        metastore = HiveMetastoreServer.start(warehouse);
        paimon = PaimonJavaCatalog.onHiveMetastore(metastore.uri(), warehouse.toUri().toString(), Map.of());
        paimon.createDatabase(DATABASE);
        createTables();
        return PaimonQueryRunner.create(catalogProperties(metastore.uri(), warehouse), DATABASE);
    }

    private static Map<String, String> catalogProperties(String metastoreUri, Path warehouse)
    {
        return ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "hive_metastore")
                .put("hive.metastore.uri", metastoreUri)
                .put("paimon.warehouse", warehouse.toUri().toString())
                // file: locations, as Paimon Java writes them, on Trino's local file system rooted at /
                .put("fs.native-local.enabled", "true")
                .put("local.location", "/")
                .buildOrThrow();
    }

    private void createTables()
            throws Exception
    {
        org.apache.paimon.table.Table orders = paimon.createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("item", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(10, 2))
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(order(1, "apple", 150), order(2, "pear", 275), order(3, "plum", 99)));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "orders"), List.of(order(2, "pear", 300), order(4, "fig", 1000)));

        // a Hive table beside them: not a Paimon table, so neither listed nor read
        Table hiveTable = new Table();
        hiveTable.setDbName(DATABASE);
        hiveTable.setTableName("plain_hive");
        hiveTable.setTableType("EXTERNAL_TABLE");
        hiveTable.setParameters(new HashMap<>(Map.of("EXTERNAL", "TRUE")));
        hiveTable.setPartitionKeys(List.of());
        StorageDescriptor storage = new StorageDescriptor();
        storage.setCols(List.of(new FieldSchema("x", "int", null)));
        storage.setLocation(root.resolve("plain_hive").toUri().toString());
        storage.setInputFormat("org.apache.hadoop.mapred.TextInputFormat");
        storage.setOutputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
        storage.setSerdeInfo(new SerDeInfo(null, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe", new HashMap<>()));
        hiveTable.setSd(storage);
        paimon.hiveMetastoreClient().createTable(hiveTable);
    }

    private static GenericRow order(long id, String item, long cents)
    {
        return GenericRow.of(id, BinaryString.fromString(item), org.apache.paimon.data.Decimal.fromUnscaledLong(cents, 10, 2));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (HiveMetastoreServer _ = metastore; PaimonJavaCatalog _ = paimon) {
            // closed in reverse order
        }
        if (root != null) {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    @Test
    void readsTablePaimonJavaRegistered()
    {
        assertThat(computeActual("SELECT id, item, CAST(amount AS varchar) FROM orders ORDER BY id").getMaterializedRows())
                .map(Object::toString)
                .containsExactly("[1, apple, 1.50]", "[2, pear, 3.00]", "[3, plum, 0.99]", "[4, fig, 10.00]");
    }

    /** Tags and branches are the table's files under a Hive Metastore too: Paimon Java's Hive catalog sees Trino's. */
    @Test
    void tagsAndBranchesFromTrino()
            throws Exception
    {
        paimon.createTable(DATABASE, "versioned", Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "versioned"), List.of(GenericRow.of(1L, BinaryString.fromString("apple"))));
        assertUpdate("CALL paimon.system.create_tag(schema_name => '%s', table_name => 'versioned', tag => 'first')".formatted(DATABASE));
        assertUpdate("CALL paimon.system.create_branch(schema_name => '%s', table_name => 'versioned', branch => 'dev', tag => 'first')".formatted(DATABASE));

        FileStoreTable table = (FileStoreTable) paimon.catalog().getTable(Identifier.create(DATABASE, "versioned"));
        assertThat(table.tagManager().allTagNames()).containsExactly("first");
        assertThat(table.branchManager().branches()).containsExactly("dev");
        assertThat(PaimonJavaCatalog.readRows(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned$branch_dev")))).containsExactly("+I(1, apple)");
        assertQuery("SELECT id, item FROM \"versioned$branch_dev\"", "VALUES (1, 'apple')");

        // a write to the branch commits to it, main keeps its row
        assertUpdate("INSERT INTO \"versioned$branch_dev\" VALUES (2, 'pear')", 1);
        assertThat(PaimonJavaCatalog.readRows(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned$branch_dev")))).containsExactly("+I(1, apple)", "+I(2, pear)");
        assertThat(PaimonJavaCatalog.readRows(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned")))).containsExactly("+I(1, apple)");
        // a column of the branch alone: the metastore's entry (main's schema) keeps its columns
        assertUpdate("ALTER TABLE \"versioned$branch_dev\" ADD COLUMN note varchar");
        assertThat(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned$branch_dev")).rowType().getFieldNames()).containsExactly("id", "item", "note");
        assertThat(computeActual("SELECT * FROM versioned").getColumnNames()).containsExactly("id", "item");

        assertUpdate("CALL paimon.system.delete_branch(schema_name => '%s', table_name => 'versioned', branch => 'dev')".formatted(DATABASE));
        assertUpdate("CALL paimon.system.delete_tag(schema_name => '%s', table_name => 'versioned', tag => 'first')".formatted(DATABASE));
        table = (FileStoreTable) paimon.catalog().getTable(Identifier.create(DATABASE, "versioned"));
        assertThat(table.tagManager().allTagNames()).isEmpty();
        assertThat(table.branchManager().branches()).isEmpty();
    }

    @Test
    void listsOnlyPaimonTables()
    {
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains(DATABASE, "default");
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders").doesNotContain("plain_hive");
        assertThat(getQueryRunner().tableExists(getSession(), "plain_hive")).isFalse();
    }

    /**
     * A view Paimon Java's HiveCatalog stores (a VIRTUAL_VIEW entry) is listed, described and queried; a view Trino
     * creates is one Paimon Java reads back with its columns, comment and query, and is replaced and dropped in place.
     */
    @Test
    void viewsArePaimonViews()
            throws Exception
    {
        // the entry Paimon's HiveCatalog.createView writes (its own call needs Hive's query-layer classes, not on this class path)
        Table viewEntry = new Table();
        viewEntry.setDbName(DATABASE);
        viewEntry.setTableName("big_orders");
        viewEntry.setTableType("VIRTUAL_VIEW");
        viewEntry.setParameters(new HashMap<>(Map.of("comment", "orders over 2")));
        viewEntry.setPartitionKeys(new ArrayList<>());
        viewEntry.setViewOriginalText("SELECT id, item FROM orders WHERE amount > 2");
        viewEntry.setViewExpandedText("SELECT id, item FROM orders WHERE amount > 2");
        StorageDescriptor viewStorage = new StorageDescriptor();
        viewStorage.setCols(List.of(new FieldSchema("id", "bigint", null), new FieldSchema("item", "string", null)));
        viewStorage.setSerdeInfo(new SerDeInfo(null, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe", new HashMap<>()));
        viewEntry.setSd(viewStorage);
        paimon.hiveMetastoreClient().createTable(viewEntry);
        View stored = paimon.catalog().getView(Identifier.create(DATABASE, "big_orders"));
        assertThat(stored.rowType().getFieldTypes()).containsExactly(DataTypes.BIGINT(), DataTypes.STRING());

        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("big_orders");
        assertQuery("SELECT table_name FROM information_schema.views WHERE table_schema = '%s'".formatted(DATABASE), "VALUES 'big_orders'");
        assertQuery("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = '%s' AND table_name = 'big_orders'".formatted(DATABASE),
                "VALUES ('id', 'bigint'), ('item', 'varchar')");
        assertQuery("SELECT * FROM big_orders", "VALUES (2, 'pear'), (4, 'fig')");

        assertUpdate("CREATE VIEW small_orders COMMENT 'orders up to 2' AS SELECT id, amount FROM orders WHERE amount <= 2");
        View created = paimon.catalog().getView(Identifier.create(DATABASE, "small_orders"));
        assertThat(created.rowType().getFieldNames()).containsExactly("id", "amount");
        assertThat(created.rowType().getFieldTypes()).containsExactly(DataTypes.BIGINT(), DataTypes.DECIMAL(10, 2));
        assertThat(created.comment()).hasValue("orders up to 2");
        assertThat(created.query()).contains("orders").contains("amount <= 2");
        assertQuery("SELECT id, CAST(amount AS varchar) FROM small_orders", "VALUES (1, '1.50'), (3, '0.99')");

        assertUpdate("CREATE OR REPLACE VIEW small_orders AS SELECT id FROM orders WHERE amount < 1");
        assertThat(paimon.catalog().getView(Identifier.create(DATABASE, "small_orders")).rowType().getFieldNames()).containsExactly("id");
        assertQuery("SELECT * FROM small_orders", "VALUES 3");
        assertThatThrownBy(() -> computeActual("CREATE VIEW orders AS SELECT 1 x"))
                .hasMessageContaining("orders");

        assertThatThrownBy(() -> computeActual("CREATE VIEW clock AS SELECT id, TIME '10:15:00' AS at FROM orders"))
                .hasMessageContaining("view %s.clock: column 'at' of type TIME(0) has no Hive type it could be read back as".formatted(DATABASE));
        assertThat(paimon.catalog().listViews(DATABASE)).doesNotContain("clock");

        assertUpdate("DROP VIEW small_orders");
        assertUpdate("DROP VIEW big_orders");
        assertThat(paimon.catalog().listViews(DATABASE)).isEmpty();
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders").doesNotContain("big_orders", "small_orders");
    }

    /**
     * A table with {@code metastore.partitioned-table} has its partitions listed in the metastore: an INSERT adds the
     * partitions it wrote that the metastore does not list yet, as Paimon Java's commit does, with the storage
     * descriptor Paimon Java gives a partition and the partition's folder as location; Paimon Java reads the rows.
     */
    @Test
    void insertRegistersPartitionsInTheMetastore()
            throws Exception
    {
        org.apache.paimon.table.Table daily = paimon.createTable(DATABASE, "daily", Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.BIGINT().notNull())
                .column("amount", DataTypes.BIGINT())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "1")
                .option("metastore.partitioned-table", "true")
                .build());
        PaimonJavaCatalog.write(daily, List.of(GenericRow.of(BinaryString.fromString("2026-12-01"), 1L, 10L)));
        IMetaStoreClient client = paimon.hiveMetastoreClient();
        Partition paimonPartition = client.getPartition(DATABASE, "daily", List.of("2026-12-01"));
        String tableLocation = client.getTable(DATABASE, "daily").getSd().getLocation();

        // one partition the metastore lists (Paimon Java's), two it does not, one of them with characters Paimon escapes in folder names
        assertUpdate("INSERT INTO daily VALUES ('2026-12-01', 2, 20), ('2026-12-02', 3, 30), ('2026-12-03 10:00', 4, 40)", 3);
        assertThat(client.listPartitionNames(DATABASE, "daily", (short) -1))
                .containsExactlyInAnyOrder("dt=2026-12-01", "dt=2026-12-02", "dt=2026-12-03 10%3A00");
        assertThat(client.getPartition(DATABASE, "daily", List.of("2026-12-01")).getCreateTime()).isEqualTo(paimonPartition.getCreateTime());

        Partition second = client.getPartition(DATABASE, "daily", List.of("2026-12-02"));
        assertThat(second.getSd().getLocation()).isEqualTo(paimonPartition.getSd().getLocation().replace("2026-12-01", "2026-12-02"));
        assertThat(second.getSd().getInputFormat()).isEqualTo(paimonPartition.getSd().getInputFormat());
        assertThat(second.getSd().getOutputFormat()).isEqualTo(paimonPartition.getSd().getOutputFormat());
        assertThat(second.getSd().getSerdeInfo().getSerializationLib()).isEqualTo(paimonPartition.getSd().getSerdeInfo().getSerializationLib());
        assertThat(second.getSd().getCols()).isEqualTo(paimonPartition.getSd().getCols());
        Partition third = client.getPartition(DATABASE, "daily", List.of("2026-12-03 10:00"));
        assertThat(third.getSd().getLocation()).isEqualTo(paimonPartition.getSd().getLocation().replace("2026-12-01", "2026-12-03 10%3A00"));
        // the folder Paimon's writers name the partition's, where Trino wrote the rows
        assertThat(Files.isDirectory(Path.of(URI.create(tableLocation)).resolve("dt=2026-12-03 10%3A00").resolve("bucket-0"))).isTrue();

        // a second write to partitions the metastore lists adds nothing and fails nothing
        assertUpdate("INSERT INTO daily VALUES ('2026-12-02', 5, 50)", 1);
        assertThat(client.listPartitionNames(DATABASE, "daily", (short) -1)).hasSize(3);

        assertThat(PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "daily")))
                .containsExactlyInAnyOrder(
                        "+I(2026-12-01, 1, 10)",
                        "+I(2026-12-01, 2, 20)",
                        "+I(2026-12-02, 3, 30)",
                        "+I(2026-12-02, 5, 50)",
                        "+I(2026-12-03 10:00, 4, 40)");

        // a DELETE of a whole partition keeps its metastore entry, as Paimon's truncatePartitions (Spark's DELETE) does
        assertUpdate("DELETE FROM daily WHERE dt = '2026-12-02'");
        assertThat(PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "daily"))).hasSize(3);
        assertThat(client.listPartitionNames(DATABASE, "daily", (short) -1)).hasSize(3);
        assertUpdate("DROP TABLE daily");
    }

    /**
     * A rival writer registers a partition after Trino's commit listed the metastore's partitions and before Trino
     * adds the ones missing: the commit's snapshot has landed, so the statement must not fail for it. The rival here
     * is Paimon Java's own commit, which adds its partition with {@code ifNotExists}; it runs at the exact moment
     * between Trino's listing and Trino's add, which a metastore client that calls back after the listing holds open.
     * The metastore then lists each partition once, the rival's entry as the rival made it, and Paimon Java reads
     * every row.
     */
    @Test
    void partitionAddedByRivalAfterTheListingIsKept()
            throws Exception
    {
        paimon.createTable(DATABASE, "contended", Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.BIGINT().notNull())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "1")
                .option("metastore.partitioned-table", "true")
                .build());
        IMetaStoreClient client = paimon.hiveMetastoreClient();
        try {
            // Trino's commit of two new partitions; their entries are removed again (files kept), as they were when the snapshot landed
            assertUpdate("INSERT INTO contended VALUES ('2026-12-07', 1), ('2026-12-08', 2)", 2);
            client.dropPartition(DATABASE, "contended", List.of("2026-12-07"), false);
            client.dropPartition(DATABASE, "contended", List.of("2026-12-08"), false);
            assertThat(client.listPartitionNames(DATABASE, "contended", (short) -1)).isEmpty();

            List<Integer> rivalCreateTime = new ArrayList<>();
            HiveMetastoreCatalog catalog = catalogCalling(() -> {
                try {
                    PaimonJavaCatalog.write(paimon.getTable(DATABASE, "contended"), List.of(GenericRow.of(BinaryString.fromString("2026-12-07"), 3L)));
                    rivalCreateTime.add(client.getPartition(DATABASE, "contended", List.of("2026-12-07")).getCreateTime());
                }
                catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            PaimonTable table = catalog.loadTable(SESSION, new SchemaTableName(DATABASE, "contended"), Optional.empty()).orElseThrow();
            List<BinaryRow> written = List.of(partition(table, "2026-12-07"), partition(table, "2026-12-08"));
            catalog.registerPartitions(SESSION, table, written);

            assertThat(rivalCreateTime).as("the rival's commit ran between the listing and the add").hasSize(1);
            assertThat(client.listPartitionNames(DATABASE, "contended", (short) -1)).containsExactlyInAnyOrder("dt=2026-12-07", "dt=2026-12-08");
            assertThat(client.getPartition(DATABASE, "contended", List.of("2026-12-07")).getCreateTime()).isEqualTo(rivalCreateTime.getFirst());
            assertThat(PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "contended")))
                    .containsExactlyInAnyOrder("+I(2026-12-07, 1)", "+I(2026-12-07, 3)", "+I(2026-12-08, 2)");
        }
        finally {
            paimon.dropTable(DATABASE, "contended");
        }
    }

    private static BinaryRow partition(PaimonTable table, String value)
    {
        return BinaryRowWriter.toBinaryRow(table.partitionFields().stream().map(DataField::type).toList(), List.of(value));
    }

    /** This catalog through Trino's Thrift client, whose first listing of a table's partition names runs {@code afterListing} before it returns. */
    private HiveMetastoreCatalog catalogCalling(Runnable afterListing)
    {
        DefaultThriftMetastoreClientFactory clientFactory = new DefaultThriftMetastoreClientFactory(
                Optional.empty(), Optional.empty(), new Duration(30, SECONDS), new Duration(30, SECONDS), new NoHiveMetastoreAuthentication(), "localhost", Optional.empty());
        StaticTokenAwareMetastoreClientFactory clients = new StaticTokenAwareMetastoreClientFactory(
                new StaticMetastoreConfig().setMetastoreUris(List.of(metastore.uri())), new ThriftMetastoreAuthenticationConfig(), clientFactory);
        AtomicBoolean called = new AtomicBoolean();
        IdentityAwareMetastoreClientFactory calling = _ -> {
            ThriftMetastoreClient client = clients.createMetastoreClient(Optional.empty());
            return (ThriftMetastoreClient) Proxy.newProxyInstance(ThriftMetastoreClient.class.getClassLoader(), new Class<?>[] {ThriftMetastoreClient.class}, (_, method, arguments) -> {
                Object result;
                try {
                    result = method.invoke(client, arguments);
                }
                catch (InvocationTargetException e) {
                    throw e.getCause();
                }
                if (method.getName().startsWith("getPartitionNames") && !called.getAndSet(true)) {
                    afterListing.run();
                }
                return result;
            });
        };
        LocalFileSystemFactory fileSystemFactory = new LocalFileSystemFactory(Path.of("/"));
        return new HiveMetastoreCatalog(
                new CatalogName("paimon"),
                new ThriftHiveMetastoreFactory(calling, false, new ThriftMetastoreConfig(), fileSystemFactory, newDirectExecutorService()),
                fileSystemFactory,
                new PaimonConfig().setWarehouse(root.resolve("warehouse").toUri().toString()),
                new HiveMetastoreCatalogConfig(),
                MetadataCache.DISABLED,
                CatalogLocations.NO_LOCAL_FILE_SYSTEM);
    }

    /**
     * With Paimon's {@code partition.idle-time-to-report-statistic} set, a statement reports the statistics of the
     * partitions it wrote to their metastore entries once its snapshot lands, as Paimon's writer does when its bounded
     * input ends. The oracle is Paimon Java's own reporter, run afterwards over the same snapshot with the same time:
     * the entry's parameters must not change. Without the option, nothing is reported.
     */
    @Test
    void commitReportsPartitionStatisticsAsPaimonJava()
            throws Exception
    {
        paimon.createTable(DATABASE, "reported", Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .option("write-only", "true")
                .option("metastore.partitioned-table", "true")
                .build());
        IMetaStoreClient client = paimon.hiveMetastoreClient();
        try {
            assertUpdate("INSERT INTO reported VALUES ('d1', 1, 'a'), ('d1', 2, 'b'), ('d2', 3, 'c')", 3);
            assertThat(client.getPartition(DATABASE, "reported", List.of("d1")).getParameters()).doesNotContainKeys("numRows", "lastUpdateTime", "totalBuckets");

            paimon.catalog().alterTable(Identifier.create(DATABASE, "reported"), SchemaChange.setOption("partition.idle-time-to-report-statistic", "1 min"), false);
            long before = System.currentTimeMillis() / 1000;
            assertUpdate("INSERT INTO reported VALUES ('d1', 4, 'd'), ('d1', 1, 'e')", 2);
            long after = System.currentTimeMillis() / 1000;

            Map<String, String> reported = new HashMap<>(client.getPartition(DATABASE, "reported", List.of("d1")).getParameters());
            // by hand: four rows over two commits' files (the update of key 1 is a row of its own until compacted), two buckets
            assertThat(reported).containsEntry("numRows", "4").containsEntry("totalBuckets", "2");
            long reportedSeconds = Long.parseLong(reported.get("lastUpdateTime"));
            assertThat(reportedSeconds).isBetween(before, after);
            assertThat(reported).containsEntry("transient_lastDdlTime", String.valueOf(reportedSeconds));
            // the partition the statement did not write is not reported
            assertThat(client.getPartition(DATABASE, "reported", List.of("d2")).getParameters()).doesNotContainKeys("numRows", "lastUpdateTime");

            FileStoreTable table = (FileStoreTable) paimon.getTable(DATABASE, "reported");
            new PartitionStatisticsReporter(table, table.catalogEnvironment().partitionModification()).report("dt=d1", reportedSeconds * 1000);
            assertThat(client.getPartition(DATABASE, "reported", List.of("d1")).getParameters()).isEqualTo(reported);
        }
        finally {
            paimon.dropTable(DATABASE, "reported");
        }
    }

    /**
     * {@code ALTER VIEW … RENAME TO}, {@code COMMENT ON VIEW} and {@code COMMENT ON COLUMN} of a view change the view's
     * metastore entry where Paimon Java's HiveCatalog reads them: the renamed entry, its {@code comment} parameter and
     * its Hive columns' comments.
     */
    @Test
    void viewsAreRenamedAndCommented()
            throws Exception
    {
        assertUpdate("CREATE VIEW fruit AS SELECT id, item FROM orders WHERE amount > 2");

        assertUpdate("COMMENT ON VIEW fruit IS 'orders over 2'");
        assertThat(paimon.catalog().getView(Identifier.create(DATABASE, "fruit")).comment()).hasValue("orders over 2");
        assertThat((String) computeScalar("SHOW CREATE VIEW fruit")).contains("COMMENT 'orders over 2'");

        assertUpdate("COMMENT ON COLUMN fruit.item IS 'what was sold'");
        View commented = paimon.catalog().getView(Identifier.create(DATABASE, "fruit"));
        assertThat(commented.rowType().getField("item").description()).isEqualTo("what was sold");
        assertThat(commented.rowType().getField("id").description()).isNull();
        assertQuery("SELECT comment FROM information_schema.columns WHERE table_schema = '%s' AND table_name = 'fruit' AND column_name = 'item'".formatted(DATABASE),
                "VALUES 'what was sold'");
        assertThatThrownBy(() -> computeActual("COMMENT ON COLUMN fruit.price IS 'none'"))
                .hasMessageContaining("price");

        assertUpdate("ALTER VIEW fruit RENAME TO big_fruit");
        assertThatThrownBy(() -> paimon.catalog().getView(Identifier.create(DATABASE, "fruit")))
                .isInstanceOf(Catalog.ViewNotExistException.class);
        View renamed = paimon.catalog().getView(Identifier.create(DATABASE, "big_fruit"));
        assertThat(renamed.comment()).hasValue("orders over 2");
        assertThat(renamed.query()).contains("amount > 2");
        assertThat(renamed.rowType().getField("item").description()).isEqualTo("what was sold");
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("big_fruit").doesNotContain("fruit");
        assertQuery("SELECT * FROM big_fruit", "VALUES (2, 'pear'), (4, 'fig')");

        assertUpdate("COMMENT ON VIEW big_fruit IS NULL");
        assertUpdate("COMMENT ON COLUMN big_fruit.item IS NULL");
        View cleared = paimon.catalog().getView(Identifier.create(DATABASE, "big_fruit"));
        assertThat(cleared.comment()).isEmpty();
        assertThat(cleared.rowType().getField("item").description()).isNull();

        assertUpdate("DROP VIEW big_fruit");
        assertThat(paimon.catalog().listViews(DATABASE)).isEmpty();
    }

    @Test
    void createdTableIsRegisteredAsPaimonJavaRegistersIt()
            throws Exception
    {
        assertUpdate("CREATE TABLE by_trino (dt varchar, id bigint, v varchar, price decimal(10, 2)) COMMENT 'sales' " +
                "WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 2, options = ARRAY['file.format=orc'])");
        paimon.createTable(DATABASE, "by_paimon", Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .column("price", DataTypes.DECIMAL(10, 2))
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .option("file.format", "orc")
                .comment("sales")
                .build());
        try {
            Table trinos = paimon.hiveMetastoreEntry(DATABASE, "by_trino");
            Table paimons = paimon.hiveMetastoreEntry(DATABASE, "by_paimon");
            // Hive 4's metastore makes both external tables whose files are purged with them
            assertThat(trinos.getTableType()).isEqualTo(paimons.getTableType());
            assertThat(withoutDdlTime(trinos.getParameters())).isEqualTo(withoutDdlTime(paimons.getParameters()));
            assertThat(trinos.getPartitionKeys()).isEqualTo(paimons.getPartitionKeys());
            assertThat(trinos.getRetention()).isEqualTo(paimons.getRetention());
            assertThat(trinos.getSd().getCols()).isEqualTo(paimons.getSd().getCols());
            assertThat(trinos.getSd().getInputFormat()).isEqualTo(paimons.getSd().getInputFormat());
            assertThat(trinos.getSd().getOutputFormat()).isEqualTo(paimons.getSd().getOutputFormat());
            assertThat(trinos.getSd().getSerdeInfo()).isEqualTo(paimons.getSd().getSerdeInfo());
            assertThat(trinos.getSd().getLocation()).isEqualTo(paimons.getSd().getLocation().replace("/by_paimon", "/by_trino"));

            // rows written by Trino into each table read back alike through Paimon Java's catalog
            for (String table : List.of("by_trino", "by_paimon")) {
                assertUpdate("INSERT INTO %s VALUES ('d1', 1, 'a', 1.50), ('d1', 2, 'b', 2.00), ('d2', 1, 'c', 0.25)".formatted(table), 3);
                assertUpdate("UPDATE %s SET v = 'B' WHERE id = 2".formatted(table), 1);
            }
            List<String> expected = PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "by_paimon"));
            assertThat(expected).hasSize(3);
            assertThat(PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "by_trino"))).isEqualTo(expected);
            assertThat(computeActual("SELECT dt, id, v FROM by_trino ORDER BY dt, id").getMaterializedRows())
                    .map(Object::toString)
                    .containsExactly("[d1, 1, a]", "[d1, 2, B]", "[d2, 1, c]");
        }
        finally {
            assertUpdate("DROP TABLE IF EXISTS by_trino");
            paimon.dropTable(DATABASE, "by_paimon");
        }
    }

    @Test
    void schemaAndTableLifecycleIsSeenByPaimonJava()
    {
        assertUpdate("CREATE SCHEMA made_here");
        assertThat(paimon.listDatabases()).contains("made_here");
        assertUpdate("CREATE TABLE made_here.t (id bigint, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO made_here.t VALUES (1, 'one'), (2, 'two')", 2);
        assertUpdate("ALTER TABLE made_here.t ADD COLUMN w integer");
        assertThat(paimon.getTable("made_here", "t").rowType().getFieldNames()).containsExactly("id", "v", "w");
        assertUpdate("ALTER TABLE made_here.t RENAME TO made_here.renamed");
        assertThat(PaimonJavaCatalog.readRows(paimon.getTable("made_here", "renamed"))).hasSize(2);
        assertThat(root.resolve("warehouse/made_here.db/renamed/schema")).isDirectory();
        assertThat(root.resolve("warehouse/made_here.db/t")).doesNotExist();
        assertQuery("SELECT id, v, w FROM made_here.renamed", "VALUES (1, 'one', NULL), (2, 'two', NULL)");
        assertQueryFails("DROP SCHEMA made_here", ".*non-empty schema.*");
        assertUpdate("DROP TABLE made_here.renamed");
        assertThat(root.resolve("warehouse/made_here.db/renamed")).doesNotExist();
        assertUpdate("DROP SCHEMA made_here");
        assertThat(paimon.listDatabases()).doesNotContain("made_here");
    }

    @Test
    void createOverNonPaimonTableIsRefused()
    {
        assertQueryFails("CREATE TABLE plain_hive (x integer)", ".*Catalog 'paimon': table lake.plain_hive already exists in the metastore and is not a Paimon table");
    }

    @Test
    void unreachableMetastoreNamesCatalog()
            throws Exception
    {
        getQueryRunner().createCatalog("unreachable", "paimon", ImmutableMap.of(
                "paimon.catalog.type", "hive_metastore",
                "hive.metastore.uri", "thrift://127.0.0.1:1",
                "hive.metastore.thrift.client.max-retries", "0",
                "paimon.warehouse", root.resolve("elsewhere").toUri().toString(),
                "fs.native-local.enabled", "true",
                "local.location", "/"));
        assertQueryFails("SELECT * FROM unreachable.lake.orders", "Catalog 'unreachable': the Hive metastore failed to read table lake.orders.*");
    }

    /**
     * Trino and Paimon Java's HiveCatalog commit to one table at the same time: every commit lands once or fails
     * cleanly (Trino's with TRANSACTION_CONFLICT when Paimon Java's commit wrote one of its buckets), and the table
     * holds exactly the rows of the commits that landed, read alike by both.
     */
    @Test
    void trinoAndPaimonJavaCommitAtOnceLoseNothing()
            throws Exception
    {
        assertUpdate("CREATE TABLE race (id integer, v varchar) WITH (primary_key = ARRAY['id'], bucket = 2, options = ARRAY['write-only=true'])");
        int commits = 4;
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
                    int key = 100 + commit;
                    PaimonJavaCatalog.write(paimon.getTable(DATABASE, "race"), List.of(GenericRow.of(key, BinaryString.fromString("paimon"))));
                    landed.add(key);
                }
                return landed;
            });
            List<Integer> trinoKeys = trino.get(3, MINUTES);
            List<Integer> paimonKeys = paimonJava.get(3, MINUTES);
            assertThat(trinoKeys).as("Trino's commits that landed").isNotEmpty();
            List<Integer> expected = new ArrayList<>(trinoKeys);
            expected.addAll(paimonKeys);
            assertThat(computeActual("SELECT id FROM race").getOnlyColumnAsSet()).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "race"))).hasSize(expected.size());
        }
        finally {
            executor.shutdownNow();
            assertUpdate("DROP TABLE race");
        }
    }

    /**
     * With {@code paimon.lock.enabled}, a commit publishes its snapshot holding the metastore's exclusive table lock,
     * the lock Paimon Java's HiveCatalog takes with {@code lock.enabled}: while another client holds it, Trino's
     * INSERT waits, and it lands once the lock is released.
     */
    @Test
    void commitsWaitForTheMetastoreTableLock()
            throws Exception
    {
        getQueryRunner().createCatalog("locked", "paimon", ImmutableMap.<String, String>builder()
                .putAll(catalogProperties(metastore.uri(), root.resolve("warehouse")))
                .put("paimon.lock.enabled", "true")
                .buildOrThrow());
        assertUpdate("CREATE TABLE guarded (id integer, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        IMetaStoreClient client = paimon.hiveMetastoreClient();
        LockComponent component = new LockComponent(LockType.EXCLUSIVE, LockLevel.TABLE, DATABASE);
        component.setTablename("guarded");
        LockResponse lock = client.lock(new LockRequest(List.of(component), "test", "localhost"));
        assertThat(lock.getState()).isEqualTo(LockState.ACQUIRED);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> insert = executor.submit(() -> getQueryRunner().execute("INSERT INTO locked.lake.guarded VALUES (1, 'trino')"));
            // the INSERT's commit has asked the metastore for the table's lock, and its request waits behind ours
            awaitWaitingLock(client, "guarded", insert);
            assertThat(insert.isDone()).as("INSERT done while another client holds the table lock").isFalse();
            assertThat(computeActual("SELECT count(*) FROM guarded").getOnlyValue()).isEqualTo(0L);
            client.unlock(lock.getLockid());
            insert.get(1, MINUTES);
            assertQuery("SELECT id, v FROM guarded", "VALUES (1, 'trino')");
        }
        finally {
            executor.shutdownNow();
            assertUpdate("DROP TABLE guarded");
        }
    }

    /** Waits until the metastore lists a lock request on the table in state WAITING, failing if the statement finishes first. */
    private static void awaitWaitingLock(IMetaStoreClient client, String table, Future<?> statement)
            throws Exception
    {
        ShowLocksRequest request = new ShowLocksRequest();
        request.setDbname(DATABASE);
        request.setTablename(table);
        long deadline = System.nanoTime() + MINUTES.toNanos(1);
        while (client.showLocks(request).getLocks().stream().noneMatch(lock -> lock.getState() == LockState.WAITING)) {
            assertThat(statement.isDone()).as("statement done before its lock request waited").isFalse();
            assertThat(System.nanoTime() - deadline).as("a waiting lock request on %s within a minute", table).isNegative();
            Thread.sleep(100);
        }
    }

    @Test
    void entryWithoutSchemaFilesNamesCatalogTableAndLocation()
            throws Exception
    {
        paimon.createTable(DATABASE, "gone", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .build());
        String location = paimon.hiveMetastoreEntry(DATABASE, "gone").getSd().getLocation();
        deleteRecursively(Path.of(URI.create(location)), ALLOW_INSECURE);
        try {
            assertQueryFails("SELECT * FROM gone", "\\QCatalog 'paimon': table lake.gone is registered at " + location + ", but no Paimon schema file is there\\E");
        }
        finally {
            paimon.hiveMetastoreClient().dropTable(DATABASE, "gone");
        }
    }

    private static Map<String, String> withoutDdlTime(Map<String, String> parameters)
    {
        Map<String, String> copy = new HashMap<>(parameters);
        copy.remove("transient_lastDdlTime");
        return copy;
    }
}
