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
package io.trino.plugin.paimon.write;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.manifest.BucketFiles;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What a page sink needs to know of the buckets it writes in the snapshot its statement read: each bucket's largest
 * sequence number and record count, and (dynamic-bucket tables) its key index file. A sink reads them itself, a
 * partition at a time when it first writes there, as Paimon's writers restore a bucket from the snapshot; the
 * statement's handle carries only the snapshot id, so it stays small however many partitions the table has.
 */
final class BaseSnapshotBuckets
{
    private final TrinoFileSystem fileSystem;
    private final Location tableLocation;
    private final Location metadataLocation;
    private final MetadataCache metadataCache;
    private final OptionalLong snapshotId;
    private final Map<ByteBuffer, Map<Integer, BucketState>> partitions = new HashMap<>();
    private Optional<Snapshot> snapshot;
    private Map<ByteBuffer, Map<Integer, IndexManifestEntry>> hashIndexes;

    /** The largest sequence number of a bucket in the base snapshot, and how many records its live files hold. */
    record BucketState(long maxSequenceNumber, long recordCount) {}

    BaseSnapshotBuckets(TrinoFileSystem fileSystem, Location tableLocation, Location metadataLocation, MetadataCache metadataCache, OptionalLong snapshotId)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.tableLocation = requireNonNull(tableLocation, "tableLocation is null");
        this.metadataLocation = requireNonNull(metadataLocation, "metadataLocation is null");
        this.metadataCache = requireNonNull(metadataCache, "metadataCache is null");
        this.snapshotId = requireNonNull(snapshotId, "snapshotId is null");
    }

    /** The bucket's state in the base snapshot; empty when the bucket has no live file there (or there is none). */
    Optional<BucketState> bucket(BinaryRow partition, int bucket)
    {
        return Optional.ofNullable(partitions.computeIfAbsent(ByteBuffer.wrap(partition.serialize()), _ -> readPartition(partition)).get(bucket));
    }

    /**
     * The {@code HASH} index files of one partition in the base snapshot, by bucket; the partition is keyed by its
     * serialized row, as the bucket assigner keys partitions.
     */
    Map<Integer, IndexManifestEntry> hashIndexes(ByteBuffer serializedPartition)
    {
        if (hashIndexes == null) {
            hashIndexes = new HashMap<>();
            Optional<Snapshot> base = snapshot();
            if (base.isPresent()) {
                for (IndexManifestEntry index : scan().indexFiles(base.get(), ScanFilter.ALL)) {
                    if (index.indexType().equals(IndexManifestEntry.HASH_INDEX)) {
                        hashIndexes.computeIfAbsent(ByteBuffer.wrap(index.partition().serialize()), _ -> new HashMap<>()).put(index.bucket(), index);
                    }
                }
            }
        }
        return hashIndexes.getOrDefault(serializedPartition, Map.of());
    }

    private Map<Integer, BucketState> readPartition(BinaryRow partition)
    {
        Map<Integer, BucketState> buckets = new HashMap<>();
        Optional<Snapshot> base = snapshot();
        if (base.isEmpty()) {
            return buckets;
        }
        ScanFilter onePartition = new ScanFilter()
        {
            @Override
            public boolean matchesPartition(BinaryRow row)
            {
                return row.equals(partition);
            }
        };
        List<BucketFiles> files = scan().liveFilesByBucket(base.get(), onePartition);
        for (BucketFiles bucket : files) {
            long maximum = bucket.files().stream().mapToLong(entry -> entry.file().maxSequenceNumber()).max().orElse(-1);
            long records = bucket.files().stream().mapToLong(entry -> entry.file().rowCount()).sum();
            buckets.put(bucket.bucket(), new BucketState(maximum, records));
        }
        return buckets;
    }

    private Optional<Snapshot> snapshot()
    {
        if (snapshot == null) {
            snapshot = snapshotId.isEmpty()
                    ? Optional.empty()
                    : Optional.of(new SnapshotFiles(fileSystem, metadataLocation, metadataCache).readSnapshot(snapshotId.getAsLong()));
        }
        return snapshot;
    }

    private SnapshotScan scan()
    {
        return new SnapshotScan(fileSystem, tableLocation, metadataCache);
    }
}
