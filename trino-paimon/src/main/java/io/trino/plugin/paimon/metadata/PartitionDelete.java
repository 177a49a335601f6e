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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.catalog.PartitionDrop;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.read.FilePruning;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.predicate.TupleDomain;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;

/**
 * DELETE of whole partitions and TRUNCATE TABLE, done in metadata as Paimon drops partitions ({@link PartitionDrop}:
 * one OVERWRITE snapshot that deletes every live data file of the partitions, of the table for TRUNCATE). It applies when the DELETE's predicate is on partition columns only and partition pruning enforces it
 * exactly, so the rows deleted are exactly the rows of the partitions dropped. A commit since the statement's
 * snapshot that changed those partitions fails the statement, as it fails an INSERT OVERWRITE.
 */
final class PartitionDelete
{
    private PartitionDelete() {}

    /**
     * The part of a filter that pruning does not enforce: everything but the domains of partition columns whose
     * values convert exactly (pruning keeps exactly the partitions such a domain admits).
     */
    static TupleDomain<ColumnHandle> unenforced(PaimonTable table, TupleDomain<ColumnHandle> filter)
    {
        Set<Integer> enforced = enforcedFieldIds(table);
        return filter.filter((column, _) -> !enforced.contains(((PaimonColumnHandle) column).fieldId()));
    }

    /** The handle itself when its constraint is on exactly enforced partition columns only, so whole partitions go. */
    static Optional<PaimonTableHandle> applyDelete(PaimonTableHandle handle)
    {
        Set<Integer> enforced = enforcedFieldIds(handle.table());
        boolean partitionsOnly = handle.constraint().getDomains()
                .map(domains -> domains.keySet().stream().allMatch(column -> enforced.contains(column.fieldId())))
                .orElse(true);
        return partitionsOnly ? Optional.of(handle) : Optional.empty();
    }

    /**
     * Drops the partitions the handle's constraint selects (all of them when it has none) in one commit.
     *
     * @return the rows deleted when the files tell them exactly (append tables without deletion vectors), else empty
     */
    static OptionalLong execute(TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonTableHandle handle, String queryId)
    {
        PaimonTable table = handle.table();
        if (handle.snapshotId().isEmpty() || handle.constraint().isNone()) {
            return OptionalLong.of(0);
        }
        Snapshot base = new SnapshotFiles(fileSystem, table.metadataLocation()).readSnapshot(handle.snapshotId().getAsLong());
        ScanFilter partitions = handle.constraint().isAll() ? ScanFilter.ALL : FilePruning.create(table, handle.constraint());
        PartitionDrop.Dropped dropped = new PartitionDrop(fileSystem, table, publisher).drop(base, partitions, ImmutableMap.of(Snapshot.TRINO_QUERY_ID_PROPERTY, queryId), true);
        boolean exactRowCount = !table.hasPrimaryKey() && dropped.indexFiles().stream().noneMatch(entry -> entry.indexType().equals(IndexManifestEntry.DELETION_VECTORS_INDEX));
        return exactRowCount ? OptionalLong.of(dropped.files().stream().mapToLong(entry -> entry.file().rowCount()).sum()) : OptionalLong.empty();
    }

    private static Set<Integer> enforcedFieldIds(PaimonTable table)
    {
        return table.partitionFields().stream()
                .filter(field -> FilePruning.prunesPartitionExactly(field.type()))
                .map(DataField::id)
                .collect(toImmutableSet());
    }
}
