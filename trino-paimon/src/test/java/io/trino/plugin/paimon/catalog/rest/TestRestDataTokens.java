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
import com.google.common.collect.ImmutableSet;
import io.trino.plugin.paimon.catalog.rest.RestDataTokens.RestDataToken;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonRestServer;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.security.ConnectorIdentity;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.RESTToken;
import org.apache.paimon.rest.responses.ConfigResponse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/** Data tokens from Paimon's own REST catalog server ({@code RESTCatalogServer} of Paimon 1.4.2), kept until near expiry. */
@TestInstance(PER_CLASS)
final class TestRestDataTokens
{
    private static final String WAREHOUSE = "token_warehouse";
    private static final String TOKEN = PaimonRestServer.TOKEN;
    private static final String DATABASE = "token_db";
    private static final long HOUR = 3_600_000L;

    private PaimonRestServer restServer;
    private RESTCatalogServer server;
    private PaimonJavaCatalog paimon;

    @BeforeAll
    void setUp()
            throws Exception
    {
        ConfigResponse config = new ConfigResponse(ImmutableMap.of("prefix", "paimon-test"), ImmutableMap.of("data-token.enabled", "true"));
        restServer = PaimonRestServer.start("rest-data-tokens", WAREHOUSE, config, DATABASE);
        server = restServer.server();
        paimon = restServer.paimon();
        paimon.createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .primaryKey("id")
                .build());
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (restServer != null) {
            restServer.close();
        }
    }

    @Test
    void enabledWhenTheServersConfigurationSaysSo()
    {
        assertThat(tokens(new AtomicLong()).enabled()).isTrue();
        assertThat(RestDataTokens.dataTokenEnabled("rest_tokens", Map.of())).isFalse();
        assertThat(RestDataTokens.dataTokenEnabled("rest_tokens", Map.of("data-token.enabled", "FALSE"))).isFalse();
        assertThat(RestDataTokens.dataTokenEnabled("rest_tokens", Map.of("data-token.enabled", "True"))).isTrue();
        // neither true nor false: refused, never taken as false
        assertThatThrownBy(() -> RestDataTokens.dataTokenEnabled("rest_tokens", Map.of("data-token.enabled", "yes")))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_CATALOG_ERROR.toErrorCode()))
                .hasMessage("Catalog 'rest_tokens': the REST catalog option 'data-token.enabled' has value 'yes', expected true or false");
    }

    @Test
    void tokenIsTheServersAndKeptUntilFewerThanTheMarginRemain()
    {
        AtomicLong now = new AtomicLong(System.currentTimeMillis());
        Identifier orders = Identifier.create(DATABASE, "orders");
        server.setDataToken(orders, new RESTToken(ImmutableMap.of("s3.access-key", "first-key", "s3.secret-key", "first-secret"), now.get() + 2 * HOUR));
        RestDataTokens tokens = tokens(now);
        SchemaTableName table = new SchemaTableName(DATABASE, "orders");

        RestDataToken first = tokens.token(table);
        assertThat(first.options()).containsExactlyInAnyOrderEntriesOf(Map.of("s3.access-key", "first-key", "s3.secret-key", "first-secret"));
        assertThat(first.expiresAtMillis()).isEqualTo(now.get() + 2 * HOUR);

        // the server vends another token; the kept one still has more than the margin (one hour) left
        server.setDataToken(orders, new RESTToken(ImmutableMap.of("s3.access-key", "second-key", "s3.secret-key", "second-secret"), now.get() + 3 * HOUR));
        now.addAndGet(HOUR / 2);
        assertThat(tokens.token(table)).isEqualTo(first);

        // fewer than the margin remain: the server is asked again
        now.addAndGet(HOUR / 2 + 1);
        assertThat(tokens.token(table).options()).containsEntry("s3.access-key", "second-key");

        // a token the storage refused is forgotten, so the next use asks the server
        server.setDataToken(orders, new RESTToken(ImmutableMap.of("s3.access-key", "third-key"), now.get() + 3 * HOUR));
        tokens.invalidate(table);
        assertThat(tokens.token(table).options()).containsExactly(Map.entry("s3.access-key", "third-key"));
    }

    @Test
    void tokenOfAnUnknownTableNamesTheTable()
    {
        assertThatThrownBy(() -> tokens(new AtomicLong()).token(new SchemaTableName(DATABASE, "missing")))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("token_db.missing");
    }

    @Test
    void s3KeysOfTheTokenBecomeTheIdentitysS3Credentials()
    {
        SchemaTableName table = new SchemaTableName(DATABASE, "orders");
        ConnectorIdentity user = ConnectorIdentity.forUser("alice")
                .withGroups(ImmutableSet.of("analysts"))
                .withExtraCredentials(ImmutableMap.of("other", "kept"))
                .build();

        // Paimon's spellings: "s3." with dashes, and Hadoop's "fs.s3a." with dots
        for (Map<String, String> options : List.of(
                Map.of("s3.access-key", "ak", "s3.secret-key", "sk", "s3.session.token", "st", "s3.endpoint", "http://ignored"),
                Map.of("fs.s3a.access.key", "ak", "fs.s3a.secret.key", "sk", "fs.s3a.session.token", "st"))) {
            ConnectorIdentity identity = new RestDataToken(options, 0).applyTo(user, table);
            assertThat(identity.getUser()).isEqualTo("alice");
            assertThat(identity.getGroups()).containsExactly("analysts");
            assertThat(identity.getExtraCredentials()).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "other", "kept",
                    "internal$s3_aws_access_key", "ak",
                    "internal$s3_aws_secret_key", "sk",
                    "internal$s3_aws_session_token", "st"));
        }

        // a token for another file system leaves the identity alone
        assertThat(new RestDataToken(Map.of("fs.oss.accessKeyId", "ak"), 0).applyTo(user, table)).isSameAs(user);

        assertThatThrownBy(() -> new RestDataToken(Map.of("s3.access-key", "ak", "s3.secret-key", "sk"), 0).applyTo(user, table))
                .isInstanceOf(TrinoException.class)
                .hasMessage("The data token of table 'token_db.orders' must carry an S3 access key, secret key and session token together; it has the access key and the secret key");
    }

    private RestDataTokens tokens(AtomicLong now)
    {
        RestCatalogConfig config = new RestCatalogConfig()
                .setUri(URI.create(server.getUrl()))
                .setWarehouse(WAREHOUSE)
                .setToken(TOKEN);
        return new RestDataTokens(new RestClient("rest_tokens", config, Map.of()), RestDataTokens.DEFAULT_REFRESH_MARGIN_MILLIS, now::get);
    }
}
