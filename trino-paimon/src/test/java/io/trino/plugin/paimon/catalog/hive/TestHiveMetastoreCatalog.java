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
import io.trino.plugin.paimon.testing.HiveMetastoreServer;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void listsOnlyPaimonTables()
    {
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains(DATABASE, "default");
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders").doesNotContain("plain_hive");
        assertThat(getQueryRunner().tableExists(getSession(), "plain_hive")).isFalse();
    }
}
