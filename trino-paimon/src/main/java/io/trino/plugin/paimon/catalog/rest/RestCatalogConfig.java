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

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import io.airlift.units.Duration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;

import java.net.URI;
import java.util.Optional;

import static java.util.concurrent.TimeUnit.SECONDS;

/** The {@code paimon.rest.*} keys of a catalog whose tables a server of Paimon's REST catalog API registers. */
public class RestCatalogConfig
{
    public enum TokenProvider
    {
        /** A fixed token sent as {@code Authorization: Bearer <token>}. */
        BEAR,
        /** Alibaba DLF's signed requests, from an access key. */
        DLF,
    }

    private URI uri;
    private String warehouse;
    private TokenProvider tokenProvider = TokenProvider.BEAR;
    private String token;
    private String dlfAccessKeyId;
    private String dlfAccessKeySecret;
    private String dlfSecurityToken;
    private String dlfRegion;
    private Duration requestTimeout = new Duration(60, SECONDS);

    @NotNull
    public URI getUri()
    {
        return uri;
    }

    @Config("paimon.rest.uri")
    @ConfigDescription("Base URI of the REST catalog server, e.g. http://catalog.example.com:8080")
    public RestCatalogConfig setUri(URI uri)
    {
        this.uri = uri;
        return this;
    }

    @NotNull
    public String getWarehouse()
    {
        return warehouse;
    }

    @Config("paimon.rest.warehouse")
    @ConfigDescription("Name of the warehouse (catalog) on the REST server")
    public RestCatalogConfig setWarehouse(String warehouse)
    {
        this.warehouse = warehouse;
        return this;
    }

    @NotNull
    public TokenProvider getTokenProvider()
    {
        return tokenProvider;
    }

    @Config("paimon.rest.token.provider")
    @ConfigDescription("How requests are authenticated: BEAR (a bearer token) or DLF (Alibaba DLF access keys)")
    public RestCatalogConfig setTokenProvider(TokenProvider tokenProvider)
    {
        this.tokenProvider = tokenProvider;
        return this;
    }

    public Optional<String> getToken()
    {
        return Optional.ofNullable(token);
    }

    @Config("paimon.rest.token")
    @ConfigSecuritySensitive
    @ConfigDescription("Bearer token, with paimon.rest.token.provider=bear")
    public RestCatalogConfig setToken(String token)
    {
        this.token = token;
        return this;
    }

    public Optional<String> getDlfAccessKeyId()
    {
        return Optional.ofNullable(dlfAccessKeyId);
    }

    @Config("paimon.rest.dlf.access-key-id")
    @ConfigDescription("DLF access key id, with paimon.rest.token.provider=dlf")
    public RestCatalogConfig setDlfAccessKeyId(String dlfAccessKeyId)
    {
        this.dlfAccessKeyId = dlfAccessKeyId;
        return this;
    }

    public Optional<String> getDlfAccessKeySecret()
    {
        return Optional.ofNullable(dlfAccessKeySecret);
    }

    @Config("paimon.rest.dlf.access-key-secret")
    @ConfigSecuritySensitive
    @ConfigDescription("DLF access key secret, with paimon.rest.token.provider=dlf")
    public RestCatalogConfig setDlfAccessKeySecret(String dlfAccessKeySecret)
    {
        this.dlfAccessKeySecret = dlfAccessKeySecret;
        return this;
    }

    public Optional<String> getDlfSecurityToken()
    {
        return Optional.ofNullable(dlfSecurityToken);
    }

    @Config("paimon.rest.dlf.security-token")
    @ConfigSecuritySensitive
    @ConfigDescription("DLF security token of a temporary access key, with paimon.rest.token.provider=dlf")
    public RestCatalogConfig setDlfSecurityToken(String dlfSecurityToken)
    {
        this.dlfSecurityToken = dlfSecurityToken;
        return this;
    }

    public Optional<String> getDlfRegion()
    {
        return Optional.ofNullable(dlfRegion);
    }

    @Config("paimon.rest.dlf.region")
    @ConfigDescription("DLF region, e.g. cn-hangzhou, with paimon.rest.token.provider=dlf")
    public RestCatalogConfig setDlfRegion(String dlfRegion)
    {
        this.dlfRegion = dlfRegion;
        return this;
    }

    @NotNull
    public Duration getRequestTimeout()
    {
        return requestTimeout;
    }

    @Config("paimon.rest.request-timeout")
    @ConfigDescription("Longest wait for one response of the REST server")
    public RestCatalogConfig setRequestTimeout(Duration requestTimeout)
    {
        this.requestTimeout = requestTimeout;
        return this;
    }

    @AssertTrue(message = "paimon.rest.uri must be an http or https URI")
    public boolean isUriValid()
    {
        return uri == null || "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
    }

    @AssertTrue(message = "paimon.rest.token is required with paimon.rest.token.provider=bear")
    public boolean isBearerTokenPresent()
    {
        return tokenProvider != TokenProvider.BEAR || (token != null && !token.isBlank());
    }

    @AssertTrue(message = "paimon.rest.dlf.access-key-id, paimon.rest.dlf.access-key-secret and paimon.rest.dlf.region are required with paimon.rest.token.provider=dlf")
    public boolean isDlfAccessKeyPresent()
    {
        return tokenProvider != TokenProvider.DLF || (dlfAccessKeyId != null && dlfAccessKeySecret != null && dlfRegion != null);
    }
}
