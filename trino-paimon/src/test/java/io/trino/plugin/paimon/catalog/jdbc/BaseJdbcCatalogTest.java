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
package io.trino.plugin.paimon.catalog.jdbc;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The JDBC catalog against Paimon Java's {@code JdbcCatalog} on one database: Trino lists and reads what Paimon Java
 * registered, Paimon Java sees and reads what Trino creates, renames, drops and writes, both commit to one table at
 * once through Paimon's lock rows without losing a commit, and a database that is down, a table whose files are gone
 * or a folder nobody registered each give a clear error. Each subclass runs these checks on one database.
 */
abstract class BaseJdbcCatalogTest
        extends AbstractTestQueryFramework
{
    static final String DATABASE = "lake";
    static final String CATALOG_KEY = "jdbc";

    private TempWarehouse warehouse;
    private PaimonJavaCatalog paimon;
    private String uri;

    /** Starts the database of the catalog tables; returns its JDBC URL. */
    protected abstract String startDatabase(Path root)
            throws Exception;

    protected abstract void stopDatabase()
            throws Exception;

    protected abstract Map<String, String> credentials();

    /** Statements that make the database refuse to insert the row of a table named {@code table} into {@code paimon_tables}. */
    protected abstract List<String> refuseRegistrationOf(String table);

    /** A URL of the same kind on which no database can be reached. */
    protected abstract String unreachableUri(Path root);

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        uri = startDatabase(warehouse.root());
        ImmutableMap.Builder<String, String> paimonOptions = ImmutableMap.<String, String>builder()
                .put("metastore", "jdbc")
                .put("uri", uri)
                .put("catalog-key", CATALOG_KEY)
                .put("lock.enabled", "true");
        credentials().forEach((key, value) -> paimonOptions.put("jdbc." + key, value));
        paimon = PaimonJavaCatalog.withOptions(warehouse.warehouse(), paimonOptions.buildOrThrow());
        paimon.createDatabase(DATABASE);
        for (String table : List.of("orders", "accounts", "locked", "gone", "race", "versioned")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("k", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("k")
                    .option("bucket", table.equals("race") ? "2" : "1")
                    // the race is between commits of new rows, not with a compaction of Paimon Java's writer
                    .option("write-only", String.valueOf(table.equals("race")))
                    .build());
        }
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "orders"), List.of(row(1, "one"), row(2, "two"), row(3, "three")));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "orders"), List.of(row(2, "TWO")));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "accounts"), List.of(row(1, "a"), row(2, "b"), row(3, "c")));

        QueryRunner queryRunner = PaimonQueryRunner.create(catalogProperties(uri), DATABASE);
        try {
            queryRunner.createCatalog("unreachable", "paimon", catalogProperties(unreachableUri(warehouse.root())));
            queryRunner.createCatalog("short_lock", "paimon", ImmutableMap.<String, String>builder()
                    .putAll(catalogProperties(uri))
                    .put("paimon.jdbc.lock-acquire-timeout", "2s")
                    .put("paimon.jdbc.lock-check-max-sleep", "200ms")
                    .buildOrThrow());
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    /** The catalog file docs/catalogs-and-file-systems.md shows for the JDBC catalog, over the test's warehouse. */
    protected Map<String, String> catalogProperties(String jdbcUri)
    {
        ImmutableMap.Builder<String, String> properties = ImmutableMap.<String, String>builder()
                .putAll(PaimonQueryRunner.catalogProperties(warehouse.root()))
                .put("paimon.catalog.type", "jdbc")
                .put("paimon.jdbc.uri", jdbcUri)
                .put("paimon.jdbc.lock.enabled", "true");
        credentials().forEach((key, value) -> properties.put("paimon.jdbc." + key, value));
        return properties.buildOrThrow();
    }

    @AfterAll
    final void closeFixtures()
            throws Exception
    {
        try {
            if (paimon != null) {
                paimon.close();
            }
            stopDatabase();
        }
        finally {
            if (warehouse != null) {
                warehouse.close();
            }
        }
    }

    @Test
    void listsAndReadsWhatPaimonJavaRegistered()
    {
        paimon.createDatabase("without_tables");
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains(DATABASE, "without_tables");
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders", "accounts");
        assertThat(computeActual("SHOW TABLES FROM without_tables").getRowCount()).isZero();
        assertThat(rows("orders"))
                .containsExactly("(1, one)", "(2, TWO)", "(3, three)")
                .isEqualTo(RowText.paimonText(paimon.getTable(DATABASE, "orders")));
        // system tables and time travel resolve through the registered table
        assertThat(computeActual("SELECT count(*) FROM \"orders$snapshots\"").getOnlyValue()).isEqualTo((long) snapshots("orders").listSnapshotIds().size());
        assertThat(rows("orders FOR VERSION AS OF 1")).containsExactly("(1, one)", "(2, two)", "(3, three)");
    }

    /** A table's folder is not a table of this catalog until it is registered, as in Paimon Java's JDBC catalog. */
    @Test
    void folderWithoutRegistrationIsNoTable()
            throws Exception
    {
        try (PaimonJavaCatalog folders = new PaimonJavaCatalog(warehouse.warehouse())) {
            folders.createTable(DATABASE, "unregistered", Schema.newBuilder().column("k", DataTypes.INT()).build());
        }
        Path schemaFile = warehouse.warehouse().resolve(DATABASE + ".db/unregistered/schema/schema-0");
        String schema = Files.readString(schemaFile);

        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).doesNotContain("unregistered");
        assertThat(paimon.listTables(DATABASE)).doesNotContain("unregistered");
        assertThatThrownBy(() -> computeActual("SELECT * FROM unregistered"))
                .hasMessageContaining("Table 'paimon.lake.unregistered' does not exist");
        assertThatTrinoException(catchTrinoException("CREATE TABLE unregistered (k int, v varchar)"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessage("Cannot create table lake.unregistered in %s: its location local:///warehouse/lake.db/unregistered holds a Paimon table that the catalog does not list (register it with Paimon's repair_table procedure, or remove the folder)"
                        .formatted(catalogDescription(uri)));
        // nothing registered, the folder as it was
        assertThat(registeredTables(DATABASE)).doesNotContain("unregistered");
        assertThat(Files.readString(schemaFile)).isEqualTo(schema);
    }

    @Test
    void schemasAndTablesTrinoCreatesAreRegisteredAsPaimonJavaRegistersThem()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA from_trino");
        assertThat(paimon.listDatabases()).contains("from_trino");
        // the properties of a database Paimon Java creates without properties
        paimon.createDatabase("from_paimon");
        assertThat(databaseProperties("from_trino").keySet()).isEqualTo(databaseProperties("from_paimon").keySet());
        assertThat(databaseProperties("from_trino")).containsEntry("exists", "true").containsEntry("location", "local:///warehouse/from_trino.db");

        assertUpdate("CREATE TABLE from_trino.items (k int, v varchar) WITH (primary_key = ARRAY['k'], bucket = 2)");
        assertUpdate("INSERT INTO from_trino.items VALUES (1, 'one'), (2, 'two'), (3, 'three')", 3);
        assertThat(registeredTables("from_trino")).containsExactly("items");
        assertThat(paimon.listTables("from_trino")).containsExactly("items");
        assertThat(RowText.paimonText(paimon.getTable("from_trino", "items"))).containsExactly("(1, one)", "(2, two)", "(3, three)");

        assertUpdate("ALTER TABLE from_trino.items RENAME TO from_trino.renamed");
        assertThat(paimon.listTables("from_trino")).containsExactly("renamed");
        assertThat(RowText.paimonText(paimon.getTable("from_trino", "renamed"))).containsExactly("(1, one)", "(2, two)", "(3, three)");
        assertThat(rows("from_trino.renamed")).containsExactly("(1, one)", "(2, two)", "(3, three)");
        assertThat(warehouse.warehouse().resolve("from_trino.db/items")).doesNotExist();

        assertUpdate("DROP TABLE from_trino.renamed");
        assertThat(paimon.listTables("from_trino")).isEmpty();
        assertThat(warehouse.warehouse().resolve("from_trino.db/renamed")).doesNotExist();
        assertUpdate("DROP SCHEMA from_trino");
        assertThat(paimon.listDatabases()).doesNotContain("from_trino");
        assertThat(databaseProperties("from_trino")).isEmpty();

        // and the other way round: what Paimon Java drops is gone for Trino
        paimon.createTable("from_paimon", "short_lived", Schema.newBuilder().column("k", DataTypes.INT()).build());
        assertThat(computeActual("SHOW TABLES FROM from_paimon").getOnlyColumnAsSet()).containsExactly("short_lived");
        paimon.dropTable("from_paimon", "short_lived");
        assertThat(computeActual("SHOW TABLES FROM from_paimon").getRowCount()).isZero();
    }

    @Test
    void writesAndSchemaChangesAreReadBackByPaimonJava()
    {
        assertUpdate("INSERT INTO accounts VALUES (4, 'd')", 1);
        assertUpdate("UPDATE accounts SET v = 'B' WHERE k = 2", 1);
        assertUpdate("DELETE FROM accounts WHERE k = 3", 1);
        assertUpdate("MERGE INTO accounts t USING (VALUES (1, 'A'), (5, 'e')) s(k, v) ON t.k = s.k " +
                "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v)", 2);
        assertUpdate("ALTER TABLE accounts ADD COLUMN note varchar");
        assertUpdate("INSERT INTO accounts VALUES (6, 'f', 'new')", 1);

        List<String> expected = List.of("(1, A, null)", "(2, B, null)", "(4, d, null)", "(5, e, null)", "(6, f, new)");
        assertThat(rows("accounts")).isEqualTo(expected);
        assertThat(RowText.paimonText(paimon.getTable(DATABASE, "accounts"))).isEqualTo(expected);
    }

    /** Tags, a branch and a write to it, fast-forward and rollback from Trino, as Paimon Java reads them through the catalog. */
    @Test
    void tagsAndBranchesFromTrino()
    {
        assertUpdate("INSERT INTO versioned VALUES (1, 'one')", 1);
        assertUpdate(call("create_tag", "tag => 'first'"));
        assertUpdate(call("create_branch", "branch => 'dev', tag => 'first'"));
        assertUpdate("INSERT INTO \"versioned$branch_dev\" VALUES (2, 'two')", 1);
        FileStoreTable table = (FileStoreTable) paimon.getTable(DATABASE, "versioned");
        assertThat(table.tagManager().allTagNames()).containsExactly("first");
        assertThat(table.branchManager().branches()).containsExactly("dev");
        // Paimon 1.4.2's JDBC catalog loads no "t$branch_b": the branch is read from the table's files
        assertThat(RowText.paimonText(table.switchToBranch("dev"))).isEqualTo(List.of("(1, one)", "(2, two)"));
        assertThat(RowText.paimonText(paimon.getTable(DATABASE, "versioned"))).isEqualTo(List.of("(1, one)"));

        assertUpdate(call("fast_forward", "branch => 'dev'"));
        assertThat(RowText.paimonText(paimon.getTable(DATABASE, "versioned"))).isEqualTo(List.of("(1, one)", "(2, two)"));
        assertUpdate(call("rollback_to", "tag => 'first'"));
        assertThat(RowText.paimonText(paimon.getTable(DATABASE, "versioned"))).isEqualTo(List.of("(1, one)"));
        assertThat(rows("versioned")).containsExactly("(1, one)");
    }

    private static String call(String procedure, String arguments)
    {
        return "CALL paimon.system.%s(schema_name => '%s', table_name => 'versioned', %s)".formatted(procedure, DATABASE, arguments);
    }

    /**
     * A commit publishes its snapshot only while it holds Paimon's lock row of the table: while another writer
     * holds it, the commit waits and gives up after the acquire timeout; a row older than its expiry is taken over.
     */
    @Test
    void commitsHoldPaimonsLockRow()
            throws Exception
    {
        String lockId = CATALOG_KEY + "." + DATABASE + ".locked";
        Session shortLock = testSessionBuilder().setCatalog("short_lock").setSchema(DATABASE).build();
        updateCatalogTables("INSERT INTO paimon_distributed_locks (lock_id, expire_time_seconds) VALUES (?, ?)", lockId, 3600);
        assertThatTrinoException(catchTrinoException(shortLock, "INSERT INTO locked VALUES (1, 'one')"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessageContaining("Failed to take the lock %s of table lake.locked in %s within 2.00s".formatted(lockId, catalogDescription(uri)));
        assertThat(snapshots("locked").latestSnapshotId()).isEmpty();

        // the holder is gone for longer than the row's expiry: the next writer removes the row, as Paimon's dialects do
        updateCatalogTables("UPDATE paimon_distributed_locks SET acquired_at = '2000-01-01 00:00:00' WHERE lock_id = ?", lockId);
        getQueryRunner().execute(shortLock, "INSERT INTO locked VALUES (1, 'one')");
        assertThat(rows("locked")).containsExactly("(1, one)");
        assertThat(lockRows()).isEmpty();
    }

    @Test
    void trinoAndPaimonJavaCommitToOneTableAtOnce()
            throws Exception
    {
        int commits = 5;
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
                    PaimonJavaCatalog.write(paimon.getTable(DATABASE, "race"), List.of(row(key, "paimon")));
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
            assertThat(RowText.paimonText(paimon.getTable(DATABASE, "race"))).isEqualTo(expected);
            // one APPEND snapshot per commit that landed, numbered without a gap
            SnapshotFiles snapshots = snapshots("race");
            long latest = snapshots.latestSnapshotId().orElseThrow();
            assertThat(snapshots.listSnapshotIds()).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, latest).boxed().toList());
            assertThat(LongStream.rangeClosed(1, latest).filter(id -> snapshots.readSnapshot(id).commitKind() == Snapshot.CommitKind.APPEND).count())
                    .isEqualTo(trino.get().size() + paimonJava.get().size());
            assertThat(lockRows()).isEmpty();
        }
        finally {
            executor.shutdownNow();
        }
    }

    @Test
    void unreachableDatabaseIsAClearError()
    {
        Session unreachable = testSessionBuilder().setCatalog("unreachable").setSchema(DATABASE).build();
        String catalog = catalogDescription(unreachableUri(warehouse.root()));
        assertThatTrinoException(catchTrinoException(unreachable, "SHOW SCHEMAS"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessageContaining("Failed to create Paimon's catalog tables in " + catalog);
        assertThatTrinoException(catchTrinoException(unreachable, "SELECT * FROM orders"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessageContaining(catalog);
    }

    /** When the database refuses the new table's row, the schema file already written is removed again. */
    @Test
    void tableWhoseRegistrationFailsLeavesNothingBehind()
            throws Exception
    {
        for (String statement : refuseRegistrationOf("refused")) {
            updateCatalogTables(statement);
        }
        assertThatTrinoException(catchTrinoException("CREATE TABLE refused (k int, v varchar) WITH (primary_key = ARRAY['k'])"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessageContaining("Failed to register table lake.refused in %s: ".formatted(catalogDescription(uri)))
                .hasMessageContaining("registration refused");
        assertThat(warehouse.warehouse().resolve(DATABASE + ".db/refused")).doesNotExist();
        assertThat(registeredTables(DATABASE)).doesNotContain("refused");
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).doesNotContain("refused");
    }

    @Test
    void registeredTableWithoutFilesIsAClearError()
            throws Exception
    {
        deleteRecursively(warehouse.warehouse().resolve(DATABASE + ".db/gone"), ALLOW_INSECURE);
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("gone");
        assertThatTrinoException(catchTrinoException("SELECT * FROM gone"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessage("Table lake.gone is registered in %s, but its location local:///warehouse/lake.db/gone holds no Paimon table (no schema file)".formatted(catalogDescription(uri)));
    }

    protected final String jdbcUri()
    {
        return uri;
    }

    /** The catalog as the connector's messages name it: by its key and its URL without the parameters, which may hold secrets. */
    protected static String catalogDescription(String jdbcUri)
    {
        int parameters = jdbcUri.indexOf('?');
        return "JDBC catalog '%s' at %s".formatted(CATALOG_KEY, parameters < 0 ? jdbcUri : jdbcUri.substring(0, parameters));
    }

    protected RuntimeException catchTrinoException(String sql)
    {
        return catchTrinoException(getSession(), sql);
    }

    protected RuntimeException catchTrinoException(Session session, String sql)
    {
        try {
            getQueryRunner().execute(session, sql);
        }
        catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("expected a failure: " + sql);
    }

    private List<String> rows(String table)
    {
        return RowText.paimonText(computeActual("SELECT * FROM " + table));
    }

    private SnapshotFiles snapshots(String table)
    {
        return new SnapshotFiles(new LocalFileSystem(warehouse.root()), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table)));
    }

    private List<String> registeredTables(String database)
            throws SQLException
    {
        return catalogRows("SELECT table_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ?", CATALOG_KEY, database).stream()
                .map(row -> row.get(0))
                .toList();
    }

    private Map<String, String> databaseProperties(String database)
            throws SQLException
    {
        Map<String, String> properties = new TreeMap<>();
        catalogRows("SELECT property_key, property_value FROM paimon_database_properties WHERE catalog_key = ? AND database_name = ?", CATALOG_KEY, database)
                .forEach(row -> properties.put(row.get(0), row.get(1)));
        return properties;
    }

    private List<List<String>> lockRows()
            throws SQLException
    {
        return catalogRows("SELECT lock_id FROM paimon_distributed_locks");
    }

    protected final Connection connect()
            throws SQLException
    {
        Map<String, String> credentials = credentials();
        return DriverManager.getConnection(uri, credentials.get("user"), credentials.get("password"));
    }

    private List<List<String>> catalogRows(String sql, Object... parameters)
            throws SQLException
    {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            List<List<String>> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    List<String> row = new ArrayList<>();
                    for (int column = 1; column <= result.getMetaData().getColumnCount(); column++) {
                        row.add(result.getString(column));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    private void updateCatalogTables(String sql, Object... parameters)
            throws SQLException
    {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        }
    }

    private static GenericRow row(int key, String value)
    {
        return GenericRow.of(key, BinaryString.fromString(value));
    }
}
