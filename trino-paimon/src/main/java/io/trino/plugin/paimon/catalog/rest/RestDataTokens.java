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
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.catalog.rest.RestClient.Response;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

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
        return Boolean.parseBoolean(client.options().getOrDefault(DATA_TOKEN_ENABLED, "false"));
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
        RestDataToken
        {
            options = ImmutableMap.copyOf(options);
        }
    }
}
