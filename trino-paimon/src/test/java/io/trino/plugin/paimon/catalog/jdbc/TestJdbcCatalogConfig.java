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
import io.airlift.units.Duration;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

final class TestJdbcCatalogConfig
{
    @Test
    void defaults()
    {
        // Paimon's defaults: catalog-key 'jdbc', lock.enabled unset, lock-acquire-timeout 8 min, lock-check-max-sleep 8 s
        assertRecordedDefaults(recordDefaults(JdbcCatalogConfig.class)
                .setUri(null)
                .setUser(null)
                .setPassword(null)
                .setCatalogKey("jdbc")
                .setLockEnabled(null)
                .setLockAcquireTimeout(new Duration(8, MINUTES))
                .setLockCheckMaxSleep(new Duration(8, SECONDS)));
    }

    @Test
    void explicitPropertyMappings()
    {
        Map<String, String> properties = ImmutableMap.<String, String>builder()
                .put("paimon.jdbc.uri", "jdbc:postgresql://db:5432/paimon")
                .put("paimon.jdbc.user", "alice")
                .put("paimon.jdbc.password", "secret")
                .put("paimon.jdbc.catalog-key", "lake")
                .put("paimon.jdbc.lock.enabled", "true")
                .put("paimon.jdbc.lock-acquire-timeout", "30s")
                .put("paimon.jdbc.lock-check-max-sleep", "500ms")
                .buildOrThrow();
        assertFullMapping(properties, new JdbcCatalogConfig()
                .setUri("jdbc:postgresql://db:5432/paimon")
                .setUser("alice")
                .setPassword("secret")
                .setCatalogKey("lake")
                .setLockEnabled(true)
                .setLockAcquireTimeout(new Duration(30, SECONDS))
                .setLockCheckMaxSleep(new Duration(500, MILLISECONDS)));
    }

    @Test
    void takesTheDatabasesPaimonsCatalogRunsOn()
    {
        assertThat(new JdbcCatalogConfig().setUri("jdbc:sqlite:/var/lib/paimon/catalog.db").isUriSupported()).isTrue();
        assertThat(new JdbcCatalogConfig().setUri("jdbc:postgresql://db/paimon").isUriSupported()).isTrue();
        assertThat(new JdbcCatalogConfig().setUri("jdbc:mysql://db/paimon").isUriSupported()).isTrue();
        assertThat(new JdbcCatalogConfig().setUri("jdbc:mariadb://db/paimon").isUriSupported()).isTrue();
        assertThat(new JdbcCatalogConfig().setUri("jdbc:oracle:thin:@db:1521/paimon").isUriSupported()).isFalse();
    }
}
