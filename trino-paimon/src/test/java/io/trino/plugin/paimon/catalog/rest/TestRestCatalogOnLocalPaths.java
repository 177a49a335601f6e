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
package io.trino.plugin.paimon.catalog.rest;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.PaimonRestServer;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.rest.responses.ConfigResponse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon's REST catalog server over a plain folder path, as it is often started: it hands out table and database
 * locations without a scheme, which Paimon Java reads and writes as local files, and so must the connector, through
 * Trino's local file system.
 */
final class TestRestCatalogOnLocalPaths
        extends AbstractTestQueryFramework
{
    private static final String WAREHOUSE = "plain_warehouse";
    private static final String DATABASE = "plain_db";

    private PaimonRestServer server;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        server = PaimonRestServer.startOnLocalPath("rest-local-paths", WAREHOUSE, new ConfigResponse(ImmutableMap.of("prefix", "local-paths"), ImmutableMap.of()), DATABASE);
        Table orders = server.paimon().createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(order(1, "apple"), order(2, "pear"), order(3, "plum")));
        PaimonJavaCatalog.write(server.paimon().getTable(DATABASE, "orders"), List.of(order(2, "quince")));

        QueryRunner queryRunner = PaimonQueryRunner.create(catalogProperties(Map.of("fs.native-local.enabled", "true", "local.location", "/")), DATABASE);
        try {
            // the server's folder as the local file system's root: its paths map below it
            queryRunner.createCatalog("rooted", "paimon", catalogProperties(Map.of("fs.native-local.enabled", "true", "local.location", server.dataFolder().getParent().toString())));
            queryRunner.createCatalog("no_local", "paimon", catalogProperties(Map.of()));
            queryRunner.createCatalog("elsewhere", "paimon", catalogProperties(Map.of("fs.native-local.enabled", "true", "local.location", Files.createTempDirectory("elsewhere").toString())));
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    private Map<String, String> catalogProperties(Map<String, String> fileSystem)
    {
        return ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "rest")
                .put("paimon.rest.uri", server.url())
                .put("paimon.rest.warehouse", WAREHOUSE)
                .put("paimon.rest.token", PaimonRestServer.TOKEN)
                .putAll(fileSystem)
                .buildOrThrow();
    }

    @AfterAll
    void shutdown()
            throws Exception
    {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theServerHandsOutPathsWithoutScheme()
    {
        FileStoreTable orders = (FileStoreTable) server.paimon().getTable(DATABASE, "orders");
        assertThat(orders.location().toString()).isEqualTo(server.dataFolder().resolve(DATABASE + ".db").resolve("orders").toString());
    }

    @Test
    void readsAndWritesWhatPaimonJavaWrote()
    {
        assertThat(rows("SELECT id, item FROM orders")).containsExactly("1|apple", "2|quince", "3|plum");
        assertThat(rows("SELECT id, item FROM rooted.plain_db.orders")).containsExactly("1|apple", "2|quince", "3|plum");

        assertUpdate("CREATE TABLE upserted (id integer NOT NULL, item varchar) WITH (primary_key = ARRAY['id'], options = ARRAY['bucket=1'])");
        assertUpdate("INSERT INTO upserted SELECT id, item FROM orders", 3);
        assertUpdate("INSERT INTO rooted.plain_db.upserted VALUES (2, 'pear'), (4, 'fig')", 2);
        assertThat(javaRows(server.paimon().getTable(DATABASE, "upserted"))).containsExactly("1|apple", "2|pear", "3|plum", "4|fig");
        assertThat(rows("SELECT id, item FROM upserted")).containsExactly("1|apple", "2|pear", "3|plum", "4|fig");
    }

    @Test
    void createsAndDropsTablesPaimonJavaSees()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA made");
        assertUpdate("CREATE TABLE made.events (id integer NOT NULL, name varchar) WITH (primary_key = ARRAY['id'], options = ARRAY['bucket=1'])");
        assertUpdate("INSERT INTO made.events VALUES (1, 'a'), (2, 'b')", 2);
        Path folder = server.dataFolder().resolve("made.db").resolve("events");
        assertThat(folder.resolve("snapshot").resolve("snapshot-1")).exists();
        assertThat(javaRows(server.paimon().getTable("made", "events"))).containsExactly("1|a", "2|b");

        assertUpdate("DROP TABLE made.events");
        assertThat(server.paimon().catalog().listTables("made")).isEmpty();
        assertThat(folder).doesNotExist();
        assertUpdate("DROP SCHEMA made");
        assertThat(server.paimon().listDatabases()).doesNotContain("made");
    }

    @Test
    void pathsWithoutSchemeNeedTheLocalFileSystem()
    {
        assertThat(computeActual("SHOW TABLES FROM no_local.plain_db").getOnlyColumnAsSet()).contains("orders");
        String location = server.dataFolder().resolve(DATABASE + ".db").resolve("orders").toString();
        assertTrinoExceptionThrownBy(() -> computeActual("SELECT * FROM no_local.plain_db.orders"))
                .hasErrorCode(PAIMON_UNSUPPORTED_CONFIGURATION)
                .hasMessage("The catalog gives table plain_db.orders the location '%s', a path without a scheme, which Paimon reads as a local path: ".formatted(location) +
                        "set fs.native-local.enabled=true and local.location to a folder that holds it (such as /) in the catalog's properties");
        assertTrinoExceptionThrownBy(() -> computeActual("DROP TABLE no_local.plain_db.orders"))
                .hasErrorCode(PAIMON_UNSUPPORTED_CONFIGURATION);
        assertTrinoExceptionThrownBy(() -> computeActual("SELECT * FROM elsewhere.plain_db.orders"))
                .hasErrorCode(PAIMON_UNSUPPORTED_CONFIGURATION)
                .hasMessageStartingWith("The catalog gives table plain_db.orders the location '%s', a local path outside local.location ".formatted(location));
        // nothing was dropped
        assertThat(rows("SELECT id FROM orders")).containsExactly("1", "2", "3");
    }

    private List<String> rows(String sql)
    {
        return computeActual(sql).getMaterializedRows().stream()
                .map(TestRestCatalogOnLocalPaths::text)
                .sorted()
                .toList();
    }

    private static String text(MaterializedRow row)
    {
        return String.join("|", row.getFields().stream().map(String::valueOf).toList());
    }

    private static List<String> javaRows(Table table)
    {
        return PaimonJavaCatalog.readRows(table).stream()
                .map(row -> row.substring(row.indexOf('(') + 1, row.length() - 1).replace(", ", "|"))
                .sorted()
                .toList();
    }

    private static GenericRow order(int id, String item)
    {
        return GenericRow.of(id, BinaryString.fromString(item));
    }
}
