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
import io.trino.plugin.paimon.testing.BucketFolderFileIO;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.PaimonRestServer;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.S3Server;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.RESTToken;
import org.apache.paimon.rest.responses.ConfigResponse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A REST catalog whose server vends data tokens for tables on S3 (S3Proxy): the catalog's own S3 keys are wrong, so
 * every file Trino opens, reads or writes is reached only with the S3 credentials of the table's data token. Paimon
 * Java writes and reads the same tables through the same server.
 */
final class TestRestDataTokensOnS3
        extends AbstractTestQueryFramework
{
    private static final String WAREHOUSE = "token_warehouse";
    private static final String DATABASE = "token_db";
    private static final long HOUR = 3_600_000L;

    private S3Server s3;
    private PaimonRestServer restServer;
    private RESTCatalogServer server;
    private PaimonJavaCatalog paimon;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = S3Server.start();
        ConfigResponse config = new ConfigResponse(ImmutableMap.of("prefix", "paimon-test"), ImmutableMap.of("data-token.enabled", "true"));
        restServer = PaimonRestServer.startOnS3("rest-tokens-s3", s3, WAREHOUSE, config, DATABASE);
        server = restServer.server();
        paimon = restServer.paimon();

        Table orders = paimon.createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(orders, List.of(order(1, "apple"), order(2, "pear"), order(3, "plum")));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "orders"), List.of(order(2, "quince")));
        vendGoodToken("orders", 2 * HOUR);

        return PaimonQueryRunner.create(ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "rest")
                .put("paimon.rest.uri", server.getUrl())
                .put("paimon.rest.warehouse", WAREHOUSE)
                .put("paimon.rest.token", PaimonRestServer.TOKEN)
                .put("fs.native-s3.enabled", "true")
                .put("s3.endpoint", s3.endpoint().toString())
                .put("s3.region", S3Server.REGION)
                .put("s3.path-style-access", "true")
                // keys S3Proxy refuses: only a table's data token opens its files
                .put("s3.aws-access-key", "not-the-access-key")
                .put("s3.aws-secret-key", "not-the-secret-key")
                .buildOrThrow(), DATABASE);
    }

    @AfterAll
    void shutdown()
            throws Exception
    {
        BucketFolderFileIO.stopServing(S3Server.BUCKET);
        try (S3Server _ = s3; PaimonRestServer _ = restServer) {
            // closed in reverse order: the REST server, then S3Proxy
        }
    }

    @Test
    void readsAndWritesWithTheTablesToken()
    {
        assertThat(rows("orders")).containsExactly("(1, apple)", "(2, quince)", "(3, plum)")
                .isEqualTo(paimonRows("orders"));

        assertUpdate("INSERT INTO orders VALUES (4, 'fig'), (1, 'apricot')", 2);
        assertUpdate("UPDATE orders SET item = 'pomegranate' WHERE id = 3", 1);
        assertUpdate("DELETE FROM orders WHERE id = 2", 1);
        assertThat(paimonRows("orders")).containsExactly("(1, apricot)", "(3, pomegranate)", "(4, fig)")
                .isEqualTo(rows("orders"));

        // compaction and the system tables read and write the same files with the token
        assertUpdate("ALTER TABLE orders EXECUTE optimize");
        assertThat(computeActual("SELECT commit_kind FROM \"orders$snapshots\" ORDER BY snapshot_id DESC LIMIT 1").getOnlyValue()).isEqualTo("COMPACT");
        assertThat(computeActual("SELECT count(*) FROM \"orders$files\" WHERE level = 0").getOnlyValue()).isEqualTo(0L);
        assertThat(paimonRows("orders")).containsExactly("(1, apricot)", "(3, pomegranate)", "(4, fig)");
    }

    @Test
    void tableTrinoCreatesIsWrittenWithItsToken()
    {
        assertUpdate("CREATE TABLE created (id integer NOT NULL, v varchar) WITH (primary_key = ARRAY['id'], options = ARRAY['bucket=1'])");
        vendGoodToken("created", 2 * HOUR);
        assertUpdate("INSERT INTO created VALUES (1, 'one'), (2, 'two')", 2);
        assertUpdate("INSERT INTO created VALUES (2, 'deux')", 1);
        assertThat(paimonRows("created")).containsExactly("(1, one)", "(2, deux)").isEqualTo(rows("created"));
        assertThat(((FileStoreTable) paimon.getTable(DATABASE, "created")).location().toString()).startsWith("s3://" + S3Server.BUCKET + "/");
        assertUpdate("DROP TABLE created");
    }

    @Test
    void tokenWithoutTheStoragesKeysIsRefusedNamingTheTable()
    {
        paimon.createTable(DATABASE, "denied", Schema.newBuilder().column("id", DataTypes.INT()).build());
        vendToken("denied", "not-the-access-key", "not-the-secret-key", 2 * HOUR);
        String refused = "The storage refused the data token the REST catalog server gave for table 'token_db.denied' \\(access denied to s3://.*/token_db.db/denied/.*";
        assertQueryFails("INSERT INTO denied VALUES 1", refused);
        assertQueryFails("SELECT * FROM denied", refused);
    }

    @Test
    void tokenNearExpiryIsFetchedAgainAndOneWithTimeLeftIsKept()
    {
        Table table = paimon.createTable(DATABASE, "rotated", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("item", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(table, List.of(order(7, "kiwi")));

        // a token with less than the connector's margin (one hour) left is not kept: each use asks the server
        vendGoodToken("rotated", HOUR / 2);
        assertThat(rows("rotated")).containsExactly("(7, kiwi)");
        vendToken("rotated", "not-the-access-key", "not-the-secret-key", 2 * HOUR);
        assertQueryFails("SELECT * FROM rotated", "The storage refused the data token .* for table 'token_db.rotated' .*");

        // a token with more than the margin left is kept, whatever the server vends meanwhile
        vendGoodToken("rotated", 2 * HOUR);
        assertThat(rows("rotated")).containsExactly("(7, kiwi)");
        vendToken("rotated", "not-the-access-key", "not-the-secret-key", 2 * HOUR);
        assertThat(rows("rotated")).containsExactly("(7, kiwi)");
    }

    private void vendGoodToken(String table, long validForMillis)
    {
        vendToken(table, S3Server.ACCESS_KEY, S3Server.SECRET_KEY, validForMillis);
    }

    private void vendToken(String table, String accessKey, String secretKey, long validForMillis)
    {
        // the keys under the names Paimon's S3 file IO reads; S3Proxy accepts any session token with its keys
        Map<String, String> token = ImmutableMap.of(
                "fs.s3a.access.key", accessKey,
                "fs.s3a.secret.key", secretKey,
                "fs.s3a.session.token", "session-of-" + table);
        server.setDataToken(Identifier.create(DATABASE, table), new RESTToken(token, System.currentTimeMillis() + validForMillis));
    }

    private List<String> rows(String table)
    {
        return RowText.paimonText(computeActual("SELECT * FROM " + table));
    }

    private List<String> paimonRows(String table)
    {
        return RowText.paimonText(paimon.getTable(DATABASE, table));
    }

    private static GenericRow order(int id, String item)
    {
        return GenericRow.of(id, BinaryString.fromString(item));
    }
}
