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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.MergeEngineOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.SchemaValidation;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.Optional;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Commits ALTER TABLE changes as Paimon's {@code SchemaManager.commitChanges} does: the change is applied to the
 * latest schema, the result validated as a new table's schema is (Paimon's {@code SchemaValidation}, the merge
 * engine's options) and written as {@code schema-<latest + 1>} exclusively. When another writer took that id, the
 * change is applied again to the new latest schema, so it either lands on top of the other change or fails with the
 * check the combination breaks; a refused change writes nothing.
 */
final class SchemaEvolution
{
    // Paimon retries without bound; a statement gives up after this many lost races
    private static final int MAX_ATTEMPTS = 20;

    private final PaimonCatalog catalog;
    private final TypeMapping typeMapping;

    SchemaEvolution(PaimonCatalog catalog, TypeMapping typeMapping)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.typeMapping = requireNonNull(typeMapping, "typeMapping is null");
    }

    /**
     * @param branch the branch whose schema changes, empty for the table's (its main branch)
     */
    TableSchema commit(ConnectorSession session, SchemaTableName tableName, Optional<String> branch, SchemaChange change)
    {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            PaimonTable table = catalog.loadTable(session, tableName, branch).orElseThrow(() -> new TableNotFoundException(tableName));
            boolean hasSnapshots = new SnapshotFiles(catalog.fileSystem(session, table.name()), table.metadataLocation()).latestSnapshotId().isPresent();
            TableSchema latest = table.schema();
            TableSchema changed = change.apply(tableName, latest, hasSnapshots);
            TableSchema next = new TableSchema(
                    TableSchema.CURRENT_VERSION,
                    latest.id() + 1,
                    changed.fields(),
                    changed.highestFieldId(),
                    changed.partitionKeys(),
                    changed.primaryKeys(),
                    changed.options(),
                    changed.comment(),
                    System.currentTimeMillis());
            validate(tableName, next);
            if (catalog.commitSchema(session, table, next)) {
                return next;
            }
        }
        throw new TrinoException(TRANSACTION_CONFLICT, "Table %s: the schema was changed by other writers %s times while this statement tried to change it; retry the statement".formatted(tableName, MAX_ATTEMPTS));
    }

    private void validate(SchemaTableName tableName, TableSchema schema)
    {
        NewTableSchema.validated(() -> SchemaValidation.validate(tableName.toString(), schema, (_, validated, options) ->
                MergeEngineOptions.checkNewTable(validated, options, name -> typeMapping.toTrinoType(validated.field(name).orElseThrow()))));
    }
}
