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

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.plugin.paimon.table.RowChangeRules;
import io.trino.spi.connector.ConnectorMergeTableHandle;

import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * An UPDATE, DELETE or MERGE: the table as the statement read it, and the write of the records it produces, which is
 * an INSERT's (same routing, sequence numbers, commit and conflict check) with +U and -D records besides +I. A class
 * rather than a record because the SPI names its accessor {@code getTableHandle}.
 */
public final class PaimonMergeTableHandle
        implements ConnectorMergeTableHandle
{
    private final PaimonTableHandle tableHandle;
    private final PaimonInsertTableHandle insertHandle;
    private final RowChangeRules rules;

    /**
     * @param rules the checks on the rows the statement changes, applied by the merge sinks
     */
    @JsonCreator
    public PaimonMergeTableHandle(
            @JsonProperty("tableHandle") PaimonTableHandle tableHandle,
            @JsonProperty("insertHandle") PaimonInsertTableHandle insertHandle,
            @JsonProperty("rules") RowChangeRules rules)
    {
        this.tableHandle = requireNonNull(tableHandle, "tableHandle is null");
        this.insertHandle = requireNonNull(insertHandle, "insertHandle is null");
        this.rules = requireNonNull(rules, "rules is null");
    }

    @JsonProperty
    @Override
    public PaimonTableHandle getTableHandle()
    {
        return tableHandle;
    }

    @JsonProperty
    public PaimonInsertTableHandle getInsertHandle()
    {
        return insertHandle;
    }

    @JsonProperty
    public RowChangeRules getRules()
    {
        return rules;
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof PaimonMergeTableHandle other
                && tableHandle.equals(other.tableHandle)
                && insertHandle.equals(other.insertHandle)
                && rules.equals(other.rules);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(tableHandle, insertHandle, rules);
    }

    @Override
    public String toString()
    {
        return insertHandle.toString();
    }
}
