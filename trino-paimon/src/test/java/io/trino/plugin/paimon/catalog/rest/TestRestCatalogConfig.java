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
import io.trino.plugin.paimon.PaimonPlugin;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.testing.TestingConnectorContext;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static com.google.common.collect.Iterables.getOnlyElement;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code paimon.rest.*} keys as a catalog file gives them: what starts, what is refused at startup. */
final class TestRestCatalogConfig
{
    // a port nothing listens on: the catalog must start without contacting its server
    private static final String URI = "http://127.0.0.1:9";

    @Test
    void startsWithoutWarehouseAndWithoutContactingTheServer()
    {
        create(ImmutableMap.of(
                "paimon.catalog.type", "rest",
                "paimon.rest.uri", URI,
                "paimon.rest.warehouse", "wh",
                "paimon.rest.token", "t",
                "paimon.rest.header.X-Tenant", "analytics",
                "paimon.rest.header.X-Other", "1"));
        create(ImmutableMap.of(
                "paimon.catalog.type", "rest",
                "paimon.rest.uri", URI,
                "paimon.rest.warehouse", "wh",
                "paimon.rest.token.provider", "dlf",
                "paimon.rest.dlf.access-key-id", "id",
                "paimon.rest.dlf.access-key-secret", "secret",
                "paimon.rest.dlf.region", "cn-hangzhou"));
    }

    @Test
    void rejectsMissingKeys()
    {
        assertThatThrownBy(() -> create(without("paimon.rest.uri")))
                .hasMessageContaining("paimon.rest.uri")
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> create(without("paimon.rest.warehouse")))
                .hasMessageContaining("paimon.rest.warehouse")
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> create(without("paimon.rest.token")))
                .hasMessageContaining("paimon.rest.token is required with paimon.rest.token.provider=bear");
        Map<String, String> dlf = new HashMap<>(without("paimon.rest.token"));
        dlf.put("paimon.rest.token.provider", "dlf");
        dlf.put("paimon.rest.dlf.access-key-id", "id");
        dlf.put("paimon.rest.dlf.access-key-secret", "secret");
        assertThatThrownBy(() -> create(dlf))
                .hasMessageContaining("paimon.rest.dlf.region are required with paimon.rest.token.provider=dlf");
    }

    @Test
    void rejectsBadValues()
    {
        Map<String, String> ftp = new HashMap<>(without("paimon.rest.uri"));
        ftp.put("paimon.rest.uri", "ftp://127.0.0.1/");
        assertThatThrownBy(() -> create(ftp))
                .hasMessageContaining("paimon.rest.uri must be an http or https URI");
        Map<String, String> provider = new HashMap<>(without("paimon.rest.token.provider"));
        provider.put("paimon.rest.token.provider", "oauth");
        assertThatThrownBy(() -> create(provider))
                .hasMessageContaining("Invalid value 'oauth'");
        Map<String, String> typo = new HashMap<>(without("paimon.rest.token"));
        typo.put("paimon.rest.tokn", "t");
        assertThatThrownBy(() -> create(typo))
                .hasMessageContaining("paimon.rest.tokn");
    }

    private static Map<String, String> without(String key)
    {
        Map<String, String> config = new HashMap<>(Map.of(
                "paimon.catalog.type", "rest",
                "paimon.rest.uri", URI,
                "paimon.rest.warehouse", "wh",
                "paimon.rest.token", "t"));
        config.remove(key);
        return config;
    }

    private static void create(Map<String, String> config)
    {
        ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
        factory.create("test", config, new TestingConnectorContext()).shutdown();
    }
}
