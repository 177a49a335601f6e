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

import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import static java.util.Objects.requireNonNull;

/**
 * Opens a table's files with the data token the REST server vends for the table, when the server's configuration
 * (or the catalog's) enables data tokens, as Paimon's {@code RESTTokenFileIO} does; else with the session's identity.
 * Every node asks the server itself and keeps the token until it nears expiry ({@link RestDataTokens}), so a task
 * that starts late in a long query opens files with a token that is still valid.
 */
final class DataTokenFileSystemFactory
        implements TableFileSystemFactory
{
    private final TrinoFileSystemFactory fileSystemFactory;
    private final RestDataTokens tokens;

    DataTokenFileSystemFactory(TrinoFileSystemFactory fileSystemFactory, RestDataTokens tokens)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
    }

    @Override
    public TrinoFileSystem create(ConnectorSession session, SchemaTableName table)
    {
        // the server's configuration is read on first use, so a catalog starts while its server is still down
        if (!tokens.enabled()) {
            return fileSystemFactory.create(session);
        }
        TrinoFileSystem fileSystem = fileSystemFactory.create(tokens.token(table).applyTo(session.getIdentity(), table));
        return new DataTokenFileSystem(fileSystem, table, () -> tokens.invalidate(table));
    }
}
