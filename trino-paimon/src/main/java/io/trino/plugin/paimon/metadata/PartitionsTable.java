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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$partitions"}: one row per partition of the current snapshot, shaped as BI tools read a partition
 * listing: one column per partition key, named as the key, then the partition's record count, total file size, file
 * count and the creation time of its newest file. Counts are of records in files, as Paimon's own
 * {@code $partitions} counts them: a primary-key table's rows are fewer once merged.
 * <p>
 * The count columns are hidden, so {@code SELECT *} returns the partition keys alone, as Trino's Hive connector
 * does: Superset takes every column of {@code SELECT * FROM "t$partitions"} for a partition key (through the Trino
 * SQLAlchemy dialect's {@code get_indexes}) and filters its table previews on each of them, so a visible
 * {@code record_count} would break every preview (apache/superset#25307, #26449 for Iceberg's shape). Selected by
 * name, the counts are there. For the same reason an unpartitioned table's listing has no visible column.
 * <p>
 * Keys of integer, date, boolean and string types keep a SQL type (TINYINT and SMALLINT as INTEGER); keys of other
 * types are shown as text.
 */
public final class PartitionsTable
        extends PaimonSystemTable
{
    public PartitionsTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, columns(table));
    }

    private static List<ColumnMetadata> columns(PaimonTable table)
    {
        ImmutableList.Builder<ColumnMetadata> columns = ImmutableList.builder();
        for (DataField field : table.partitionFields()) {
            columns.add(new ColumnMetadata(field.name(), keyType(field.type())));
        }
        return columns
                .add(hidden("record_count", BIGINT))
                .add(hidden("file_size_in_bytes", BIGINT))
                .add(hidden("file_count", BIGINT))
                .add(hidden("last_update_time", TIMESTAMP_TZ_MILLIS))
                .build();
    }

    private static ColumnMetadata hidden(String name, Type type)
    {
        return ColumnMetadata.builder().setName(name).setType(type).setHidden(true).build();
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        return fromCurrentSnapshot(session, this::addRows);
    }

    private void addRows(InMemoryRecordSet.Builder rows, TrinoFileSystem fileSystem, Snapshot snapshot)
    {
        Map<BinaryRow, FileTotals> partitions = new LinkedHashMap<>();
        for (ManifestEntry entry : new SnapshotScan(fileSystem, table.location(), catalog.metadataCache()).liveFiles(snapshot, ScanFilter.ALL)) {
            partitions.computeIfAbsent(entry.partition(), _ -> new FileTotals()).add(entry.file());
        }
        List<DataField> keys = table.partitionFields();
        for (Map.Entry<BinaryRow, FileTotals> partition : partitions.entrySet()) {
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                row.add(keyValue(keys.get(i).type(), partition.getKey().get(i, keys.get(i).type())));
            }
            FileTotals totals = partition.getValue();
            row.add(totals.records());
            row.add(totals.bytes());
            row.add(totals.files());
            row.add(totals.lastUpdateTime());
            rows.addRow(row.toArray());
        }
    }

    private static Type keyType(DataType type)
    {
        return switch (type) {
            case DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _ -> INTEGER;
            case DataType.BigIntType _ -> BIGINT;
            case DataType.DateType _ -> DATE;
            case DataType.BooleanType _ -> BOOLEAN;
            default -> VARCHAR;
        };
    }

    private static Object keyValue(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case DataType.TinyIntType _, DataType.SmallIntType _ -> ((Number) value).intValue();
            case DataType.IntType _, DataType.BigIntType _, DataType.DateType _, DataType.BooleanType _, DataType.CharType _, DataType.VarCharType _ -> value;
            default -> String.valueOf(value);
        };
    }
}
