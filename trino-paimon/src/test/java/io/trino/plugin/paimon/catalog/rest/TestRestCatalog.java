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
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.rest.responses.ConfigResponse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.TableSnapshot;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.view.View;
import org.apache.paimon.view.ViewImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code paimon.catalog.type=rest} against Paimon's own REST catalog server ({@code RESTCatalogServer} of Paimon
 * 1.4.2, over a local folder, with a bearer token), with Paimon Java's REST catalog client on the other side.
 */
final class TestRestCatalog
        extends AbstractTestQueryFramework
{
    private static final String WAREHOUSE = "rest_warehouse";
    private static final String TOKEN = PaimonRestServer.TOKEN;
    private static final String DATABASE = "rest_db";

    private PaimonRestServer server;
    private PaimonJavaCatalog paimon;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        // a prefix in the server's defaults, which the client must merge into every resource path
        ConfigResponse config = new ConfigResponse(ImmutableMap.of("prefix", "paimon-test", "table-default.file.format", "orc"), ImmutableMap.of());
        server = PaimonRestServer.start("rest-catalog", WAREHOUSE, config, DATABASE);
        paimon = server.paimon();
        Table orders = paimon.createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .column("amount", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(order(1, "apple", 150), order(2, "pear", 275), order(3, "plum", 99)));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "orders"), List.of(order(2, "pear", 300), order(4, "fig", 1000)));
        return PaimonQueryRunner.create(catalogProperties(server.url(), TOKEN), DATABASE);
    }

    private Map<String, String> catalogProperties(String uri, String token)
    {
        return ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "rest")
                .put("paimon.rest.uri", uri)
                .put("paimon.rest.warehouse", WAREHOUSE)
                .put("paimon.rest.token", token)
                .put("paimon.rest.header.X-Trino-Test", "yes")
                // the server gives file:/ locations; Trino's local file system resolves them from the root
                .put("fs.native-local.enabled", "true")
                .put("local.location", "/")
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
    void testListsAndReadsTablesPaimonJavaCreated()
    {
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains(DATABASE);
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders");
        // the rows Paimon Java wrote, with key 2 updated by its second commit
        assertThat(rows("SELECT id, item, amount FROM orders"))
                .containsExactly("1|apple|150", "2|pear|300", "3|plum|99", "4|fig|1000");
        assertThat(rows("SELECT id, item, amount FROM orders"))
                .containsExactlyElementsOf(javaRows(paimon.getTable(DATABASE, "orders")));
    }

    @Test
    void testListingIsPaged()
    {
        // more tables than the server returns in one page (100)
        paimon.createDatabase("paged");
        for (int i = 0; i < 105; i++) {
            paimon.createTable("paged", "t%03d".formatted(i), Schema.newBuilder().column("x", DataTypes.INT()).build());
        }
        assertThat(computeActual("SHOW TABLES FROM paged").getOnlyColumnAsSet()).hasSize(105).contains("t000", "t104");
    }

    @Test
    void testTableTrinoCreatesIsPaimonJavas()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA trino_made");
        assertThat(paimon.listDatabases()).contains("trino_made");
        assertUpdate("CREATE TABLE trino_made.events (id integer NOT NULL, name varchar) WITH (primary_key = ARRAY['id'], options = ARRAY['bucket=1'])");
        Catalog catalog = paimon.catalog();
        assertThat(catalog.listTables("trino_made")).containsExactly("events");
        Table events = catalog.getTable(Identifier.create("trino_made", "events"));
        assertThat(events.primaryKeys()).containsExactly("id");
        // the server's table-default options are added as Paimon's client adds them
        assertThat(events.options()).containsEntry("file.format", "orc").containsEntry("bucket", "1");

        assertUpdate("INSERT INTO trino_made.events VALUES (1, 'a'), (2, 'b')", 2);
        assertUpdate("INSERT INTO trino_made.events VALUES (2, 'c')", 1);
        // the commits went to the server: its latest snapshot is the second INSERT's
        Optional<TableSnapshot> latest = catalog.loadSnapshot(Identifier.create("trino_made", "events"));
        assertThat(latest).isPresent();
        assertThat(latest.get().snapshot().id()).isEqualTo(2);
        assertThat(javaRows(catalog.getTable(Identifier.create("trino_made", "events")))).containsExactly("1|a", "2|c");

        assertUpdate("CREATE TABLE trino_made.copied AS SELECT id, name FROM trino_made.events", 2);
        assertThat(javaRows(catalog.getTable(Identifier.create("trino_made", "copied")))).containsExactly("1|a", "2|c");

        // the server renames (Paimon 1.4.2's test server moves the folder but keeps the old path and latest snapshot
        // under the old name, so the renamed table is only checked by name)
        assertUpdate("ALTER TABLE trino_made.events RENAME TO trino_made.renamed");
        assertThat(catalog.listTables("trino_made")).containsExactly("copied", "renamed");
        assertThat(computeActual("SHOW TABLES FROM trino_made").getOnlyColumnAsSet()).containsExactlyInAnyOrder("copied", "renamed");

        catalog.dropTable(Identifier.create("trino_made", "renamed"), false);
        assertUpdate("DROP TABLE trino_made.copied");
        assertThat(catalog.listTables("trino_made")).isEmpty();
        assertUpdate("DROP SCHEMA trino_made");
        assertThat(paimon.listDatabases()).doesNotContain("trino_made");
    }

    @Test
    void testDeleteUpdateAndMerge()
            throws Exception
    {
        assertUpdate("CREATE TABLE dml (id integer NOT NULL, v bigint) WITH (primary_key = ARRAY['id'], options = ARRAY['bucket=1'])");
        assertUpdate("INSERT INTO dml VALUES (1, 10), (2, 20), (3, 30)", 3);
        assertUpdate("DELETE FROM dml WHERE id = 1", 1);
        assertUpdate("UPDATE dml SET v = v + 1 WHERE id = 2", 1);
        assertUpdate("MERGE INTO dml t USING (VALUES (3, 300), (4, 400)) s(id, v) ON t.id = s.id " +
                "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)", 2);
        Catalog catalog = paimon.catalog();
        assertThat(javaRows(catalog.getTable(Identifier.create(DATABASE, "dml")))).containsExactly("2|21", "3|300", "4|400");
        // one snapshot per statement, each taken by the server: INSERT, DELETE, UPDATE, MERGE
        assertThat(catalog.loadSnapshot(Identifier.create(DATABASE, "dml")).orElseThrow().snapshot().id()).isEqualTo(4);
        assertUpdate("DROP TABLE dml");
    }

    @Test
    void testConcurrentCommitsOfTrinoAndPaimonJavaLoseNothing()
            throws Exception
    {
        Table table = paimon.createTable(DATABASE, "shared", Schema.newBuilder()
                .column("writer", DataTypes.STRING())
                .column("n", DataTypes.INT())
                .build());
        int rounds = 6;
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            Future<?> trino = executor.submit(() -> {
                for (int i = 0; i < rounds; i++) {
                    assertUpdate("INSERT INTO shared VALUES ('trino', %s)".formatted(i), 1);
                }
            });
            Future<?> java = executor.submit(() -> {
                for (int i = 0; i < rounds; i++) {
                    PaimonJavaCatalog.write(paimon.getTable(DATABASE, "shared"), List.of(GenericRow.of(BinaryString.fromString("java"), i)));
                }
            });
            trino.get();
            java.get();
        }
        finally {
            executor.shutdownNow();
        }
        List<String> expected = new ArrayList<>();
        for (String writer : List.of("java", "trino")) {
            for (int i = 0; i < rounds; i++) {
                expected.add(writer + "|" + i);
            }
        }
        expected.sort(null);
        assertThat(rows("SELECT writer, n FROM shared")).containsExactlyElementsOf(expected);
        assertThat(javaRows(paimon.getTable(DATABASE, "shared"))).containsExactlyElementsOf(expected);
        assertThat(table.name()).isEqualTo("shared");
    }

    @Test
    void testWrongTokenIsRefused()
            throws Exception
    {
        getQueryRunner().createCatalog("wrong_token", "paimon", catalogProperties(server.url(), "not-the-token"));
        assertThatThrownBy(() -> computeActual("SHOW SCHEMAS FROM wrong_token"))
                .hasMessageContaining("Catalog 'wrong_token'")
                .hasMessageContaining("refused the credentials")
                .hasMessageContaining("HTTP 401");
    }

    @Test
    void testUnreachableServer()
            throws Exception
    {
        int closedPort = freePort();
        getQueryRunner().createCatalog("unreachable", "paimon", catalogProperties("http://127.0.0.1:" + closedPort, TOKEN));
        assertThatThrownBy(() -> computeActual("SELECT * FROM unreachable.rest_db.orders"))
                .hasMessageContaining("Catalog 'unreachable'")
                .hasMessageContaining("cannot reach the REST catalog server http://127.0.0.1:" + closedPort);
    }

    @Test
    void testTableWithoutFilesAtItsLocation()
            throws Exception
    {
        Table lost = paimon.createTable(DATABASE, "lost", Schema.newBuilder().column("x", DataTypes.INT()).build());
        Path location = Path.of(java.net.URI.create(lost.options().getOrDefault("path", "")).getPath());
        deleteRecursively(location);
        assertThatThrownBy(() -> computeActual("SELECT * FROM lost"))
                .hasMessageContaining("Catalog 'paimon'")
                .hasMessageContaining("rest_db.lost is registered at")
                .hasMessageContaining("no Paimon schema file");
    }

    @Test
    void testFormatTableIsNotReadAsPaimonTable()
    {
        paimon.createTable(DATABASE, "csv_files", Schema.newBuilder()
                .column("x", DataTypes.INT())
                .option("type", "format-table")
                .option("file.format", "csv")
                .build());
        assertThatThrownBy(() -> computeActual("SELECT * FROM csv_files"))
                .hasMessageContaining("Catalog 'paimon'")
                .hasMessageContaining("rest_db.csv_files is a Paimon format-table");
    }

    /**
     * A view Paimon Java stores is read with its Trino dialect, not its default query (here in Spark's dialect, which
     * Trino cannot parse); a view Trino creates is a Paimon view with its columns, its comment and its SQL both as the
     * default query and as the Trino dialect.
     */
    @Test
    void testViewsArePaimonViews()
            throws Exception
    {
        Table sales = paimon.createTable(DATABASE, "view_sales", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .column("amount", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(sales, List.of(order(1, "apple", 150), order(2, "pear", 275), order(3, "plum", 99)));
        Identifier bigSales = Identifier.create(DATABASE, "big_sales");
        paimon.catalog().createView(bigSales, new ViewImpl(
                bigSales,
                List.of(new DataField(0, "id", DataTypes.INT()), new DataField(1, "item", DataTypes.STRING())),
                "SELECT `id`, `item` FROM view_sales WHERE amount > 100",
                Map.of("trino", "SELECT id, item FROM view_sales WHERE amount > 100"),
                "sales over 100",
                Map.of()), false);

        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("big_sales");
        assertQuery("SELECT table_name FROM information_schema.views WHERE table_schema = '%s'".formatted(DATABASE), "VALUES 'big_sales'");
        assertQuery("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = '%s' AND table_name = 'big_sales'".formatted(DATABASE),
                "VALUES ('id', 'integer'), ('item', 'varchar')");
        assertQuery("SELECT * FROM big_sales", "VALUES (1, 'apple'), (2, 'pear')");

        assertUpdate("CREATE VIEW small_sales COMMENT 'sales under 200' AS SELECT id, amount FROM view_sales WHERE amount < 200");
        View created = paimon.catalog().getView(Identifier.create(DATABASE, "small_sales"));
        assertThat(created.rowType().getFieldNames()).containsExactly("id", "amount");
        assertThat(created.rowType().getFieldTypes()).containsExactly(DataTypes.INT(), DataTypes.BIGINT());
        assertThat(created.comment()).hasValue("sales under 200");
        assertThat(created.query()).contains("view_sales").contains("amount < 200");
        assertThat(created.dialects()).containsEntry("trino", created.query());
        assertQuery("SELECT * FROM small_sales", "VALUES (1, 150), (3, 99)");

        assertThatThrownBy(() -> computeActual("CREATE OR REPLACE VIEW small_sales AS SELECT id FROM view_sales"))
                .hasMessageContaining("replacing view %s.small_sales is not supported".formatted(DATABASE));
        assertUpdate("DROP VIEW small_sales");
        assertThat(paimon.catalog().listViews(DATABASE)).containsExactly("big_sales");
        assertUpdate("DROP VIEW big_sales");
        assertThat(paimon.catalog().listViews(DATABASE)).isEmpty();
    }

    /**
     * {@code ALTER VIEW … RENAME TO} goes through the server's view rename and {@code COMMENT ON VIEW} through its
     * alter-view endpoint (Paimon's {@code updateComment} change), so Paimon Java reads the view back renamed and
     * commented, dialects kept; a column's comment, which Paimon's view changes cannot express, is refused.
     */
    @Test
    void testViewsAreRenamedAndCommented()
            throws Exception
    {
        Table sales = paimon.createTable(DATABASE, "commented_sales", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("amount", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(sales, List.of(GenericRow.of(1, 150L), GenericRow.of(2, 275L)));
        assertUpdate("CREATE VIEW large_sales AS SELECT id FROM commented_sales WHERE amount > 200");

        assertUpdate("COMMENT ON VIEW large_sales IS 'sales over 200'");
        assertThat(paimon.catalog().getView(Identifier.create(DATABASE, "large_sales")).comment()).hasValue("sales over 200");
        assertThat((String) computeScalar("SHOW CREATE VIEW large_sales")).contains("COMMENT 'sales over 200'");

        assertThatThrownBy(() -> computeActual("COMMENT ON COLUMN large_sales.id IS 'sale'"))
                .hasMessageContaining("view %s.large_sales: commenting on column 'id' is not supported".formatted(DATABASE));
        assertThat(paimon.catalog().getView(Identifier.create(DATABASE, "large_sales")).rowType().getField("id").description()).isNull();

        assertUpdate("ALTER VIEW large_sales RENAME TO huge_sales");
        assertThatThrownBy(() -> paimon.catalog().getView(Identifier.create(DATABASE, "large_sales")))
                .isInstanceOf(Catalog.ViewNotExistException.class);
        View renamed = paimon.catalog().getView(Identifier.create(DATABASE, "huge_sales"));
        assertThat(renamed.comment()).hasValue("sales over 200");
        assertThat(renamed.dialects()).containsEntry("trino", renamed.query());
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("huge_sales").doesNotContain("large_sales");
        assertQuery("SELECT * FROM huge_sales", "VALUES 2");

        assertUpdate("COMMENT ON VIEW huge_sales IS NULL");
        assertThat(paimon.catalog().getView(Identifier.create(DATABASE, "huge_sales")).comment()).isEmpty();
        assertUpdate("DROP VIEW huge_sales");
    }

    /**
     * Tags are files, as Paimon's REST client writes them; branches are the server's: Trino creates and deletes them
     * through its branch endpoints, and Paimon Java's client lists and reads what Trino made.
     */
    @Test
    void testTagsAndBranchesFromTrino()
            throws Exception
    {
        Table versioned = paimon.createTable(DATABASE, "versioned", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .column("amount", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(versioned, List.of(order(1, "apple", 150)));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "versioned"), List.of(order(2, "pear", 275)));
        Identifier identifier = Identifier.create(DATABASE, "versioned");

        assertUpdate("CALL paimon.system.create_tag(schema_name => '%s', table_name => 'versioned', tag => 'first', snapshot_id => 1)".formatted(DATABASE));
        assertThat(((FileStoreTable) paimon.catalog().getTable(identifier)).tagManager().allTagNames()).containsExactly("first");
        assertUpdate("CALL paimon.system.create_branch(schema_name => '%s', table_name => 'versioned', branch => 'dev', tag => 'first')".formatted(DATABASE));
        assertThat(paimon.catalog().listBranches(identifier)).containsExactly("dev");
        // the branch starts at the tag (Paimon 1.4.2's test server gives its client the main branch's latest snapshot
        // for a new branch, so the branch is read here from its files, by Trino, against Paimon Java's read of the tag)
        List<String> tagged = javaRows(paimon.catalog().getTable(identifier).copy(Map.of("scan.tag-name", "first")));
        assertThat(tagged).containsExactly("1|apple|150");
        assertThat(rows("SELECT id, item, amount FROM \"versioned$branch_dev\"")).isEqualTo(tagged);
        assertQueryFails("CALL paimon.system.create_branch(schema_name => '%s', table_name => 'versioned', branch => 'dev')".formatted(DATABASE),
                "Branch 'dev' of Paimon table rest_db.versioned already exists");

        // Paimon Java commits on the branch through the server; fast_forward and rollback_to go through the server too
        PaimonJavaCatalog.write(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned$branch_dev")), List.of(order(3, "plum", 99)));
        List<String> onBranch = javaRows(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned$branch_dev")));
        assertThat(onBranch).contains("3|plum|99");
        // Trino commits on the branch through the server too
        assertUpdate("INSERT INTO \"versioned$branch_dev\" VALUES (4, 'fig', 12)", 1);
        assertThat(javaRows(paimon.catalog().getTable(identifier))).doesNotContain("4|fig|12");
        onBranch = javaRows(paimon.catalog().getTable(Identifier.create(DATABASE, "versioned$branch_dev")));
        assertThat(onBranch).contains("3|plum|99", "4|fig|12");
        assertThat(rows("SELECT id, item, amount FROM \"versioned$branch_dev\"")).isEqualTo(onBranch);
        assertUpdate("CALL paimon.system.fast_forward(schema_name => '%s', table_name => 'versioned', branch => 'dev')".formatted(DATABASE));
        assertThat(javaRows(paimon.catalog().getTable(identifier))).isEqualTo(onBranch);
        assertThat(rows("SELECT id, item, amount FROM versioned")).isEqualTo(onBranch);
        assertUpdate("CALL paimon.system.rollback_to(schema_name => '%s', table_name => 'versioned', tag => 'first')".formatted(DATABASE));
        assertThat(javaRows(paimon.catalog().getTable(identifier))).isEqualTo(tagged);
        assertThat(rows("SELECT id, item, amount FROM versioned")).isEqualTo(tagged);

        assertUpdate("CALL paimon.system.delete_branch(schema_name => '%s', table_name => 'versioned', branch => 'dev')".formatted(DATABASE));
        assertThat(paimon.catalog().listBranches(identifier)).isEmpty();
        assertQueryFails("CALL paimon.system.delete_branch(schema_name => '%s', table_name => 'versioned', branch => 'dev')".formatted(DATABASE),
                "Paimon table rest_db.versioned has no branch 'dev'");
    }

    /** expire_partitions commits its drop through the server, as every other commit does; Paimon's client reads the rest. */
    @Test
    void testExpirePartitionsCommitsThroughTheServer()
            throws Exception
    {
        Table daily = paimon.createTable(DATABASE, "daily", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .build());
        PaimonJavaCatalog.write(daily, List.of(
                GenericRow.of(1, BinaryString.fromString("2020-01-01")),
                GenericRow.of(2, BinaryString.fromString("2999-01-01"))));
        assertUpdate("CALL paimon.system.expire_partitions(schema_name => '%s', table_name => 'daily', expiration_time => '1 d')".formatted(DATABASE));

        FileStoreTable expired = (FileStoreTable) paimon.catalog().getTable(Identifier.create(DATABASE, "daily"));
        assertThat(expired.snapshotManager().latestSnapshot().commitKind()).isEqualTo(org.apache.paimon.Snapshot.CommitKind.OVERWRITE);
        assertThat(javaRows(expired)).containsExactly("2|2999-01-01");
        assertThat(rows("SELECT id, dt FROM daily")).containsExactly("2|2999-01-01");
    }

    @Test
    void testAlterTableGoesThroughTheServer()
            throws Exception
    {
        assertUpdate("CREATE TABLE altered (id integer NOT NULL, v bigint) WITH (primary_key = ARRAY['id'], options = ARRAY['bucket=1'])");
        assertUpdate("INSERT INTO altered VALUES (1, 10)", 1);
        assertUpdate("ALTER TABLE altered ADD COLUMN note varchar");
        assertUpdate("ALTER TABLE altered RENAME COLUMN v TO amount");
        assertUpdate("COMMENT ON TABLE altered IS 'hello'");
        assertUpdate("INSERT INTO altered VALUES (2, 20, 'x')", 1);

        Table table = paimon.catalog().getTable(Identifier.create(DATABASE, "altered"));
        // three schema changes, each applied by the server on top of the one before
        assertThat(((org.apache.paimon.table.FileStoreTable) table).schema().id()).isEqualTo(3);
        assertThat(table.rowType().getFieldNames()).containsExactly("id", "amount", "note");
        assertThat(table.comment()).contains("hello");
        assertThat(javaRows(table)).containsExactly("1|10|null", "2|20|x");
        assertThat(rows("SELECT id, amount, note FROM altered")).containsExactly("1|10|null", "2|20|x");

        assertUpdate("ALTER TABLE altered DROP COLUMN note");
        table = paimon.catalog().getTable(Identifier.create(DATABASE, "altered"));
        assertThat(table.rowType().getFieldNames()).containsExactly("id", "amount");
        assertThat(rows("SELECT * FROM altered")).containsExactly("1|10", "2|20");
        assertUpdate("DROP TABLE altered");
    }

    private List<String> rows(String sql)
    {
        return computeActual(sql).getMaterializedRows().stream()
                .map(TestRestCatalog::text)
                .sorted()
                .toList();
    }

    private static String text(MaterializedRow row)
    {
        List<String> values = new ArrayList<>();
        row.getFields().forEach(value -> values.add(String.valueOf(value)));
        return String.join("|", values);
    }

    // Paimon Java's rows as the same text: "+I(1, apple, 150)" becomes "1|apple|150"
    private static List<String> javaRows(Table table)
    {
        return PaimonJavaCatalog.readRows(table).stream()
                .map(row -> row.substring(row.indexOf('(') + 1, row.length() - 1).replace(", ", "|"))
                .sorted()
                .toList();
    }

    private static GenericRow order(int id, String item, long amount)
    {
        return GenericRow.of(id, BinaryString.fromString(item), amount);
    }

    private static void deleteRecursively(Path path)
    {
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
