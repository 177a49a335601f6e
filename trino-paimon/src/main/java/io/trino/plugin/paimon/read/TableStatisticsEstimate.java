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
package io.trino.plugin.paimon.read;

import io.airlift.log.Logger;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.stats.AnalyzedStatistics;
import io.trino.plugin.paimon.format.stats.AnalyzedStatistics.ColumnStats;
import io.trino.plugin.paimon.format.stats.StatisticsFiles;
import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Table statistics for the optimizer, from the manifests of the pinned snapshot alone (no data file is read), over
 * the files the query's partition, bucket and key domains leave.
 * <p>
 * <b>Row count.</b> An append table's rows are its files' records. A primary-key table's merged rows are fewer than
 * its records when a key was written more than once, and Paimon keeps no merged count, so the estimate is the
 * records that are not deletions: exact for a table whose keys were each written once or that was fully compacted,
 * an overestimate by the number of updates otherwise (never an underestimate, unless deletions of keys written in
 * other runs are counted twice).
 * <p>
 * <b>Columns.</b> A partition column's distinct values are counted exactly from the partitions read. Nulls fraction
 * and min/max from the files' value statistics, when every file was written with the
 * current schema and has them. Merged values are values of some record, so record bounds bound them; but an
 * aggregation table computes values no record holds, so its value columns get no range. The nulls fraction of a
 * primary-key table is that of its records.
 */
public final class TableStatisticsEstimate
{
    private static final Logger log = Logger.get(TableStatisticsEstimate.class);
    private static final int FRESHNESS_HORIZON = 100;

    private TableStatisticsEstimate() {}

    public static TableStatistics estimate(TrinoFileSystem fileSystem, MetadataCache cache, PaimonTableHandle handle, List<PaimonColumnHandle> columns)
    {
        if (handle.snapshotId().isEmpty()) {
            return TableStatistics.builder().setRowCount(Estimate.of(0)).build();
        }
        if (handle.constraint().isNone()) {
            return TableStatistics.builder().setRowCount(Estimate.of(0)).build();
        }
        PaimonTable table = handle.table();
        Snapshot snapshot = PinnedSnapshot.read(fileSystem, cache, handle);
        List<ManifestEntry> entries = new SnapshotScan(fileSystem, table.location(), cache).liveFiles(snapshot, FilePruning.create(table, handle.constraint()));
        List<DataFileMeta> files = entries.stream()
                .map(ManifestEntry::file)
                .toList();

        long records = 0;
        long rows = 0;
        for (DataFileMeta file : files) {
            records += file.rowCount();
            rows += table.hasPrimaryKey() ? file.rowCount() - file.deleteRowCount().orElse(0) : file.rowCount();
        }
        Optional<AnalyzedStatistics> analyzed = analyzedStatistics(fileSystem, table, snapshot);
        long selectedRecords = records;
        Optional<Fresh> fresh = analyzed.flatMap(value -> fresh(fileSystem, table, snapshot, value, selectedRecords));
        long rowCount = Math.max(fresh.map(Fresh::rows).orElse(rows), 0);
        TableStatistics.Builder statistics = TableStatistics.builder().setRowCount(Estimate.of(rowCount));
        if (files.isEmpty()) {
            return statistics.build();
        }
        if (files.stream().anyMatch(file -> file.schemaId() != table.schema().id())) {
            // the files' value statistics name older columns; an ANALYZE still knows distinct counts by field id
            for (PaimonColumnHandle column : columns) {
                ColumnStatistics.Builder columnStatistics = ColumnStatistics.builder();
                analyzed.ifPresent(value -> addAnalyzed(columnStatistics, value, column.fieldId(), Optional.empty(), rowCount));
                statistics.setColumnStatistics(column, columnStatistics.build());
            }
            return statistics.build();
        }

        List<DataField> fields = table.schema().fields();
        boolean aggregated = table.hasPrimaryKey() && table.options().mergeEngine() == MergeEngine.AGGREGATION;
        for (PaimonColumnHandle column : columns) {
            int index = indexOf(fields, column.fieldId());
            if (index < 0) {
                continue;
            }
            DataField field = fields.get(index);
            boolean bounded = !aggregated || table.schema().primaryKeys().contains(field.name()) || table.schema().partitionKeys().contains(field.name());
            ColumnStatistics.Builder columnStatistics = columnStatistics(files, field, index, records, bounded);
            if (analyzed.isPresent()) {
                addAnalyzed(columnStatistics, analyzed.get(), field.id(), fresh, rowCount);
            }
            int partitionIndex = table.schema().partitionKeys().indexOf(field.name());
            if (partitionIndex >= 0) {
                columnStatistics.setDistinctValuesCount(Estimate.of(distinctValues(entries, partitionIndex, field.type())));
            }
            statistics.setColumnStatistics(column, columnStatistics.build());
        }
        return statistics.build();
    }

