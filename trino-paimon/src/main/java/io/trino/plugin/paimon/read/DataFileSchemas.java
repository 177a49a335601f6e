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
package io.trino.plugin.paimon.read;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.PaimonTable;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The schemas a table's data files were written with. A file names the schema version it was written under; the
 * version the query reads comes with the table, and any other is read from its schema file once per query on each
 * node, then shared by all splits of that query. Entries are per query because a table dropped and created again
 * in the same folder starts its schema ids anew.
 */
final class DataFileSchemas
{
    private final Cache<Key, TableSchema> schemas = CacheBuilder.newBuilder()
            .maximumSize(1_000)
            .expireAfterAccess(Duration.ofMinutes(10))
            .build();

    TableSchema schema(String queryId, TrinoFileSystem fileSystem, PaimonTable table, long schemaId)
    {
        if (schemaId == table.schema().id()) {
            return table.schema();
        }
        // the loader throws only unchecked TrinoExceptions, which the map view passes on unwrapped
        return schemas.asMap().computeIfAbsent(
                new Key(queryId, table.metadataLocation().toString(), schemaId),
                _ -> new SchemaFiles(fileSystem, table.metadataLocation()).readSchema(schemaId));
    }

    private record Key(String queryId, String tableLocation, long schemaId)
    {
        private Key
        {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(tableLocation, "tableLocation is null");
        }
    }
}
