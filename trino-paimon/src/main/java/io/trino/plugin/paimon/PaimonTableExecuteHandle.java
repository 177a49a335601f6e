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
package io.trino.plugin.paimon;

import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;

import static java.util.Objects.requireNonNull;

/** One {@code ALTER TABLE ... EXECUTE} of a table procedure on a table. */
public record PaimonTableExecuteHandle(SchemaTableName schemaTableName, PaimonTableProcedureHandle procedure)
        implements ConnectorTableExecuteHandle
{
    public PaimonTableExecuteHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(procedure, "procedure is null");
    }

    /** The state of an {@code optimize}; the caller knows that the procedure is one. */
    public PaimonOptimizeHandle optimize()
    {
        if (procedure instanceof PaimonOptimizeHandle optimize) {
            return optimize;
        }
        throw new IllegalStateException("Not an optimize of %s: %s".formatted(schemaTableName, procedure.id()));
    }
}
