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
package io.trino.plugin.paimon.catalog;

import com.google.common.collect.Lists;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.maintenance.PartitionExpiration;
import io.trino.plugin.paimon.maintenance.PartitionExpiration.ExpiredPartition;
import io.trino.plugin.paimon.table.PaimonTable;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.util.Objects.requireNonNull;

/**
 * Drops the partitions that have expired ({@link PartitionExpiration}) from the latest snapshot of a table's branch, as
 * Paimon's partition expiry does: the partitions of each batch in one OVERWRITE commit (all of them in one without a
 * batch size), conflict-checked like a partition DELETE, and without the maintenance a write does afterwards.
 */
public final class PartitionExpiry
{
    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final PartitionDrop drop;

    public PartitionExpiry(TrinoFileSystem fileSystem, PaimonTable table, SnapshotPublisher publisher)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.drop = new PartitionDrop(fileSystem, table, publisher);
    }

    /**
     * Drops the expired partitions.
     *
     * @return the partitions dropped, in the order they were chosen
     */
    public List<ExpiredPartition> expire(PartitionExpiration expiration, LocalDateTime now, Map<String, String> properties)
    {
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        Optional<Snapshot> latest = snapshots.latestSnapshot();
        if (latest.isEmpty() || table.partitionFields().isEmpty()) {
            return List.of();
        }
        List<ExpiredPartition> expired = expiration.expired(table, new SnapshotScan(fileSystem, table.location()).liveFiles(latest.get(), ScanFilter.ALL), now);
        Snapshot base = latest.get();
        for (List<ExpiredPartition> batch : Lists.partition(expired, expiration.batchSize().orElse(Math.max(expired.size(), 1)))) {
            Set<BinaryRow> partitions = batch.stream().map(ExpiredPartition::partition).collect(toImmutableSet());
            drop.drop(base, new ScanFilter()
            {
                @Override
                public boolean matchesPartition(BinaryRow partition)
                {
                    return partitions.contains(partition);
                }
            }, properties, false);
            base = snapshots.latestSnapshot().orElseThrow();
        }
        return expired;
    }
}
