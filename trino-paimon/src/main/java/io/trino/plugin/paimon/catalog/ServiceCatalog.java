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
package io.trino.plugin.paimon.catalog;

import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A catalog service (a Hive Metastore, a JDBC database, a REST server) that owns table names and locations, while the
 * files under a location (schemas, snapshots, branches, manifests) are read and written as the folder catalog does.
 */
public abstract class ServiceCatalog
        implements PaimonCatalog
{
    protected final FileSystemCatalog files;

    protected ServiceCatalog(FileSystemCatalog files)
    {
        this.files = requireNonNull(files, "files is null");
    }

    @Override
    public MetadataCache metadataCache()
    {
        return files.metadataCache();
    }

    @Override
    public TrinoFileSystem fileSystem(ConnectorSession session)
    {
        return files.fileSystem(session);
    }

    @Override
    public TrinoFileSystem fileSystem(ConnectorSession session, SchemaTableName table)
    {
        return files.fileSystem(session, table);
    }

    @Override
    public List<String> listBranches(ConnectorSession session, PaimonTable table)
    {
        return files.listBranches(session, table);
    }

    @Override
    public PaimonTable loadSchemaVersion(ConnectorSession session, PaimonTable table, long schemaId)
    {
        return files.loadSchemaVersion(session, table, schemaId);
    }
}
