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
package io.trino.plugin.paimon.procedure;

import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.PaimonTableName;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;

/**
 * The table a procedure on a table's versions (tags, branches) names: {@code schema_name} and {@code table_name},
 * which may name a branch ({@code t$branch_b}), as Paimon's procedures take it; never a system table.
 */
final class VersionProcedureTable
{
    private VersionProcedureTable() {}

    static PaimonTable load(PaimonCatalog catalog, ConnectorSession session, String procedure, String schemaName, String tableName)
    {
        if (schemaName == null || tableName == null) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s: schema_name and table_name are required".formatted(procedure));
        }
        PaimonTableName name = PaimonTableName.parse(new SchemaTableName(schemaName, tableName));
        if (name.systemTable().isPresent()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s: '%s' is a system table of Paimon table %s, not a table".formatted(procedure, tableName, name.table()));
        }
        if (name.branch().isPresent() && name.branch().get().equals(PaimonTableName.MAIN_BRANCH)) {
            name = new PaimonTableName(name.table(), Optional.empty(), name.systemTable());
        }
        PaimonTableName resolved = name;
        return catalog.loadTable(session, resolved.table(), resolved.branch())
                .orElseThrow(() -> new TableNotFoundException(resolved.table(), resolved.branch()
                        .map(branch -> "Table %s has no branch '%s'".formatted(resolved.table(), branch))
                        .orElse("Table %s does not exist".formatted(resolved.table()))));
    }
}
