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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A call of {@code table_changes} as analysis resolved it: the scan of the range, and its columns in the order of
 * the function's returned type. The planner turns the call into that scan ({@code applyTableFunction}).
 */
public record TableChangesFunctionHandle(PaimonTableHandle tableHandle, List<PaimonColumnHandle> columns)
        implements ConnectorTableFunctionHandle
{
    public TableChangesFunctionHandle
    {
        requireNonNull(tableHandle, "tableHandle is null");
        columns = ImmutableList.copyOf(columns);
    }
}
