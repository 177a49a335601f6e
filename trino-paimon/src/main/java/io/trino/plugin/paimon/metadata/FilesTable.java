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
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$files"}: the live data files of the current snapshot, as its manifests list them. The partition is
 * shown as Paimon's own {@code $files} shows it: {@code {v1, v2}} ({@code {}} when the table is not partitioned).
 */
public final class FilesTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("partition", VARCHAR),
            new ColumnMetadata("bucket", INTEGER),
            new ColumnMetadata("file_path", VARCHAR),
            new ColumnMetadata("file_format", VARCHAR),
            new ColumnMetadata("schema_id", BIGINT),
            new ColumnMetadata("level", INTEGER),
            new ColumnMetadata("record_count", BIGINT),
            new ColumnMetadata("delete_record_count", BIGINT),
            new ColumnMetadata("file_size_in_bytes", BIGINT),
            new ColumnMetadata("min_key", VARCHAR),
            new ColumnMetadata("max_key", VARCHAR),
            new ColumnMetadata("min_sequence_number", BIGINT),
            new ColumnMetadata("max_sequence_number", BIGINT),
            new ColumnMetadata("creation_time", TIMESTAMP_TZ_MILLIS));

    public FilesTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, COLUMNS);
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        return fromCurrentSnapshot(session, this::addRows);
    }

    private void addRows(InMemoryRecordSet.Builder rows, TrinoFileSystem fileSystem, Snapshot snapshot)
    {
        TableSchema schema = table.schema();
        // files written under older schemas have their own key types
        Map<Long, List<DataType>> keyTypesBySchema = new HashMap<>();
        for (ManifestEntry entry : new SnapshotScan(fileSystem, table.location(), catalog.metadataCache()).liveFiles(snapshot, ScanFilter.ALL)) {
            DataFileMeta file = entry.file();
            String partition = table.partitionPath(entry.partition());
            List<DataType> keyTypes = keyTypesBySchema.get(file.schemaId());
            if (keyTypes == null) {
                TableSchema fileSchema = file.schemaId() == schema.id() ? schema : new SchemaFiles(fileSystem, table.metadataLocation(), catalog.metadataCache()).readSchema(file.schemaId());
                keyTypes = keyTypes(fileSchema);
                keyTypesBySchema.put(file.schemaId(), keyTypes);
            }
            rows.addRow(
                    PartitionPath.rowText(table.partitionFields(), entry.partition()),
                    entry.bucket(),
                    table.dataFileLocation(partition, entry.bucket(), file).toString(),
                    file.fileName().substring(file.fileName().lastIndexOf('.') + 1),
                    file.schemaId(),
                    file.level(),
                    file.rowCount(),
                    file.deleteRowCount().isPresent() ? file.deleteRowCount().getAsLong() : null,
                    file.fileSize(),
                    keyText(file.minKey(), keyTypes),
                    keyText(file.maxKey(), keyTypes),
                    file.minSequenceNumber(),
                    file.maxSequenceNumber(),
                    file.creationTimeMillis().isPresent() ? packDateTimeWithZone(file.creationTimeMillis().getAsLong(), UTC_KEY) : null);
        }
    }

    private static List<DataType> keyTypes(TableSchema schema)
    {
        return schema.trimmedPrimaryKeyFields().stream()
                .map(DataField::type)
                .toList();
    }

    // append tables have empty key rows
    private static String keyText(BinaryRow key, List<DataType> keyTypes)
    {
        if (key.arity() == 0 || key.arity() != keyTypes.size()) {
            return null;
        }
        return key.values(keyTypes).toString();
    }
}
