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
package io.trino.plugin.paimon.catalog;

import com.google.common.base.Throwables;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.BucketFolderFileIO;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.PaimonRestServer;
import io.trino.plugin.paimon.testing.PostgresServer;
import io.trino.plugin.paimon.testing.S3Server;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.rest.RESTToken;
import org.apache.paimon.rest.responses.ConfigResponse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every credential the connector takes, each a value found nowhere else: the REST bearer token, DLF keys, a JDBC
 * password, a Kerberos keytab's content, S3 keys and the S3 keys and session token a REST server vends. Statements
 * that succeed and statements that fail (a wrong token, wrong keys, a wrong password, an unreachable catalog, a table
 * that does not exist) run against them, on a coordinator and two workers; the log of the whole server (every node
 * runs in this JVM, the connector's own loggers at debug level), every error with its causes and remote stack traces, {@code EXPLAIN},
 * {@code SHOW CREATE TABLE}, the tables' system tables and {@code system.runtime.*} must show none of them.
 */
final class TestCredentialsNeverShow
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "secrets";
    private static final String WAREHOUSE = "secrets_warehouse";
    private static final String VENDED_SESSION_TOKEN = "vended-session-token-7qx";
    private static final String DLF_KEY_ID = "dlf-key-id-7qx";
    private static final String DLF_KEY_SECRET = "dlf-key-secret-7qx";
    private static final String WRONG_TOKEN = "wrong-bearer-token-7qx";
    private static final String WRONG_PASSWORD = "wrong-jdbc-password-7qx";
    private static final String WRONG_S3_SECRET = "wrong-s3-secret-7qx";
    private static final String UNREACHABLE_TOKEN = "unreachable-token-7qx";
    private static final String KEYTAB_CONTENT = "keytab-content-7qx";
    // shown on purpose, where a table comment belongs: proves the collection sees what statements show
    private static final String VISIBLE = "visible-comment-7qx";

    private final List<String> logLines = new ArrayList<>();
    private final StringBuilder shown = new StringBuilder();
    private S3Server s3;
    private PaimonRestServer restServer;
    private PostgresServer postgres;
    private TempWarehouse localWarehouse;
    private Handler logCapture;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = S3Server.start();
        restServer = PaimonRestServer.startOnS3("rest-secrets", s3, WAREHOUSE, new ConfigResponse(ImmutableMap.of("prefix", "secrets"), ImmutableMap.of("data-token.enabled", "true")), DATABASE);
        postgres = PostgresServer.start();
        localWarehouse = TempWarehouse.create();

        Table orders = restServer.paimon().createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(GenericRow.of(1, BinaryString.fromString("apple")), GenericRow.of(2, BinaryString.fromString("pear"))));
        restServer.server().setDataToken(Identifier.create(DATABASE, "orders"), new RESTToken(ImmutableMap.of(
                "fs.s3a.access.key", S3Server.ACCESS_KEY,
                "fs.s3a.secret.key", S3Server.SECRET_KEY,
                "fs.s3a.session.token", VENDED_SESSION_TOKEN), System.currentTimeMillis() + 7_200_000L));

        QueryRunner queryRunner = PaimonQueryRunner.create(ImmutableMap.<String, String>builder()
                .putAll(rest(restServer.url(), PaimonRestServer.TOKEN))
                .put("fs.native-s3.enabled", "true")
                .put("s3.endpoint", s3.endpoint().toString())
                .put("s3.region", S3Server.REGION)
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", "catalog-access-key-7qx")
                .put("s3.aws-secret-key", "catalog-secret-key-7qx")
                .buildOrThrow(), DATABASE, 2);

        // capture the log from here on: the runner's start configures the handlers
        logCapture = new Handler()
        {
            private final SimpleFormatter formatter = new SimpleFormatter();

            @Override
            public void publish(LogRecord record)
            {
                synchronized (logLines) {
                    logLines.add(formatter.format(record));
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger.getLogger("").addHandler(logCapture);
        Logger.getLogger("io.trino.plugin.paimon").setLevel(Level.FINE);
        return queryRunner;
    }

    @AfterAll
    void shutdown()
            throws Exception
    {
        Logger.getLogger("").removeHandler(logCapture);
        Logger.getLogger("io.trino.plugin.paimon").setLevel(null);
        BucketFolderFileIO.stopServing(S3Server.BUCKET);
        try (S3Server _ = s3; PaimonRestServer _ = restServer; PostgresServer _ = postgres; TempWarehouse _ = localWarehouse) {
            // closed in reverse order
        }
    }

    @Test
    void noCredentialShowsAnywhere()
            throws Exception
    {
        // a REST catalog whose tables are read and written with vended S3 credentials
        show("SELECT * FROM orders ORDER BY id");
        show("INSERT INTO orders VALUES (3, 'plum')");
        show("UPDATE orders SET item = 'quince' WHERE id = 2");
        show("COMMENT ON TABLE orders IS '" + VISIBLE + "'");
        show("ALTER TABLE orders EXECUTE optimize");
        show("SHOW CREATE TABLE orders");
        show("EXPLAIN SELECT * FROM orders WHERE id = 1");
        show("EXPLAIN ANALYZE SELECT count(*) FROM orders");
        show("EXPLAIN (TYPE IO, FORMAT JSON) SELECT * FROM orders WHERE id = 1");
        for (String systemTable : List.of("snapshots", "schemas", "options", "files", "manifests", "buckets", "tags", "branches", "audit_log", "ro")) {
            show("SELECT * FROM \"orders$%s\"".formatted(systemTable));
        }
        show("SELECT count(*) FROM \"orders$partitions\"");
        show("SELECT * FROM TABLE(system.table_changes(schema_name => '%s', table_name => 'orders', start_snapshot_id => 1))".formatted(DATABASE));
        show("SELECT * FROM missing_table");

        // a folder catalog on S3 with the catalog's keys, and the same with a wrong secret key
        getQueryRunner().createCatalog("s3_folder", "paimon", s3.catalogProperties(s3.warehouse("folder_warehouse")));
        show("CREATE SCHEMA s3_folder.s3_db");
        show("CREATE TABLE s3_folder.s3_db.t (id integer, v varchar)");
        show("INSERT INTO s3_folder.s3_db.t VALUES (1, 'one')");
        show("SHOW CREATE TABLE s3_folder.s3_db.t");
        show("EXPLAIN SELECT * FROM s3_folder.s3_db.t");
        getQueryRunner().createCatalog("s3_denied", "paimon", ImmutableMap.<String, String>builder()
                .putAll(s3.catalogProperties(s3.warehouse("folder_warehouse")))
                .put("s3.aws-secret-key", WRONG_S3_SECRET)
                .buildKeepingLast());
        show("SELECT * FROM s3_denied.s3_db.t");
        show("INSERT INTO s3_denied.s3_db.t VALUES (2, 'two')");

        // a JDBC catalog on PostgreSQL, and the same with a wrong password
        getQueryRunner().createCatalog("jdbc", "paimon", jdbc(PostgresServer.PASSWORD));
        show("CREATE SCHEMA jdbc.jdbc_db");
        show("CREATE TABLE jdbc.jdbc_db.t (id integer, v varchar)");
        show("INSERT INTO jdbc.jdbc_db.t VALUES (1, 'one')");
        show("SELECT * FROM jdbc.jdbc_db.t");
        show("SHOW CREATE TABLE jdbc.jdbc_db.t");
        getQueryRunner().createCatalog("jdbc_wrong_password", "paimon", jdbc(WRONG_PASSWORD));
        show("SHOW SCHEMAS FROM jdbc_wrong_password");
        show("SELECT * FROM jdbc_wrong_password.jdbc_db.t");

        // REST catalogs with a wrong token, with DLF keys the server does not take, and on a port nobody listens on
        getQueryRunner().createCatalog("rest_wrong_token", "paimon", rest(restServer.url(), WRONG_TOKEN));
        show("SHOW SCHEMAS FROM rest_wrong_token");
        show("SELECT * FROM rest_wrong_token.secrets.orders");
        getQueryRunner().createCatalog("rest_dlf", "paimon", ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "rest")
                .put("paimon.rest.uri", restServer.url())
                .put("paimon.rest.warehouse", WAREHOUSE)
                .put("paimon.rest.token.provider", "dlf")
                .put("paimon.rest.dlf.access-key-id", DLF_KEY_ID)
                .put("paimon.rest.dlf.access-key-secret", DLF_KEY_SECRET)
                .put("paimon.rest.dlf.region", "cn-hangzhou")
                .buildOrThrow());
        show("SHOW SCHEMAS FROM rest_dlf");
        show("SELECT * FROM rest_dlf.secrets.orders");
        getQueryRunner().createCatalog("rest_unreachable", "paimon", rest("http://127.0.0.1:" + freePort(), UNREACHABLE_TOKEN));
        show("SHOW SCHEMAS FROM rest_unreachable");

        // a Hive Metastore catalog with Kerberos whose keytab holds a marker, on a port nobody listens on
        Path keytab = Files.createTempFile("secrets", ".keytab");
        Files.writeString(keytab, KEYTAB_CONTENT, UTF_8);
        try {
            getQueryRunner().createCatalog("hive_kerberos", "paimon", ImmutableMap.<String, String>builder()
                    .put("paimon.catalog.type", "hive_metastore")
                    .put("hive.metastore.uri", "thrift://127.0.0.1:" + freePort())
                    .put("paimon.warehouse", "local:///warehouse")
                    .put("fs.native-local.enabled", "true")
                    .put("local.location", localWarehouse.root().toString())
                    .put("hive.metastore.authentication.type", "KERBEROS")
                    .put("hive.metastore.service.principal", "hive/localhost@EXAMPLE.COM")
                    .put("hive.metastore.client.principal", "trino@EXAMPLE.COM")
                    .put("hive.metastore.client.keytab", keytab.toString())
                    .buildOrThrow());
            show("SHOW SCHEMAS FROM hive_kerberos");
        }
        catch (RuntimeException e) {
            shown.append(Throwables.getStackTraceAsString(e));
        }
        finally {
            Files.deleteIfExists(keytab);
        }

        // what the server shows of its queries and nodes
        for (String table : List.of("queries", "tasks", "nodes", "transactions")) {
            show("SELECT * FROM system.runtime." + table);
        }
        show("SELECT * FROM system.metadata.catalogs");

        String everything;
        synchronized (logLines) {
            everything = shown + String.join("", logLines);
        }
        // the statements ran and failed as they should, and what they showed was collected
        assertThat(everything)
                .contains(VISIBLE)
                .contains("HTTP 401")
                .contains("missing_table")
                .contains("jdbc_wrong_password");
        assertThat(logLines).isNotEmpty();
        // not the access key ids (S3Server.ACCESS_KEY, DLF_KEY_ID): an id names its key, as a user name does, and Trino
        // 483 prints it with the rest of a catalog's configuration when the catalog starts, the secrets masked
        for (String credential : List.of(PaimonRestServer.TOKEN, S3Server.SECRET_KEY, VENDED_SESSION_TOKEN, PostgresServer.PASSWORD,
                "catalog-secret-key-7qx", DLF_KEY_SECRET, WRONG_TOKEN, WRONG_PASSWORD, WRONG_S3_SECRET, UNREACHABLE_TOKEN, KEYTAB_CONTENT)) {
            assertThat(everything).as("text shown or logged holds the credential %s", credential).doesNotContain(credential);
        }
    }

    // runs the statement and keeps what it shows: its rows, or its failure with every cause
    private void show(String sql)
    {
        shown.append(sql).append('\n');
        try {
            shown.append(computeActual(sql)).append('\n');
        }
        catch (RuntimeException e) {
            shown.append(Throwables.getStackTraceAsString(e)).append('\n');
        }
    }

    private static Map<String, String> rest(String uri, String token)
    {
        return ImmutableMap.of(
                "paimon.catalog.type", "rest",
                "paimon.rest.uri", uri,
                "paimon.rest.warehouse", WAREHOUSE,
                "paimon.rest.token", token);
    }

    private Map<String, String> jdbc(String password)
    {
        return ImmutableMap.<String, String>builder()
                .putAll(PaimonQueryRunner.catalogProperties(localWarehouse.root()))
                .put("paimon.catalog.type", "jdbc")
                .put("paimon.jdbc.uri", postgres.jdbcUrl())
                .put("paimon.jdbc.user", PostgresServer.USER)
                .put("paimon.jdbc.password", password)
                .buildOrThrow();
    }
}
