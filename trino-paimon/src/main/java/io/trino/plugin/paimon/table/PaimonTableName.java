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

import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A table name as a query writes it, in Paimon's {@code $} convention: {@code t}, {@code t$<system table>},
 * {@code t$branch_<name>} (the table's branch) and {@code t$branch_<name>$<system table>}.
 *
 * @param table the table's own name
 * @param branch the branch, empty for the main branch
 * @param systemTable the system table's name ({@code ro}, {@code snapshots}, …), empty for the table's rows
 */
public record PaimonTableName(SchemaTableName table, Optional<String> branch, Optional<String> systemTable)
{
    public static final String BRANCH_PREFIX = "branch_";
    // Paimon's name for the main branch, which a branch name may spell out
    public static final String MAIN_BRANCH = "main";

    public PaimonTableName
    {
        requireNonNull(table, "table is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(systemTable, "systemTable is null");
    }

    /** The parts of a name; a name with more or other parts than the convention has is taken as a plain table name. */
    public static PaimonTableName parse(SchemaTableName name)
    {
        String[] parts = name.getTableName().split("\\$", -1);
        if (parts.length == 1 || parts.length > 3 || parts[0].isEmpty()) {
            return new PaimonTableName(name, Optional.empty(), Optional.empty());
        }
        SchemaTableName table = new SchemaTableName(name.getSchemaName(), parts[0]);
        Optional<String> branch = Optional.empty();
        int next = 1;
        if (parts[1].startsWith(BRANCH_PREFIX) && parts[1].length() > BRANCH_PREFIX.length()) {
            branch = Optional.of(parts[1].substring(BRANCH_PREFIX.length()));
            next = 2;
        }
        if (parts.length - next > 1) {
            return new PaimonTableName(name, Optional.empty(), Optional.empty());
        }
        Optional<String> systemTable = next < parts.length ? Optional.of(parts[next]) : Optional.empty();
        return new PaimonTableName(table, branch, systemTable);
    }
}
