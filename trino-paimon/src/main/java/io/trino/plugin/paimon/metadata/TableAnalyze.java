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

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.catalog.SnapshotCommitter;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.stats.AnalyzedStatistics;
import io.trino.plugin.paimon.format.stats.AnalyzedStatistics.ColumnStats;
import io.trino.plugin.paimon.format.stats.StatisticsFiles;
import io.trino.plugin.paimon.format.stats.WrittenStatistics;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorAnalyzeMetadata;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.statistics.ColumnStatisticMetadata;
import io.trino.spi.statistics.ColumnStatisticType;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatisticsMetadata;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static com.google.common.collect.Iterables.getOnlyElement;
import static io.trino.spi.StandardErrorCode.INVALID_ANALYZE_PROPERTY;
import static io.trino.spi.statistics.ColumnStatisticType.MAX_VALUE;
import static io.trino.spi.statistics.ColumnStatisticType.MAX_VALUE_SIZE_IN_BYTES;
import static io.trino.spi.statistics.ColumnStatisticType.MIN_VALUE;
import static io.trino.spi.statistics.ColumnStatisticType.NUMBER_OF_DISTINCT_VALUES;
import static io.trino.spi.statistics.ColumnStatisticType.NUMBER_OF_NON_NULL_VALUES;
import static io.trino.spi.statistics.ColumnStatisticType.TOTAL_SIZE_IN_BYTES;
import static io.trino.spi.statistics.TableStatisticType.ROW_COUNT;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TypeUtils.readNativeValue;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Locale.ENGLISH;

/**
 * {@code ANALYZE}: Trino computes each column's statistics over the merged rows of the snapshot the statement read,
 * and they are written as Paimon's statistics file with an {@code ANALYZE} snapshot naming it, the way Paimon's Spark
 * {@code ANALYZE TABLE … COMPUTE STATISTICS FOR COLUMNS} records them, so Spark's optimizer and ours read the same
 * numbers. Per column: distinct and null counts; bounds for the types Spark keeps them for (numbers, dates,
 * booleans); average and maximum length for strings and binaries.
 */
public final class TableAnalyze
{
    public static final String COLUMNS_PROPERTY = "columns";

    private TableAnalyze() {}

    /** {@code ANALYZE t WITH (columns = ARRAY['a', 'b'])} analyzes only the columns named. */
    public static List<PropertyMetadata<?>> analyzeProperties()
    {
        return List.of(new PropertyMetadata<>(
                COLUMNS_PROPERTY,
                "Columns to be analyzed",
                new ArrayType(VARCHAR),
                Set.class,
                null,
                false,
                value -> ((Collection<?>) value).stream()
                        .map(String.class::cast)
                        .map(name -> name.toLowerCase(ENGLISH))
                        .collect(toImmutableSet()),
                value -> value));
    }

    /**
     * @param columns the table's columns by the names Trino knows them
     * @param properties the statement's {@code WITH} properties: {@code columns} limits the columns analyzed
     */
    public static ConnectorAnalyzeMetadata analyzeMetadata(PaimonTableHandle handle, Map<String, PaimonColumnHandle> columns, Map<String, Object> properties)
    {
        Set<String> analyzed = analyzedColumns(handle.table(), columns.keySet(), properties);
        ImmutableSet.Builder<ColumnStatisticMetadata> statistics = ImmutableSet.builder();
        for (Map.Entry<String, PaimonColumnHandle> column : columns.entrySet()) {
            if (!analyzed.contains(column.getKey())) {
                continue;
            }
            for (ColumnStatisticType type : statisticTypes(column.getValue().type())) {
                statistics.add(new ColumnStatisticMetadata(column.getKey(), type));
            }
        }
        return new ConnectorAnalyzeMetadata(handle, new TableStatisticsMetadata(statistics.build(), Set.of(ROW_COUNT), List.of()));
    }

