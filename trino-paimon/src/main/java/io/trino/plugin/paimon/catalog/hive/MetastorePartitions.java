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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.hive.thrift.metastore.FieldSchema;
import io.trino.hive.thrift.metastore.Table;
import io.trino.metastore.Column;
import io.trino.metastore.HiveBasicStatistics;
import io.trino.metastore.HiveType;
import io.trino.metastore.Partition;
import io.trino.metastore.PartitionStatistics;
import io.trino.metastore.PartitionWithStatistics;
import io.trino.metastore.StorageFormat;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.SchemaTableName;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.metastore.Partitions.makePartName;
import static io.trino.plugin.hive.metastore.thrift.ThriftMetastoreUtil.fromMetastoreApiPartition;
import static io.trino.plugin.paimon.catalog.hive.PaimonTableEntry.PARTITIONED_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.durationOption;

/**
 * A table's partitions as Paimon's HiveCatalog registers them in the metastore when the table sets
 * {@code metastore.partitioned-table}: one entry per partition, a copy of the table's storage descriptor located at
 * the partition's folder, {@code <data folder>/k1=v1/k2=v2/}.
 */
final class MetastorePartitions
{
    // the table option naming a folder under the table's that holds its partitions (Paimon's data-file.path-directory)
    private static final String DATA_DIRECTORY_PARAMETER = "data-file.path-directory";
    private static final String IDLE_TIME_TO_REPORT_OPTION = "partition.idle-time-to-report-statistic";
    // the partition parameters Paimon's HiveCatalog sets beside Hive's numFiles, numRows and totalSize
    private static final String LAST_UPDATE_TIME_PARAMETER = "lastUpdateTime";
    private static final String TOTAL_BUCKETS_PARAMETER = "totalBuckets";
    private static final String HIVE_DDL_TIME_PARAMETER = "transient_lastDdlTime";

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

    /**
     * Whether commits report partition statistics to the metastore: Paimon's writer does when the table's partitions
     * are registered and {@code partition.idle-time-to-report-statistic} is positive. A statement is a bounded write,
     * whose end Paimon's writer reports at once, whatever the idle time.
     */
    static boolean reportsStatistics(PaimonTable table)
    {
        if (!registered(table)) {
            return false;
        }
        return !durationOption(table.name().toString(), table.schema().options(), IDLE_TIME_TO_REPORT_OPTION, Duration.ZERO).isZero();
    }

    /** The totals of the live data files of the given partitions in the table's latest snapshot. */
    static Map<BinaryRow, FileTotals> fileTotals(TrinoFileSystem fileSystem, PaimonTable table, Set<BinaryRow> partitions)
    {
        Optional<Snapshot> latest = new SnapshotFiles(fileSystem, table.metadataLocation()).latestSnapshot();
        if (latest.isEmpty()) {
            return Map.of();
        }
        Map<BinaryRow, FileTotals> totals = new HashMap<>();
        for (ManifestEntry entry : new SnapshotScan(fileSystem, table.location()).liveFiles(latest.get(), ScanFilter.ALL)) {
            if (partitions.contains(entry.partition())) {
                totals.merge(entry.partition(), new FileTotals(1, entry.file().fileSize(), entry.file().rowCount(), entry.totalBuckets()), FileTotals::plus);
            }
        }
        return totals;
    }

    /**
     * The partition's entry with the statistics Paimon's HiveCatalog records: {@code numFiles}, {@code totalSize},
     * {@code numRows}, {@code totalBuckets}, and the report's time in seconds as {@code lastUpdateTime} and Hive's
     * {@code transient_lastDdlTime}.
     */
    static PartitionWithStatistics withStatistics(io.trino.hive.thrift.metastore.Partition entry, String partitionName, FileTotals totals, long reportedMillis)
    {
        Partition partition = fromMetastoreApiPartition(entry);
        String seconds = String.valueOf(reportedMillis / 1000);
        Map<String, String> parameters = new HashMap<>(partition.getParameters());
        parameters.put(LAST_UPDATE_TIME_PARAMETER, seconds);
        parameters.put(TOTAL_BUCKETS_PARAMETER, String.valueOf(totals.totalBuckets()));
        parameters.put(HIVE_DDL_TIME_PARAMETER, seconds);
        Partition updated = Partition.builder(partition)
                .setParameters(parameters)
                .build();
        // numFiles, numRows and totalSize are Hive's basic statistics, written from these by Trino's metastore client
        HiveBasicStatistics statistics = new HiveBasicStatistics(OptionalLong.of(totals.files()), OptionalLong.of(totals.rows()), OptionalLong.empty(), OptionalLong.of(totals.bytes()));
        return new PartitionWithStatistics(updated, partitionName, new PartitionStatistics(statistics, Map.of()));
    }

    /** Counts over a partition's data files; {@code totalBuckets} is its files' (Paimon's reporter takes the last split's). */
    record FileTotals(long files, long bytes, long rows, int totalBuckets)
    {
        static final FileTotals NONE = new FileTotals(0, 0, 0, 0);

        FileTotals plus(FileTotals other)
        {
            return new FileTotals(files + other.files, bytes + other.bytes, rows + other.rows, other.totalBuckets);
        }
    }

    private static Column column(FieldSchema column)
    {
        return new Column(column.getName(), HiveType.valueOf(column.getType()), Optional.ofNullable(column.getComment()), Map.of());
    }
}
