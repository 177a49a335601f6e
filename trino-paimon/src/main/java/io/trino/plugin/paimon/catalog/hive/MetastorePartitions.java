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
package io.trino.plugin.paimon.catalog.hive;

import io.trino.filesystem.Location;
import io.trino.hive.thrift.metastore.FieldSchema;
import io.trino.hive.thrift.metastore.Table;
import io.trino.metastore.Column;
import io.trino.metastore.HiveType;
import io.trino.metastore.Partition;
import io.trino.metastore.PartitionStatistics;
import io.trino.metastore.PartitionWithStatistics;
import io.trino.metastore.StorageFormat;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.metastore.Partitions.makePartName;
import static io.trino.plugin.paimon.catalog.hive.PaimonTableEntry.PARTITIONED_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;

/**
 * A table's partitions as Paimon's HiveCatalog registers them in the metastore when the table sets
 * {@code metastore.partitioned-table}: one entry per partition, a copy of the table's storage descriptor located at
 * the partition's folder, {@code <data folder>/k1=v1/k2=v2/}.
 */
final class MetastorePartitions
{
    // the table option naming a folder under the table's that holds its partitions (Paimon's data-file.path-directory)
    private static final String DATA_DIRECTORY_PARAMETER = "data-file.path-directory";

    private MetastorePartitions() {}

    /** Whether the metastore lists the table's partitions. */
    static boolean registered(PaimonTable table)
    {
        return !table.schema().partitionKeys().isEmpty()
                && booleanOption(table.name().toString(), table.schema().options(), PARTITIONED_TABLE_OPTION, false);
    }

    /** The folder that holds the partition folders: the table's, or the one the entry's {@code data-file.path-directory} names in it. */
    static Location dataLocation(Table entry, Location tableLocation)
    {
        String directory = entry.getParameters() == null ? null : entry.getParameters().get(DATA_DIRECTORY_PARAMETER);
        return directory == null ? tableLocation : tableLocation.appendPath(directory);
    }

    /**
     * @param values the partition's values as its folder names them, unescaped
     * @param partitionPath the partition's folder relative to the data folder, as Paimon names it ({@code k1=v1/k2=v2/})
     */
    static PartitionWithStatistics partition(SchemaTableName tableName, Table entry, List<String> keys, List<String> values, Location dataLocation, String partitionPath)
    {
        List<Column> columns = entry.getSd().getCols().stream()
                .map(MetastorePartitions::column)
                .collect(toImmutableList());
        Map<String, String> serdeParameters = entry.getSd().getSerdeInfo().getParameters();
        Partition partition = Partition.builder()
                .setDatabaseName(tableName.getSchemaName())
                .setTableName(tableName.getTableName())
                .setValues(values)
                .setColumns(columns)
                .setParameters(Map.of())
                .withStorage(storage -> storage
                        .setStorageFormat(StorageFormat.create(entry.getSd().getSerdeInfo().getSerializationLib(), entry.getSd().getInputFormat(), entry.getSd().getOutputFormat()))
                        .setLocation(dataLocation.appendPath(partitionPath).toString())
                        .setSerdeParameters(serdeParameters == null ? Map.of() : serdeParameters))
                .build();
        return new PartitionWithStatistics(partition, makePartName(keys, values), PartitionStatistics.empty());
    }

    private static Column column(FieldSchema column)
    {
        return new Column(column.getName(), HiveType.valueOf(column.getType()), Optional.ofNullable(column.getComment()), Map.of());
    }
}