    /** Writes the statistics file and commits the {@code ANALYZE} snapshot naming it. */
    public static void finish(TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonTableHandle handle, Map<String, PaimonColumnHandle> columns, Collection<ComputedStatistics> computed)
    {
        if (handle.snapshotId().isEmpty()) {
            // an empty table: nothing to describe, and no snapshot to describe it in
            return;
        }
        PaimonTable table = handle.table();
        ComputedStatistics result = getOnlyElement(computed);
        long rows = BIGINT.getLong(result.getTableStatistics().get(ROW_COUNT), 0);

        Snapshot snapshot = new SnapshotFiles(fileSystem, table.metadataLocation()).readSnapshot(handle.snapshotId().getAsLong());
        AnalyzedStatistics statistics = new AnalyzedStatistics(
                snapshot.id(),
                snapshot.schemaId(),
                OptionalLong.of(rows),
                OptionalLong.of(mergedSize(fileSystem, table, snapshot, rows)),
                columnStatistics(columns, rows, result));
        StatisticsFiles files = new StatisticsFiles(fileSystem, table.location());
        String fileName = files.write(statistics);
        try {
            new SnapshotCommitter(fileSystem, table, publisher, table.schema(), UUID.randomUUID().toString(), table.options().commitRetry())
                    .commitStatistics(fileName);
        }
        catch (TrinoException e) {
            files.delete(fileName);
            throw e;
        }
    }

    /**
     * The statistics an {@code INSERT} or {@code CREATE TABLE AS} collects over the rows it writes: those of an
     * {@code ANALYZE} of every column, for the snapshot it commits ({@link WrittenStatistics}).
     */
    public static TableStatisticsMetadata writeMetadata(List<ColumnMetadata> columns)
    {
        ImmutableSet.Builder<ColumnStatisticMetadata> statistics = ImmutableSet.builder();
        for (ColumnMetadata column : columns) {
            if (column.isHidden()) {
                continue;
            }
            for (ColumnStatisticType type : statisticTypes(column.getType())) {
                statistics.add(new ColumnStatisticMetadata(column.getName(), type));
            }
        }
        return new TableStatisticsMetadata(statistics.build(), Set.of(ROW_COUNT), List.of());
    }

    /**
     * What a write computed as {@link #writeMetadata} asked, for its commit; empty when it computed nothing.
     *
     * @param columns the table's columns by the names Trino knows them
     */
    public static Optional<WrittenStatistics> writtenStatistics(PaimonTable table, Map<String, PaimonColumnHandle> columns, Collection<ComputedStatistics> computed)
    {
        if (computed.isEmpty() || !describesWrites(table)) {
            return Optional.empty();
        }
        ComputedStatistics result = getOnlyElement(computed);
        Block rowCount = result.getTableStatistics().get(ROW_COUNT);
        if (rowCount == null) {
            return Optional.empty();
        }
        long rows = BIGINT.getLong(rowCount, 0);
        return Optional.of(new WrittenStatistics(table.schema().id(), rows, !table.hasPrimaryKey(), columnStatistics(columns, rows, result)));
    }

    /**
     * Whether the rows a write adds are rows of the table as written: not where the merge combines a key's records
     * into a row none of them is ({@code partial-update}, {@code aggregation}).
     */
    public static boolean describesWrites(PaimonTable table)
    {
        return !table.hasPrimaryKey() || table.options().mergeKeepsWrittenRecords();
    }

    // the file names columns as the table schema does
    private static Map<String, ColumnStats> columnStatistics(Map<String, PaimonColumnHandle> columns, long rows, ComputedStatistics computed)
    {
        ImmutableMap.Builder<String, ColumnStats> columnStats = ImmutableMap.builder();
        for (Map.Entry<String, PaimonColumnHandle> column : columns.entrySet()) {
            columnStats(column.getKey(), column.getValue(), rows, computed.getColumnStatistics())
                    .ifPresent(value -> columnStats.put(column.getValue().name(), value));
        }
        return columnStats.buildOrThrow();
    }

    // Paimon's measure: the live files' bytes in the share of their records that survive merging
    private static long mergedSize(TrinoFileSystem fileSystem, PaimonTable table, Snapshot snapshot, long rows)
    {
        long bytes = 0;
        long records = 0;
        for (ManifestEntry entry : new SnapshotScan(fileSystem, table.location()).liveFiles(snapshot, ScanFilter.ALL)) {
            bytes += entry.file().fileSize();
            records += entry.file().rowCount();
        }
        return records == 0 ? 0 : Math.round(bytes * Math.min(1.0, (double) rows / records));
    }

