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
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$options"}: the options of the table's current schema, one row each, by name.
 */
public final class OptionsTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("key", VARCHAR),
            new ColumnMetadata("value", VARCHAR));

    public OptionsTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, COLUMNS);
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = rows();
        for (Map.Entry<String, String> option : new TreeMap<>(table.schema().options()).entrySet()) {
            rows.addRow(option.getKey(), option.getValue());
        }
        return rows.build().cursor();
    }
}
