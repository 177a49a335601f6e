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

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.catalog.rest.RestClient.Response;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.security.ConnectorIdentity;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * The data tokens (vended storage credentials) a REST catalog server gives per table ({@code GET …/tables/{table}/token},
 * Paimon's {@code GetTableTokenResponse}), each kept until fewer than the refresh margin remain before it expires, as
 * Paimon's {@code RESTTokenFileIO} keeps it (margin {@code RESTApi.TOKEN_EXPIRATION_SAFE_TIME_MILLIS}, one hour).
 */
final class RestDataTokens
{
    /** Paimon's client option that makes table files be opened with the table's data token. */
    static final String DATA_TOKEN_ENABLED = "data-token.enabled";
    static final long DEFAULT_REFRESH_MARGIN_MILLIS = 3_600_000L;
    // the extra credentials of an identity that Trino's S3 file system uses in place of its configured keys (S3Context.withCredentials)
    static final String S3_ACCESS_KEY_CREDENTIAL = "internal$s3_aws_access_key";
    static final String S3_SECRET_KEY_CREDENTIAL = "internal$s3_aws_secret_key";
    static final String S3_SESSION_TOKEN_CREDENTIAL = "internal$s3_aws_session_token";

    private final RestClient client;
    private final long refreshMarginMillis;
    private final LongSupplier clock;
    private final ConcurrentMap<SchemaTableName, RestDataToken> tokens = new ConcurrentHashMap<>();

    RestDataTokens(RestClient client, long refreshMarginMillis, LongSupplier clock)
    {
        this.client = requireNonNull(client, "client is null");
        checkArgument(refreshMarginMillis >= 0, "refreshMarginMillis is negative");
        this.refreshMarginMillis = refreshMarginMillis;
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Whether the client's options merged with the server's configuration ask for data tokens, as Paimon's client decides. */
    boolean enabled()
    {
        return dataTokenEnabled(client.catalogName(), client.options());
    }

    /**
     * {@code data-token.enabled} of the merged options: true or false in any case, anything else refused, as Paimon's
     * client refuses it, rather than taken as false.
     */
    static boolean dataTokenEnabled(String catalogName, Map<String, String> options)
    {
        String value = options.getOrDefault(DATA_TOKEN_ENABLED, "false");
        return switch (value.trim().toLowerCase(ENGLISH)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': the REST catalog option '%s' has value '%s', expected true or false".formatted(catalogName, DATA_TOKEN_ENABLED, value));
        };
    }

    /** The table's token: the one kept while more than the refresh margin remains, else a new one from the server. */
    RestDataToken token(SchemaTableName table)
    {
        requireNonNull(table, "table is null");
        return tokens.compute(table, (name, kept) -> {
            if (kept != null && kept.expiresAtMillis() - clock.getAsLong() > refreshMarginMillis) {
                return kept;
            }
            return fetch(name);
        });
    }

    /** Forgets the table's token, so the next use asks the server (after the storage refused it, or the table changed). */
    void invalidate(SchemaTableName table)
    {
        tokens.remove(table);
    }

    private RestDataToken fetch(SchemaTableName table)
    {
        String what = "data token of table " + table;
        Response response = client.get(client.path("databases", table.getSchemaName(), "tables", table.getTableName(), "token"), Map.of(), what);
        if (response.status() == 404) {
            throw new TableNotFoundException(table);
        }
        if (response.status() != 200) {
            throw response.failure("Cannot read the data token of table '%s'".formatted(table));
        }
        JsonNode expiresAt = response.body().path("expiresAtMillis");
        if (!response.body().path("token").isObject() || !expiresAt.canConvertToLong()) {
            throw response.failure("The data token of table '%s' has no token options or no expiresAtMillis".formatted(table));
        }
        return new RestDataToken(RestClient.stringMap(response.body().path("token")), expiresAt.asLong());
    }

    /** A table's file-system options from the server, valid until {@code expiresAtMillis} (epoch milliseconds). */
    record RestDataToken(Map<String, String> options, long expiresAtMillis)
    {
        // Paimon's S3 file IO reads its options under these prefixes, each standing for Hadoop's "fs.s3a."
        private static final List<String> S3_PREFIXES = ImmutableList.of("s3.", "s3a.", "fs.s3a.");

        RestDataToken
        {
            options = ImmutableMap.copyOf(options);
        }

        /**
         * The identity whose files are opened with the token's S3 credentials: the token's access key, secret key
         * and session token (Paimon's {@code s3.access-key}, {@code fs.s3a.access.key} and the like) as the extra
         * credentials Trino's S3 file system uses in place of its configured ones, as Trino's Iceberg connector
         * passes vended credentials. A token without S3 credentials leaves the identity as it is.
         */
        ConnectorIdentity applyTo(ConnectorIdentity identity, SchemaTableName table)
        {
            Optional<String> accessKey = s3Option("access-key", "access.key");
            Optional<String> secretKey = s3Option("secret-key", "secret.key");
            Optional<String> sessionToken = s3Option("session.token");
            if (accessKey.isEmpty() && secretKey.isEmpty() && sessionToken.isEmpty()) {
                return identity;
            }
            if (accessKey.isEmpty() || secretKey.isEmpty() || sessionToken.isEmpty()) {
                throw new TrinoException(PAIMON_CATALOG_ERROR, "The data token of table '%s' must carry an S3 access key, secret key and session token together; it has %s".formatted(
                        table, Stream.of(accessKey.map(_ -> "the access key"), secretKey.map(_ -> "the secret key"), sessionToken.map(_ -> "the session token"))
                                .flatMap(Optional::stream)
                                .collect(joining(" and "))));
            }
            Map<String, String> credentials = new HashMap<>(identity.getExtraCredentials());
            credentials.put(S3_ACCESS_KEY_CREDENTIAL, accessKey.get());
            credentials.put(S3_SECRET_KEY_CREDENTIAL, secretKey.get());
            credentials.put(S3_SESSION_TOKEN_CREDENTIAL, sessionToken.get());
            return ConnectorIdentity.forUser(identity.getUser())
                    .withGroups(identity.getGroups())
                    .withPrincipal(identity.getPrincipal())
                    .withEnabledSystemRoles(identity.getEnabledSystemRoles())
                    .withConnectorRole(identity.getConnectorRole())
                    .withExtraCredentials(credentials)
                    .build();
        }

        private Optional<String> s3Option(String... names)
        {
            for (String prefix : S3_PREFIXES) {
                for (String name : names) {
                    String value = options.get(prefix + name);
                    if (value != null) {
                        return Optional.of(value);
                    }
                }
            }
            return Optional.empty();
        }
    }
}
