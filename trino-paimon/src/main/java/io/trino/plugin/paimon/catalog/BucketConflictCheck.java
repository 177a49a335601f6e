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

import com.google.common.collect.ImmutableSet;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Gives a commit up when another writer changed a bucket it writes since the snapshot it read (paimon-format.md §11.4):
 * new files in such a bucket carry sequence numbers from the same range as ours, so which record of a key wins would
 * be undefined. That matters only for a key both wrote: with a {@link SharedKeys} check, files another writer only
 * added (an APPEND commit) conflict only when they hold a key this statement wrote, and otherwise the commit lands on
 * top of them. Snapshots are checked once each, also across retries; commits to other buckets pass, and so do
 * compactions, which keep their records' sequence numbers (a compaction that removed a file this statement replaces
 * is caught by the committer's check that deleted files are live).
 */
public final class BucketConflictCheck
        implements Consumer<Optional<Snapshot>>
{
    private final String tableName;
    private final SnapshotFiles snapshots;
    private final SnapshotScan scan;
    private final Predicate<Bucket> written;
    private final Optional<SharedKeys> sharedKeys;
    private long checkedUpTo;

    /** Whether files another writer added to a bucket hold a key this statement wrote there. */
    @FunctionalInterface
    public interface SharedKeys
    {
        /** A key both wrote, as text for the error, or empty when the keys are disjoint. */
        Optional<String> sharedKey(Bucket bucket, List<ManifestEntry> added);
    }

    /** A bucket of a partition, the partition as its binary row bytes. */
    public record Bucket(ByteBuffer partition, int bucket)
    {
        public Bucket
        {
            requireNonNull(partition, "partition is null");
        }
    }

    /**
     * @param sharedKeys how to tell whether another writer's new files in a bucket hold a key this statement wrote;
     * without it any change to a written bucket is a conflict
     */
    public BucketConflictCheck(TrinoFileSystem fileSystem, PaimonTable table, OptionalLong baseSnapshotId, Set<Bucket> written, Optional<SharedKeys> sharedKeys)
    {
        this(fileSystem, table, baseSnapshotId, ImmutableSet.copyOf(written)::contains, sharedKeys);
    }

    private BucketConflictCheck(TrinoFileSystem fileSystem, PaimonTable table, OptionalLong baseSnapshotId, Predicate<Bucket> written, Optional<SharedKeys> sharedKeys)
    {
        this.tableName = requireNonNull(table, "table is null").displayName();
        this.snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        this.scan = new SnapshotScan(fileSystem, table.location());
        this.written = requireNonNull(written, "written is null");
        this.sharedKeys = requireNonNull(sharedKeys, "sharedKeys is null");
        this.checkedUpTo = baseSnapshotId.orElse(0);
    }

    /**
     * For an overwrite, which replaces whole partitions: any commit since the base that changed a bucket of those
     * partitions (of any partition, when {@code partitions} is empty: an unpartitioned table) is a conflict, since
     * its files would survive or vanish depending on the order of the commits.
     */
    public static BucketConflictCheck ofPartitions(TrinoFileSystem fileSystem, PaimonTable table, OptionalLong baseSnapshotId, Set<ByteBuffer> partitions)
    {
        Set<ByteBuffer> replaced = ImmutableSet.copyOf(partitions);
        return new BucketConflictCheck(fileSystem, table, baseSnapshotId, bucket -> replaced.isEmpty() || replaced.contains(bucket.partition()), Optional.empty());
    }

    @Override
    public void accept(Optional<Snapshot> latest)
    {
        long latestId = latest.map(Snapshot::id).orElse(0L);
        for (long id = checkedUpTo + 1; id <= latestId; id++) {
            if (!snapshots.snapshotExists(id)) {
                throw conflict("snapshot %s, committed since this statement read the table, is gone (expired), so what it changed cannot be checked".formatted(id));
            }
            Snapshot snapshot = snapshots.readSnapshot(id);
            if (snapshot.commitKind() == CommitKind.COMPACT) {
                // a compaction rewrites records with their sequence numbers: this statement's still come after them
                checkedUpTo = id;
                continue;
            }
            Map<Bucket, List<ManifestEntry>> added = new LinkedHashMap<>();
            for (ManifestFileMeta manifest : scan.readManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize())) {
                for (ManifestEntry entry : scan.readManifest(manifest)) {
                    Bucket bucket = new Bucket(ByteBuffer.wrap(entry.partition().bytes()), entry.bucket());
                    if (!written.test(bucket)) {
                        continue;
                    }
                    if (sharedKeys.isEmpty() || snapshot.commitKind() != CommitKind.APPEND || entry.kind() != FileKind.ADD) {
                        throw conflict("snapshot %s (%s by %s) changed bucket %s, which this statement also wrote".formatted(id, snapshot.commitKind(), snapshot.commitUser(), entry.bucket()));
                    }
                    added.computeIfAbsent(bucket, _ -> new ArrayList<>()).add(entry);
                }
            }
            for (Map.Entry<Bucket, List<ManifestEntry>> bucket : added.entrySet()) {
                Optional<String> key = sharedKeys.get().sharedKey(bucket.getKey(), bucket.getValue());
                if (key.isPresent()) {
                    throw conflict("snapshot %s (%s by %s) wrote key %s in bucket %s, which this statement also wrote".formatted(id, snapshot.commitKind(), snapshot.commitUser(), key.get(), bucket.getKey().bucket()));
                }
            }
            checkedUpTo = id;
        }
    }

    private TrinoException conflict(String reason)
    {
        return new TrinoException(TRANSACTION_CONFLICT, "Write to Paimon table %s conflicts with a concurrent commit: %s; run the statement again".formatted(tableName, reason));
    }
}