    /**
     * What an {@code ANALYZE} (or a write) recorded for the column: its distinct count (capped at the rows estimated),
     * and, while no data changed since, its nulls fraction and data size over the merged rows; after changes, the data
     * size its average length gives the rows estimated.
     */
    private static void addAnalyzed(ColumnStatistics.Builder statistics, AnalyzedStatistics analyzed, int fieldId, Optional<Fresh> fresh, long rows)
    {
        Optional<ColumnStats> column = analyzed.columns().values().stream()
                .filter(value -> value.fieldId() == fieldId)
                .findFirst();
        if (column.isEmpty()) {
            return;
        }
        if (column.get().distinctCount().isPresent()) {
            statistics.setDistinctValuesCount(Estimate.of(Math.min(column.get().distinctCount().getAsLong(), Math.max(rows, 0))));
        }
        if (fresh.isEmpty() || fresh.get().analyzedRows() == 0 || column.get().nullCount().isEmpty()) {
            // the average length of a value still holds for the rows since: their size, nulls counted as values (too
            // large by at most the share of nulls), so that the optimizer can weigh the column at all
            column.get().averageLength().ifPresent(length -> statistics.setDataSize(Estimate.of((double) length * Math.max(rows, 0))));
            return;
        }
        double nullsFraction = Math.min(1.0, (double) column.get().nullCount().getAsLong() / fresh.get().analyzedRows());
        statistics.setNullsFraction(Estimate.of(nullsFraction));
        if (column.get().averageLength().isPresent()) {
            statistics.setDataSize(Estimate.of(column.get().averageLength().getAsLong() * rows * (1 - nullsFraction)));
        }
    }

