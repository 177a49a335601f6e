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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One {@code ALTER TABLE ... EXECUTE} of a table procedure, with its arguments as text. For {@code optimize}: the
 * table, the snapshot it compacts ({@code beginTableExecute} pins it) and the folder where the workers leave what
 * they wrote for the commit ({@code stagingLocation}).
 */
public record PaimonTableExecuteHandle(
        SchemaTableName schemaTableName,
        PaimonTableProcedureId procedureId,
        Map<String, String> arguments,
        Optional<PaimonTable> table,
        OptionalLong baseSnapshotId,
        Optional<String> stagingLocation)
        implements ConnectorTableExecuteHandle
{
    public PaimonTableExecuteHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(procedureId, "procedureId is null");
        arguments = ImmutableMap.copyOf(requireNonNull(arguments, "arguments is null"));
        requireNonNull(table, "table is null");
        requireNonNull(baseSnapshotId, "baseSnapshotId is null");
        requireNonNull(stagingLocation, "stagingLocation is null");
    }

    /** A procedure run on the coordinator alone, which needs only its arguments. */
    public PaimonTableExecuteHandle(SchemaTableName schemaTableName, PaimonTableProcedureId procedureId, Map<String, String> arguments)
    {
        this(schemaTableName, procedureId, arguments, Optional.empty(), OptionalLong.empty(), Optional.empty());
    }
}
