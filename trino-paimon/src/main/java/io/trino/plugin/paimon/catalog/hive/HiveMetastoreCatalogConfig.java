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

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;

/** Options of the {@code hive_metastore} catalog type, named after the options of Paimon's own HiveCatalog. */
public class HiveMetastoreCatalogConfig
{
    private boolean lockEnabled;
    private boolean syncAllProperties = true;

    public boolean isLockEnabled()
    {
        return lockEnabled;
    }

    @Config("paimon.lock.enabled")
    @ConfigDescription("Serialise every commit with the metastore's table lock, as Paimon's HiveCatalog does with lock.enabled")
    public HiveMetastoreCatalogConfig setLockEnabled(boolean lockEnabled)
    {
        this.lockEnabled = lockEnabled;
        return this;
    }

    public boolean isSyncAllProperties()
    {
        return syncAllProperties;
    }

    @Config("paimon.sync-all-properties")
    @ConfigDescription("Copy every table option into the metastore entry's parameters, as Paimon's sync-all-properties (default true)")
    public HiveMetastoreCatalogConfig setSyncAllProperties(boolean syncAllProperties)
    {
        this.syncAllProperties = syncAllProperties;
        return this;
    }
}
