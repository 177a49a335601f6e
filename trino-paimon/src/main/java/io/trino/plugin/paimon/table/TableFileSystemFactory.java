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
package io.trino.plugin.paimon.table;

import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import static java.util.Objects.requireNonNull;

/**
 * Opens the files of one table. Most catalogs open every table's files alike, with the session's identity; a REST
 * catalog server may vend storage credentials per table (data tokens), which every read, write and maintenance of that
 * table's files must use, on the coordinator and on the workers alike.
 */
public interface TableFileSystemFactory
{
    /**
     * The file system for the files under the table's folder (schemas, snapshots, manifests, data, indexes).
     *
     * @throws io.trino.spi.TrinoException naming the table when its credentials cannot be obtained
     */
    TrinoFileSystem create(ConnectorSession session, SchemaTableName table);

    /** Every table's files opened with the session's identity through one file system factory. */
    static TableFileSystemFactory sharedBy(TrinoFileSystemFactory fileSystemFactory)
    {
        requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        return (session, _) -> fileSystemFactory.create(session);
    }
}
