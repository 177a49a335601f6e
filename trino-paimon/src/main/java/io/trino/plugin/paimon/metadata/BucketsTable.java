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
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$buckets"}: one row per bucket of the current snapshot with its file count, size and physical
 * record count, ordered by partition and bucket as Paimon's own {@code $buckets}. Record counts are of records in
 * files: a primary-key bucket's rows are fewer once merged. The partition is shown as {@code {v1, v2}}.
 */
public final class BucketsTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("partition", VARCHAR),
            new ColumnMetadata("bucket", INTEGER),
            new ColumnMetadata("record_count", BIGINT),
            new ColumnMetadata("file_size_in_bytes", BIGINT),
            new ColumnMetadata("file_count", BIGINT),
            new ColumnMetadata("last_update_time", TIMESTAMP_TZ_MILLIS));

    public BucketsTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
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
        Map<BucketKey, FileTotals> buckets = new HashMap<>();
        for (ManifestEntry entry : new SnapshotScan(fileSystem, table.location(), catalog.metadataCache()).liveFiles(snapshot, ScanFilter.ALL)) {
            BucketKey key = new BucketKey(PartitionPath.rowText(table.partitionFields(), entry.partition()), entry.bucket());
            buckets.computeIfAbsent(key, _ -> new FileTotals()).add(entry.file());
        }
        buckets.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(BucketKey::partition).thenComparingInt(BucketKey::bucket)))
                .forEach(bucket -> {
                    FileTotals totals = bucket.getValue();
                    rows.addRow(
                            bucket.getKey().partition(),
                            bucket.getKey().bucket(),
                            totals.records(),
                            totals.bytes(),
                            totals.files(),
                            totals.lastUpdateTime());
                });
    }

    private record BucketKey(String partition, int bucket) {}
}
