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
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
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

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$manifests"}: the manifest files of the current snapshot, as Paimon's own {@code $manifests} lists
 * them: the base list, then the delta list, then the changelog list, each in order. Partition bounds are shown as
 * {@code {v1, v2}}; a manifest written before partition statistics existed shows none.
 */
public final class ManifestsTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("file_name", VARCHAR),
            new ColumnMetadata("file_size", BIGINT),
            new ColumnMetadata("num_added_files", BIGINT),
            new ColumnMetadata("num_deleted_files", BIGINT),
            new ColumnMetadata("schema_id", BIGINT),
            new ColumnMetadata("min_partition_stats", VARCHAR),
            new ColumnMetadata("max_partition_stats", VARCHAR),
            new ColumnMetadata("min_row_id", BIGINT),
            new ColumnMetadata("max_row_id", BIGINT));

    public ManifestsTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
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
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location(), catalog.metadataCache());
        List<ManifestFileMeta> manifests = new ArrayList<>(scan.manifests(snapshot));
        snapshot.changelogManifestList()
                .ifPresent(list -> manifests.addAll(scan.readManifestList(list, snapshot.changelogManifestListSize())));
        for (ManifestFileMeta manifest : manifests) {
            rows.addRow(
                    manifest.fileName(),
                    manifest.fileSize(),
                    manifest.numAddedFiles(),
                    manifest.numDeletedFiles(),
                    manifest.schemaId(),
                    partitionText(manifest.partitionStats().minValues()),
                    partitionText(manifest.partitionStats().maxValues()),
                    boxed(manifest.minRowId()),
                    boxed(manifest.maxRowId()));
        }
    }

    private String partitionText(BinaryRow bound)
    {
        if (bound.arity() != table.partitionFields().size()) {
            return null;
        }
        return PartitionPath.rowText(table.partitionFields(), bound);
    }

    private static Long boxed(OptionalLong value)
    {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
