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

import com.google.common.collect.ImmutableMap;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.table.PaimonTable;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.util.Objects.requireNonNull;

/**
 * Drops partitions as Paimon does (a DELETE or TRUNCATE that selects whole partitions, and partition expiry): one
 * OVERWRITE snapshot that deletes every live data file of the partitions and their index files, and adds none. A
 * commit since the base snapshot that changed those partitions (any commit, for an unpartitioned table) fails the
 * drop with {@code TRANSACTION_CONFLICT}, as it fails an INSERT OVERWRITE.
 */
public final class PartitionDrop
{
    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final SnapshotPublisher publisher;

    public PartitionDrop(TrinoFileSystem fileSystem, PaimonTable table, SnapshotPublisher publisher)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.publisher = requireNonNull(publisher, "publisher is null");
    }

    /** The files a drop deleted: data files and index files. */
    public record Dropped(List<ManifestEntry> files, List<IndexManifestEntry> indexFiles)
    {
        public Dropped
        {
            files = List.copyOf(files);
            indexFiles = List.copyOf(indexFiles);
        }
    }

    /**
     * Drops the partitions the filter matches in the base snapshot, committing nothing when they hold no files.
     *
     * @param maintain whether the commit maintains the table afterwards as a write does (tags, snapshot expiry); a
     * drop that is itself maintenance does not
     */
    public Dropped drop(Snapshot base, ScanFilter partitions, Map<String, String> properties, boolean maintain)
    {
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location());
        List<ManifestEntry> files = scan.liveFiles(base, partitions).stream()
                .map(entry -> new ManifestEntry(FileKind.DELETE, entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file()))
                .collect(toImmutableList());
        List<IndexManifestEntry> indexFiles = scan.indexFiles(base, partitions).stream()
                .map(entry -> new IndexManifestEntry(FileKind.DELETE, entry.partition(), entry.bucket(), entry.indexType(), entry.fileName(), entry.fileSize(), entry.rowCount(), entry.deletionVectorRanges(), entry.externalPath()))
                .collect(toImmutableList());
        Dropped dropped = new Dropped(files, indexFiles);
        if (files.isEmpty() && indexFiles.isEmpty()) {
            return dropped;
        }

        Set<ByteBuffer> droppedPartitions = table.partitionFields().isEmpty() ? Set.of() : files.stream()
                .map(entry -> ByteBuffer.wrap(entry.partition().bytes()))
                .collect(toImmutableSet());
        String commitIdentifier = UUID.randomUUID().toString();
        SnapshotCommitter committer = new SnapshotCommitter(fileSystem, table, publisher, table.schema(), commitIdentifier, table.options().commitRetry());
        if (!maintain) {
            committer = committer.withoutMaintenance();
        }
        committer.commit(
                CommitKind.OVERWRITE,
                files,
                IndexManifestUpdate.bucketed(indexFiles),
                false,
                ImmutableMap.<String, String>builder().putAll(properties).put(Snapshot.TRINO_COMMIT_ID_PROPERTY, commitIdentifier).buildOrThrow(),
                BucketConflictCheck.ofPartitions(fileSystem, table, OptionalLong.of(base.id()), droppedPartitions));
        return dropped;
    }
}
