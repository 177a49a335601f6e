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
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.spi.TrinoException;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Gives a commit to a dynamic-bucket table up when another writer changed the key index ({@code HASH} files) of a
 * partition the statement assigned buckets in, since the snapshot it read: that writer may have put keys this
 * statement also wrote into other buckets, and a key in two buckets is two rows. The latest snapshot's index files of
 * those partitions must be exactly the ones the statement read.
 */
public final class HashIndexConflictCheck
        implements Consumer<Optional<Snapshot>>
{
    private final String tableName;
    private final SnapshotScan scan;
    private final Set<ByteBuffer> partitions;
    private final Set<IndexFile> readIndex;

    /** A {@code HASH} index file of a bucket of a partition, the partition as its binary row bytes. */
    public record IndexFile(ByteBuffer partition, int bucket, String fileName)
    {
        public IndexFile
        {
            requireNonNull(partition, "partition is null");
            requireNonNull(fileName, "fileName is null");
        }
    }

    /**
     * @param partitions the partitions (binary row bytes) the statement assigned buckets in
     * @param readIndex the {@code HASH} index files of the snapshot the statement read
     */
    public HashIndexConflictCheck(TrinoFileSystem fileSystem, Location tableLocation, String tableName, Set<ByteBuffer> partitions, Set<IndexFile> readIndex)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.scan = new SnapshotScan(fileSystem, tableLocation);
        this.partitions = ImmutableSet.copyOf(partitions);
        this.readIndex = readIndex.stream().filter(file -> this.partitions.contains(file.partition())).collect(toImmutableSet());
    }

    @Override
    public void accept(Optional<Snapshot> latest)
    {
        Set<IndexFile> current = new HashSet<>();
        Optional<String> indexManifest = latest.flatMap(Snapshot::indexManifest);
        if (indexManifest.isPresent()) {
            for (IndexManifestEntry entry : scan.readIndexManifest(indexManifest.get())) {
                ByteBuffer partition = ByteBuffer.wrap(entry.partition().bytes());
                if (entry.indexType().equals(IndexManifestEntry.HASH_INDEX) && partitions.contains(partition)) {
                    current.add(new IndexFile(partition, entry.bucket(), entry.fileName()));
                }
            }
        }
        if (!current.equals(readIndex)) {
            Set<IndexFile> changed = new HashSet<>(current);
            changed.removeAll(readIndex);
            Set<Integer> buckets = new HashSet<>();
            changed.forEach(file -> buckets.add(file.bucket()));
            readIndex.stream().filter(file -> !current.contains(file)).forEach(file -> buckets.add(file.bucket()));
            throw new TrinoException(TRANSACTION_CONFLICT, "Write to Paimon table %s conflicts with a concurrent commit: snapshot %s changed the key index of buckets %s of a partition this statement assigned keys in; run the statement again".formatted(
                    tableName, latest.map(Snapshot::id).orElse(0L), buckets));
        }
    }
}
