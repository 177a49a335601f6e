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
package io.trino.plugin.paimon.write;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.StatsMode;
import io.trino.plugin.paimon.table.TypeMapping;

import java.util.List;
import java.util.Map;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static java.util.Objects.requireNonNull;

/**
 * The physical columns of a table's data files: for primary-key tables the trimmed primary key, the sequence number
 * and the row kind before the table columns (paimon-format.md §7.1); for append tables the table columns (§7.4). With
 * the stats mode of every value column, and whether value statistics leave out the columns that have none
 * ({@code metadata.stats-dense-store}, default true).
 * <p>
 * With {@code data-file.thin-mode} a key-value file leaves the {@code _KEY_} copies out ({@code thin}): readers take
 * the key from the table columns. As in Paimon's thin writer, the key statistics are then those of the key fields'
 * table columns, which keep truncate(128) statistics unless {@code fields.<name>.stats-mode} says otherwise.
 */
public record DataFileLayout(boolean keyValue, boolean thin, List<DataFileColumn> keyColumns, List<DataFileColumn> valueColumns, List<StatsMode> valueStatsModes, boolean denseValueStats)
{
    public DataFileLayout
    {
        keyColumns = ImmutableList.copyOf(keyColumns);
        valueColumns = ImmutableList.copyOf(valueColumns);
        valueStatsModes = ImmutableList.copyOf(valueStatsModes);
        requireNonNull(valueStatsModes, "valueStatsModes is null");
        checkArgument(keyValue || !thin, "append files have no key columns to leave out");
    }

    public static DataFileLayout of(String tableName, TableSchema schema, TypeMapping typeMapping)
    {
        Map<String, String> options = schema.options();
        boolean keyValue = !schema.primaryKeys().isEmpty();
        boolean thin = keyValue && booleanOption(tableName, options, "data-file.thin-mode", false);
        List<DataField> keyFields = trimmedPrimaryKey(schema);
        ImmutableList.Builder<DataFileColumn> values = ImmutableList.builder();
        ImmutableList.Builder<StatsMode> modes = ImmutableList.builder();
        for (DataField field : schema.fields()) {
            values.add(new DataFileColumn(field.name(), field.id(), field.type(), typeMapping.toTrinoType(field)));
            boolean keyStats = thin && keyFields.contains(field) && !StatsMode.hasColumnMode(options, field.name());
            modes.add(keyStats ? StatsMode.KEY_FIELDS : StatsMode.ofValueColumn(tableName, options, field.name()));
        }
        ImmutableList.Builder<DataFileColumn> keys = ImmutableList.builder();
        for (DataField field : keyFields) {
            keys.add(KeyValueFileWriter.keyColumn(field.name(), field.id(), field.type(), typeMapping.toTrinoType(field)));
        }
        boolean denseValueStats = booleanOption(tableName, options, "metadata.stats-dense-store", true);
        return new DataFileLayout(keyValue, thin, keys.build(), values.build(), modes.build(), denseValueStats);
    }

    /** The primary key minus the partition keys, in primary-key order. */
    public static List<DataField> trimmedPrimaryKey(TableSchema schema)
    {
        return schema.primaryKeys().stream()
                .filter(key -> !schema.partitionKeys().contains(key))
                .map(key -> schema.field(key).orElseThrow())
                .collect(toImmutableList());
    }

    /** Every column of the file, in file order. */
    public List<DataFileColumn> fileColumns()
    {
        if (!keyValue) {
            return valueColumns;
        }
        return ImmutableList.<DataFileColumn>builder()
                .addAll(thin ? List.of() : keyColumns)
                .add(KeyValueFileWriter.sequenceNumberColumn())
                .add(KeyValueFileWriter.valueKindColumn())
                .addAll(valueColumns)
                .build();
    }

    /**
     * For each file column, in file order, the channel of the written page it takes: the page holds the key channels
     * of a key-value file even when the file leaves them out.
     */
    public int[] pageChannels()
    {
        int skipped = thin ? keyColumns.size() : 0;
        int[] channels = new int[fileColumns().size()];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = skipped + i;
        }
        return channels;
    }

    /**
     * The stats mode of each key column: truncate(128), or in thin files that of the key field's table column, whose
     * statistics the key statistics are.
     */
    public List<StatsMode> keyStatsModes()
    {
        ImmutableList.Builder<StatsMode> modes = ImmutableList.builder();
        for (DataFileColumn key : keyColumns) {
            if (!thin) {
                modes.add(StatsMode.KEY_FIELDS);
                continue;
            }
            for (int i = 0; i < valueColumns.size(); i++) {
                DataFileColumn value = valueColumns.get(i);
                if (KeyValueFileWriter.keyColumn(value.name(), value.fieldId(), value.type(), value.trinoType()).equals(key)) {
                    modes.add(valueStatsModes.get(i));
                }
            }
        }
        return modes.build();
    }
}
