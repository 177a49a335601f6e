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
package io.trino.plugin.paimon.catalog.hive;

import com.google.inject.Binder;
import com.google.inject.Key;
import com.google.inject.Scopes;
import io.airlift.configuration.AbstractConfigurationAwareModule;
import io.trino.plugin.hive.HideDeltaLakeTables;
import io.trino.plugin.hive.metastore.thrift.ThriftMetastoreModule;
import io.trino.plugin.paimon.catalog.PaimonCatalog;

import static io.airlift.configuration.ConfigBinder.configBinder;

/** The {@code hive_metastore} catalog type: Trino's Thrift metastore client with the Hive connector's configuration keys. */
public class HiveMetastoreCatalogModule
        extends AbstractConfigurationAwareModule
{
    @Override
    protected void setup(Binder binder)
    {
        install(new ThriftMetastoreModule());
        // the Thrift client hides Delta Lake tables only for the Hive connector; Paimon lists its own tables by their formats
        binder.bind(Key.get(boolean.class, HideDeltaLakeTables.class)).toInstance(false);
        configBinder(binder).bindConfig(HiveMetastoreCatalogConfig.class);
        binder.bind(PaimonCatalog.class).to(HiveMetastoreCatalog.class).in(Scopes.SINGLETON);
    }
}
