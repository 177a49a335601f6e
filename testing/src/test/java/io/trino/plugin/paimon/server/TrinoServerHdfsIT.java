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
import io.trino.plugin.paimon.testing.HdfsCluster;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * A warehouse on HDFS read and written by stock Trino 476 with the plugin folder, where Hadoop's client runs in the
 * plugin's own class loader: the NameNode and DataNode run in this test's JVM ({@link HdfsCluster}), the server in
 * its own process, with catalog {@code hdfs} as the README's HDFS section shows it.
 */
@TestInstance(PER_CLASS)
final class TrinoServerHdfsIT
{
    private Path localRoot;
    private HdfsCluster cluster;
    private PaimonJavaCatalog paimon;
    private TrinoServer server;

    @BeforeAll
    void start()
            throws Exception
    {
        localRoot = Files.createTempDirectory("trino-paimon-hdfs-it");
        cluster = HdfsCluster.shared();
        String warehouse = cluster.uri() + "/server-warehouse";
        Path coreSite = HdfsCluster.writeConfigurationFile(localRoot.resolve("core-site.xml"), ImmutableMap.of("fs.defaultFS", cluster.uri()));
        paimon = PaimonJavaCatalog.onHadoop(warehouse, cluster.clientConfiguration());
        paimon.createDatabase("lake");
        Table orders = paimon.createTable("lake", "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(row(1, "apple"), row(2, "pear"), row(3, "plum")));
        GenericRow deleted = row(3, "plum");
        deleted.setRowKind(RowKind.DELETE);
        PaimonJavaCatalog.write(paimon.getTable("lake", "orders"), List.of(row(2, "PEAR"), deleted));

        Path catalogFile = Files.writeString(localRoot.resolve("hdfs.properties"), """
                connector.name=paimon
                paimon.warehouse=%s
                fs.hadoop.enabled=true
                hive.config.resources=%s
                """.formatted(warehouse, coreSite));
        Files.createDirectories(localRoot.resolve("warehouse"));
        server = TrinoServer.launch(Path.of(System.getProperty("repository.root")).toRealPath(), localRoot, freePort(), List.of("--catalog-file", catalogFile.toString()));
        server.awaitStarted();
        awaitActiveNode();
    }

    // right after start, queries fail with "No nodes available to run query" until the node has announced itself and
    // the scheduler's node map, refreshed every few seconds, holds it: a read that schedules splits shows both
    private void awaitActiveNode()
            throws Exception
    {
        long deadline = System.nanoTime() + TrinoServer.STARTUP_TIMEOUT.toNanos();
        SQLException lastFailure = null;
        while (System.nanoTime() < deadline) {
            try {
                if (rows("SELECT count(*), 'active' FROM system.runtime.nodes WHERE state = 'active'").equals(List.of("1 active"))) {
                    rows("SELECT count(*), 'read' FROM hdfs.lake.orders");
                    return;
                }
            }
            catch (SQLException e) {
                lastFailure = e;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("The server did not become active:\n" + server.serverLog(), lastFailure);
    }

    private static GenericRow row(int id, String item)
    {
        return GenericRow.of(id, BinaryString.fromString(item));
    }

    @AfterAll
    void stop()
            throws Exception
    {
        try (PaimonJavaCatalog _ = paimon) {
            if (server != null) {
                server.close();
            }
        }
        finally {
            deleteRecursively(localRoot, ALLOW_INSECURE);
        }
    }

    @Test
    void readsAndWritesAWarehouseOnHdfs()
            throws SQLException
    {
        assertThat(rows("SELECT id, item FROM hdfs.lake.orders ORDER BY id")).containsExactly("1 apple", "2 PEAR");
        execute("INSERT INTO hdfs.lake.orders VALUES (4, 'fig'), (1, 'APPLE')");
        execute("UPDATE hdfs.lake.orders SET item = 'kiwi' WHERE id = 2");
        assertThat(rows("SELECT id, item FROM hdfs.lake.orders ORDER BY id")).containsExactly("1 APPLE", "2 kiwi", "4 fig");
        assertThat(RowText.paimonText(paimon.getTable("lake", "orders"))).containsExactly("(1, APPLE)", "(2, kiwi)", "(4, fig)");
        assertThat(server.serverLog()).doesNotContain("ClassNotFoundException", "No FileSystem for scheme");
    }

    private void execute(String sql)
            throws SQLException
    {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private List<String> rows(String sql)
            throws SQLException
    {
        List<String> rows = new ArrayList<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getString(1) + " " + result.getString(2));
            }
        }
        return rows;
    }
}
