package io.trino.plugin.paimon.write;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.TypeMapping;

import java.util.List;
import java.util.Map;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

/**
 * The physical columns of a table's data files: for primary-key tables the trimmed primary key, the sequence number
 * and the row kind before the table columns (paimon-format.md §7.1); for append tables the table columns (§7.4). With
 * the stats mode of every value column, and whether value statistics leave out the columns that have none
 * ({@code metadata.stats-dense-store}, default true).
 */
public record DataFileLayout(boolean keyValue, List<DataFileColumn> keyColumns, List<DataFileColumn> valueColumns, List<StatsMode> valueStatsModes, boolean denseValueStats)
{
    public DataFileLayout
    {
        keyColumns = ImmutableList.copyOf(keyColumns);
        valueColumns = ImmutableList.copyOf(valueColumns);
        valueStatsModes = ImmutableList.copyOf(valueStatsModes);
        requireNonNull(valueStatsModes, "valueStatsModes is null");
    }

    public static DataFileLayout of(String tableName, TableSchema schema, TypeMapping typeMapping)
    {
        Map<String, String> options = schema.options();
        ImmutableList.Builder<DataFileColumn> values = ImmutableList.builder();
        ImmutableList.Builder<StatsMode> modes = ImmutableList.builder();
        for (DataField field : schema.fields()) {
            values.add(new DataFileColumn(field.name(), field.id(), field.type(), typeMapping.toTrinoType(field)));
            modes.add(StatsMode.ofValueColumn(tableName, options, field.name()));
        }
        ImmutableList.Builder<DataFileColumn> keys = ImmutableList.builder();
        for (DataField field : trimmedPrimaryKey(schema)) {
            keys.add(KeyValueFileWriter.keyColumn(field.name(), field.id(), field.type(), typeMapping.toTrinoType(field)));
        }
        boolean denseValueStats = !options.getOrDefault("metadata.stats-dense-store", "true").trim().equalsIgnoreCase("false");
        return new DataFileLayout(!schema.primaryKeys().isEmpty(), keys.build(), values.build(), modes.build(), denseValueStats);
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
                .addAll(keyColumns)
                .add(KeyValueFileWriter.sequenceNumberColumn())
                .add(KeyValueFileWriter.valueKindColumn())
                .addAll(valueColumns)
                .build();
    }
}