    private static Optional<AnalyzedStatistics> analyzedStatistics(TrinoFileSystem fileSystem, PaimonTable table, Snapshot snapshot)
    {
        if (snapshot.statistics().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new StatisticsFiles(fileSystem, table.location()).read(snapshot.statistics().get()));
        }
        catch (TrinoException e) {
            // statistics only guide the optimizer: a damaged file must not fail the query
            log.warn(e, "Ignoring the statistics of snapshot %s of %s", snapshot.id(), table.name());
            return Optional.empty();
        }
    }

    /**
     * The merged row count an {@code ANALYZE} measured, when no snapshot since the one it analyzed added or removed
     * data (compactions and other {@code ANALYZE}s change no rows), scaled to the share of the table's records the
     * query's partitions, buckets and keys leave. Past {@value #FRESHNESS_HORIZON} snapshots it counts as stale.
     */
    private static Optional<Fresh> fresh(TrinoFileSystem fileSystem, PaimonTable table, Snapshot snapshot, AnalyzedStatistics analyzed, long selectedRecords)
    {
        if (analyzed.mergedRecordCount().isEmpty() || analyzed.snapshotId() > snapshot.id() || snapshot.id() - analyzed.snapshotId() > FRESHNESS_HORIZON) {
            return Optional.empty();
        }
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        for (long id = analyzed.snapshotId() + 1; id <= snapshot.id(); id++) {
            Snapshot later = id == snapshot.id() ? snapshot : snapshots.readSnapshot(id);
            if (later.commitKind() == CommitKind.APPEND || later.commitKind() == CommitKind.OVERWRITE) {
                return Optional.empty();
            }
        }
        long analyzedRows = analyzed.mergedRecordCount().getAsLong();
        long totalRecords = snapshot.totalRecordCount().orElse(selectedRecords);
        double share = totalRecords == 0 ? 1.0 : Math.min(1.0, (double) selectedRecords / totalRecords);
        return Optional.of(new Fresh(analyzedRows, Math.round(analyzedRows * share)));
    }

    private record Fresh(long analyzedRows, long rows) {}

    // a partition column has exactly as many distinct values as the partitions read hold (null counts as none)
    private static long distinctValues(List<ManifestEntry> entries, int partitionIndex, DataType type)
    {
        Set<Object> values = new HashSet<>();
        for (ManifestEntry entry : entries) {
            Object value = entry.partition().get(partitionIndex, type);
            if (value != null) {
                values.add(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
            }
        }
        return values.size();
    }

    private static ColumnStatistics.Builder columnStatistics(List<DataFileMeta> files, DataField field, int fieldIndex, long records, boolean bounded)
    {
        long nulls = 0;
        boolean nullsKnown = true;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        boolean rangeKnown = bounded && orderedAsDouble(field.type());
        for (DataFileMeta file : files) {
            int statsIndex = file.valueStatsColumns().map(names -> names.indexOf(field.name())).orElse(fieldIndex);
            Optional<Long> fileNulls = statsIndex < 0 ? Optional.empty() : file.valueStats().nullCounts()
                    .filter(counts -> statsIndex < counts.size())
                    .map(counts -> counts.get(statsIndex));
            if (fileNulls.isPresent()) {
                nulls += fileNulls.get();
            }
            else {
                nullsKnown = false;
            }
            if (rangeKnown) {
                OptionalDouble fileMin = statsIndex < 0 ? OptionalDouble.empty() : asDouble(file.valueStats().minValues(), statsIndex, field.type());
                OptionalDouble fileMax = statsIndex < 0 ? OptionalDouble.empty() : asDouble(file.valueStats().maxValues(), statsIndex, field.type());
                // a file whose column is all null has no bounds, and narrows nothing
                if (fileMin.isPresent() && fileMax.isPresent()) {
                    min = Math.min(min, fileMin.getAsDouble());
                    max = Math.max(max, fileMax.getAsDouble());
                }
                else if (fileNulls.isEmpty() || fileNulls.get() < file.rowCount()) {
                    rangeKnown = false;
                }
            }
        }
        ColumnStatistics.Builder statistics = ColumnStatistics.builder();
        if (nullsKnown && records > 0) {
            statistics.setNullsFraction(Estimate.of(Math.min(1.0, (double) nulls / records)));
        }
        if (rangeKnown && min <= max) {
            statistics.setRange(new DoubleRange(min, max));
        }
        return statistics;
    }

    private static boolean orderedAsDouble(DataType type)
    {
        return switch (type) {
            case DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _, DataType.BigIntType _ -> true;
            case DataType.DateType _, DataType.DecimalType _, DataType.FloatType _, DataType.DoubleType _ -> true;
            default -> false;
        };
    }

    private static OptionalDouble asDouble(BinaryRow stats, int index, DataType type)
    {
        if (index >= stats.arity() || stats.isNullAt(index)) {
            return OptionalDouble.empty();
        }
        Object value = stats.get(index, type);
        double number = switch (value) {
            case BigDecimal decimal -> decimal.doubleValue();
            case Number other -> other.doubleValue();
            default -> Double.NaN;
        };
        return Double.isNaN(number) ? OptionalDouble.empty() : OptionalDouble.of(number);
    }

    private static int indexOf(List<DataField> fields, int fieldId)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).id() == fieldId) {
                return i;
            }
        }
        return -1;
    }
}
