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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * Requests to a server of Paimon's REST catalog API ({@code rest-catalog-open-api.yaml}): JSON bodies, the
 * authentication and configured headers on every request, and the resource paths under the {@code prefix} the
 * server's {@code /v1/config} gives. Transport failures and refused credentials become errors naming the catalog;
 * every other status is the caller's to interpret.
 */
final class RestClient
{
    static final String HEADER_PREFIX = "header.";
    private static final String PREFIX_OPTION = "prefix";
    private static final int PAGE_SIZE = 100;

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private final String catalogName;
    private final URI uri;
    private final String warehouse;
    private final Map<String, String> clientOptions;
    private final Authentication authentication;
    private final Duration timeout;
    private final HttpClient httpClient;

    // the options merged with the server's configuration, fetched on first use so a server that is down does not stop Trino's start
    private volatile Map<String, String> options;

    RestClient(String catalogName, RestCatalogConfig config, Map<String, String> headers)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        String base = config.getUri().toString();
        this.uri = URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
        this.warehouse = config.getWarehouse();
        this.authentication = switch (config.getTokenProvider()) {
            case BEAR -> {
                String authorization = "Bearer " + config.getToken().orElseThrow();
                yield (method, path, query, body) -> ImmutableMap.of("Authorization", authorization);
            }
            case DLF -> {
                DlfSigner signer = new DlfSigner(config.getDlfAccessKeyId().orElseThrow(), config.getDlfAccessKeySecret().orElseThrow(), config.getDlfSecurityToken(), config.getDlfRegion().orElseThrow());
                yield (method, path, query, body) -> signer.sign(method, path, query, body, Instant.now());
            }
        };
        this.timeout = config.getRequestTimeout().toJavaTime();
        Map<String, String> clientOptions = new LinkedHashMap<>();
        clientOptions.put("uri", base);
        clientOptions.put("warehouse", warehouse);
        clientOptions.put("token.provider", config.getTokenProvider().name().toLowerCase(ENGLISH));
        headers.forEach((name, value) -> clientOptions.put(HEADER_PREFIX + name, value));
        this.clientOptions = ImmutableMap.copyOf(clientOptions);
        this.httpClient = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .build();
    }

    public String catalogName()
    {
        return catalogName;
    }

    public URI uri()
    {
        return uri;
    }

    /**
     * The client's options merged with the server's configuration as Paimon's client merges them: the server's
     * defaults, overwritten by the client's options, overwritten by the server's overrides.
     */
    public Map<String, String> options()
    {
        Map<String, String> merged = options;
        if (merged == null) {
            synchronized (this) {
                merged = options;
                if (merged == null) {
                    merged = fetchOptions();
                    options = merged;
                }
            }
        }
        return merged;
    }

    private Map<String, String> fetchOptions()
    {
        Response response = send("GET", "/v1/config", ImmutableMap.of("warehouse", warehouse), Optional.empty(), headers(clientOptions), "configuration of warehouse " + warehouse);
        if (response.status() != 200) {
            throw response.failure("Cannot read the configuration of warehouse '%s'".formatted(warehouse));
        }
        Map<String, String> merged = new HashMap<>(stringMap(response.body().path("defaults")));
        merged.putAll(clientOptions);
        merged.putAll(stringMap(response.body().path("overrides")));
        return ImmutableMap.copyOf(merged);
    }

    /** The path of a resource under {@code /v1/<prefix>/}, each segment encoded. */
    public String path(String... segments)
    {
        StringBuilder path = new StringBuilder("/v1");
        String prefix = options().get(PREFIX_OPTION);
        if (prefix != null && !prefix.isEmpty()) {
            path.append('/').append(encode(prefix));
        }
        for (String segment : segments) {
            path.append('/').append(encode(segment));
        }
        return path.toString();
    }

    public Response get(String path, Map<String, String> query, String what)
    {
        return send("GET", path, query, Optional.empty(), headers(options()), what);
    }

    public Response post(String path, JsonNode body, String what)
    {
        return send("POST", path, ImmutableMap.of(), Optional.of(body), headers(options()), what);
    }

    public Response delete(String path, String what)
    {
        return send("DELETE", path, ImmutableMap.of(), Optional.empty(), headers(options()), what);
    }

    /** Every item of a paged listing ({@code maxResults}, {@code pageToken}, {@code nextPageToken}). */
    public List<String> listAll(String path, String itemsField, String what, Function<Response, RuntimeException> onError)
    {
        ImmutableList.Builder<String> items = ImmutableList.builder();
        Optional<String> pageToken = Optional.empty();
        do {
            Map<String, String> query = new LinkedHashMap<>();
            query.put("maxResults", String.valueOf(PAGE_SIZE));
            pageToken.ifPresent(token -> query.put("pageToken", token));
            Response response = get(path, query, what);
            if (response.status() != 200) {
                throw onError.apply(response);
            }
            JsonNode page = response.body().path(itemsField);
            page.forEach(item -> items.add(item.asText()));
            JsonNode next = response.body().path("nextPageToken");
            pageToken = next.isTextual() && !next.asText().isEmpty() && !page.isEmpty() ? Optional.of(next.asText()) : Optional.empty();
        }
        while (pageToken.isPresent());
        return items.build();
    }

    public static ObjectMapper mapper()
    {
        return MAPPER;
    }

    private Map<String, String> headers(Map<String, String> options)
    {
        ImmutableMap.Builder<String, String> headers = ImmutableMap.builder();
        options.forEach((key, value) -> {
            if (key.startsWith(HEADER_PREFIX) && key.length() > HEADER_PREFIX.length() && !key.substring(HEADER_PREFIX.length()).equalsIgnoreCase("Authorization")) {
                headers.put(key.substring(HEADER_PREFIX.length()), value);
            }
        });
        return headers.buildKeepingLast();
    }

    private Response send(String method, String path, Map<String, String> query, Optional<JsonNode> body, Map<String, String> headers, String what)
    {
        Map<String, String> encodedQuery = new LinkedHashMap<>();
        query.forEach((key, value) -> encodedQuery.put(encode(key), encode(value)));
        String queryText = encodedQuery.isEmpty() ? "" : encodedQuery.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(joining("&", "?", ""));
        Optional<String> bodyText;
        try {
            bodyText = body.isPresent() ? Optional.of(MAPPER.writeValueAsString(body.get())) : Optional.empty();
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': cannot encode the request for %s".formatted(catalogName, what), e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri + path + queryText))
                .timeout(timeout);
        Map<String, String> allHeaders = new LinkedHashMap<>(headers);
        bodyText.ifPresent(_ -> allHeaders.put("Content-Type", "application/json"));
        allHeaders.putAll(authentication.headers(method, path, encodedQuery, bodyText));
        allHeaders.forEach(request::header);
        request.method(method, bodyText.map(text -> HttpRequest.BodyPublishers.ofString(text, UTF_8)).orElseGet(HttpRequest.BodyPublishers::noBody));
        HttpResponse<byte[]> response;
        try {
            response = httpClient.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': cannot reach the REST catalog server %s for %s: %s".formatted(catalogName, uri, what, e), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': interrupted while asking the REST catalog server %s for %s".formatted(catalogName, uri, what), e);
        }
        JsonNode json = parse(response.body());
        Response result = new Response(catalogName, uri, what, response.statusCode(), json);
        if (response.statusCode() == 401 || response.statusCode() == 403) {
            throw result.failure("The REST catalog server refused the credentials");
        }
        return result;
    }

    private static JsonNode parse(byte[] body)
    {
        if (body.length == 0) {
            return MAPPER.missingNode();
        }
        try {
            return MAPPER.readTree(body);
        }
        catch (IOException e) {
            // not JSON (a proxy's error page): kept as text for the error message
            return MAPPER.getNodeFactory().textNode(new String(body, UTF_8));
        }
    }

    static Map<String, String> stringMap(JsonNode node)
    {
        ImmutableMap.Builder<String, String> map = ImmutableMap.builder();
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getValue().isNull()) {
                    map.put(field.getKey(), field.getValue().asText());
                }
            }
        }
        return map.buildKeepingLast();
    }

    static String encode(String value)
    {
        return URLEncoder.encode(value, UTF_8);
    }

    /** The headers that authenticate one request, from its method, path, encoded query and body. */
    @FunctionalInterface
    private interface Authentication
    {
        Map<String, String> headers(String method, String path, Map<String, String> encodedQuery, Optional<String> body);
    }

    /** A response of the server: its status and its JSON body (missing when empty). */
    record Response(String catalogName, URI uri, String what, int status, JsonNode body)
    {
        Response
        {
            requireNonNull(catalogName, "catalogName is null");
            requireNonNull(uri, "uri is null");
            requireNonNull(what, "what is null");
            requireNonNull(body, "body is null");
        }

        /** The server's message of an error response ({@code ErrorResponse.message}), or the body as it came. */
        String serverMessage()
        {
            if (body.isObject() && body.path("message").isTextual()) {
                return body.path("message").asText();
            }
            return body.isMissingNode() ? "" : body.asText().isEmpty() ? body.toString() : body.asText();
        }

        TrinoException failure(String message)
        {
            return new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': %s (%s; HTTP %s from %s%s)".formatted(
                    catalogName, message, what, status, uri, serverMessage().isEmpty() ? "" : ": " + serverMessage()));
        }
    }
}
