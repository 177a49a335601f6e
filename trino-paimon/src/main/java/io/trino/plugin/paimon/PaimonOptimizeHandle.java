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

import io.trino.plugin.paimon.table.PaimonTable;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One {@code optimize}: the table, the snapshot it compacts ({@code beginTableExecute} pins it) and the folder where
 * the workers leave what they wrote for the commit ({@code stagingLocation}); both are empty until the execution
 * begins.
 */
public record PaimonOptimizeHandle(PaimonTable table, OptionalLong baseSnapshotId, Optional<String> stagingLocation)
        implements PaimonTableProcedureHandle
{
    public PaimonOptimizeHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(baseSnapshotId, "baseSnapshotId is null");
        requireNonNull(stagingLocation, "stagingLocation is null");
    }

    @Override
    public PaimonTableProcedureId id()
    {
        return PaimonTableProcedureId.OPTIMIZE;
    }
}
