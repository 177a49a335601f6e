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
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.airlift.configuration.AbstractConfigurationAwareModule;
import io.airlift.configuration.ConfigPropertyMetadata;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.catalog.CatalogLocations;
import io.trino.plugin.paimon.catalog.FileSystemCatalog;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.spi.catalog.CatalogName;

import java.util.Map;

import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * {@code paimon.catalog.type=rest}: the {@code paimon.rest.*} keys, and the {@code paimon.rest.header.<name>} keys,
 * each a header sent with every request (as Paimon's {@code header.<name>} options).
 */
public class RestCatalogModule
        extends AbstractConfigurationAwareModule
{
    private static final String HEADER_PROPERTY_PREFIX = "paimon.rest.header.";
    // the folder catalog serves only location-based work here (tables lie where the server says); it lists nothing
    private static final Location NO_WAREHOUSE = Location.of("rest:///");

    @Override
    protected void setup(Binder binder)
    {
        configBinder(binder).bindConfig(RestCatalogConfig.class);
        ImmutableMap.Builder<String, String> headers = ImmutableMap.builder();
        getProperties().forEach((name, value) -> {
            if (name.startsWith(HEADER_PROPERTY_PREFIX) && name.length() > HEADER_PROPERTY_PREFIX.length()) {
                consumeProperty(new ConfigPropertyMetadata(name, true));
                headers.put(name.substring(HEADER_PROPERTY_PREFIX.length()), value);
            }
        });
        binder.bind(RestHeaders.class).toInstance(new RestHeaders(headers.buildOrThrow()));
    }

    @Provides
    @Singleton
    public static PaimonCatalog restCatalog(CatalogName catalogName, RestCatalogConfig config, RestHeaders headers, TrinoFileSystemFactory fileSystemFactory, MetadataCache metadataCache, CatalogLocations locations)
    {
        RestClient client = new RestClient(catalogName.toString(), config, headers.headers());
        RestDataTokens tokens = new RestDataTokens(client, RestDataTokens.DEFAULT_REFRESH_MARGIN_MILLIS, System::currentTimeMillis);
        FileSystemCatalog files = new FileSystemCatalog(fileSystemFactory, new DataTokenFileSystemFactory(fileSystemFactory, tokens), NO_WAREHOUSE, metadataCache);
        return new RestCatalog(client, files, metadataCache, locations);
    }

    /** The {@code paimon.rest.header.<name>} values by header name. */
    public record RestHeaders(Map<String, String> headers)
    {
        public RestHeaders
        {
            headers = ImmutableMap.copyOf(headers);
        }
    }
}