    private static Optional<ColumnStats> columnStats(String name, PaimonColumnHandle column, long rows, Map<ColumnStatisticMetadata, Block> computed)
    {
        OptionalLong nonNull = longStatistic(computed, name, NUMBER_OF_NON_NULL_VALUES);
        if (nonNull.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong totalSize = longStatistic(computed, name, TOTAL_SIZE_IN_BYTES);
        OptionalLong averageLength = totalSize.isPresent() && nonNull.getAsLong() > 0
                ? OptionalLong.of(totalSize.getAsLong() / nonNull.getAsLong())
                : OptionalLong.empty();
        return Optional.of(new ColumnStats(
                column.fieldId(),
                longStatistic(computed, name, NUMBER_OF_DISTINCT_VALUES),
                boundText(computed, name, MIN_VALUE, column.type()),
                boundText(computed, name, MAX_VALUE, column.type()),
                OptionalLong.of(rows - nonNull.getAsLong()),
                averageLength,
                longStatistic(computed, name, MAX_VALUE_SIZE_IN_BYTES)));
    }

    private static OptionalLong longStatistic(Map<ColumnStatisticMetadata, Block> computed, String column, ColumnStatisticType type)
    {
        Block block = computed.get(new ColumnStatisticMetadata(column, type));
        if (block == null || block.isNull(0)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(BIGINT.getLong(block, 0));
    }

    // bounds as Paimon's serializers print them: numbers as Java prints them, a DATE as its day number
    private static Optional<String> boundText(Map<ColumnStatisticMetadata, Block> computed, String column, ColumnStatisticType statistic, Type type)
    {
        Block block = computed.get(new ColumnStatisticMetadata(column, statistic));
        if (block == null || block.isNull(0)) {
            return Optional.empty();
        }
        Object value = readNativeValue(type, block, 0);
        return Optional.of(switch (type) {
            case RealType _ -> Float.toString(Float.intBitsToFloat(((Long) value).intValue()));
            case DecimalType decimal -> (decimal.isShort() ? BigDecimal.valueOf((Long) value, decimal.getScale()) : new BigDecimal(((Int128) value).toBigInteger(), decimal.getScale())).toPlainString();
            default -> value.toString();
        });
    }

    private static List<ColumnStatisticType> statisticTypes(Type type)
    {
        return switch (type) {
            case TinyintType _, SmallintType _, IntegerType _, BigintType _, RealType _, DoubleType _, DecimalType _, DateType _, BooleanType _ ->
                    List.of(NUMBER_OF_NON_NULL_VALUES, NUMBER_OF_DISTINCT_VALUES, MIN_VALUE, MAX_VALUE);
            case VarcharType _, CharType _, VarbinaryType _ ->
                    List.of(NUMBER_OF_NON_NULL_VALUES, NUMBER_OF_DISTINCT_VALUES, TOTAL_SIZE_IN_BYTES, MAX_VALUE_SIZE_IN_BYTES);
            // timestamps, times and nested values: counted, no bounds (Paimon's text form for them is not Trino's)
            default -> type.isComparable() ? List.of(NUMBER_OF_NON_NULL_VALUES, NUMBER_OF_DISTINCT_VALUES) : List.of(NUMBER_OF_NON_NULL_VALUES);
        };
    }

    @SuppressWarnings("unchecked")
    private static Set<String> analyzedColumns(PaimonTable table, Set<String> columns, Map<String, Object> properties)
    {
        Object requested = properties.get(COLUMNS_PROPERTY);
        if (requested == null) {
            return columns;
        }
        Set<String> names = ImmutableSet.copyOf((Collection<String>) requested);
        for (String name : names) {
            if (!columns.contains(name)) {
                throw new TrinoException(INVALID_ANALYZE_PROPERTY, "Invalid columns specified for analysis of Paimon table %s: %s".formatted(table.name(), name));
            }
        }
        return names;
    }
}
