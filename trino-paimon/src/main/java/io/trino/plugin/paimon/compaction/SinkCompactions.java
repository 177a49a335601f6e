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
package io.trino.plugin.paimon.compaction;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.BucketFiles;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.read.DeletionVectorIndex;
import io.trino.plugin.paimon.table.AppendCompactionOptions;
import io.trino.plugin.paimon.table.CompactionOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.OutputBufferLimit;
import io.trino.plugin.paimon.write.SinkCompaction;
import io.trino.plugin.paimon.write.SinkCompactor;
import io.trino.spi.connector.ConnectorSession;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.util.Objects.requireNonNull;

/**
 * Compaction on write in the page sink that wrote the buckets ({@link SinkCompactor}): each bucket's files in the
 * statement's base snapshot and the sink's new files are compacted as {@link Compactions#compactBucket} (primary-key
 * tables) or {@link Compactions#compactAppendBucket} (fixed-bucket append tables) compacts them after a commit. The sink owns its buckets (writes are routed by bucket), so their files at commit time
 * are those it read, unless a concurrent commit changed them: the coordinator checks that before it commits a result
 * ({@link Compactions#compactCommittedWrite}).
 */
public final class SinkCompactions
        implements SinkCompactor
{
    private static final Logger log = Logger.get(SinkCompactions.class);

    private final TableFileSystemFactory fileSystemFactory;
    private final MetadataCache metadataCache;
    private final Compactions compactions;

    @Inject
    public SinkCompactions(TableFileSystemFactory fileSystemFactory, MetadataCache metadataCache, Compactions compactions)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.metadataCache = requireNonNull(metadataCache, "metadataCache is null");
        this.compactions = requireNonNull(compactions, "compactions is null");
    }

    @Override
    public List<SinkCompaction> compact(ConnectorSession session, PaimonInsertTableHandle handle, List<WrittenBucket> buckets, long outputBufferLimit)
    {
        PaimonTable table = OutputBufferLimit.apply(handle.table(), outputBufferLimit);
        String tableName = table.name().toString();
        BaseBuckets base;
        try {
            base = readBase(session, handle, buckets);
        }
        catch (RuntimeException e) {
            // the statement's files are written: the coordinator compacts the buckets after the commit instead
            log.warn(e, "Table %s: the page sink could not read the buckets it wrote in snapshot %s; the coordinator compacts them after the commit", tableName, handle.baseSnapshotId());
            return List.of();
        }
        CompactionOptions options = CompactionOptions.of(tableName, table.schema().options());
        AppendCompactionOptions appendOptions = AppendCompactionOptions.of(tableName, table.schema().options());
        // named as the sink's data files: under fault-tolerant execution the coordinator keeps the files of the
        // attempt whose fragments it commits and deletes those of the other attempts of the task
        Compactions namedCompactions = compactions.namingFiles(MetadataFileNames.ofStatement(handle.commitIdentifier()));

        List<SinkCompaction> compacted = new ArrayList<>();
        for (WrittenBucket written : buckets) {
            BucketKey key = BucketKey.of(written.partition(), written.bucket());
            List<ManifestEntry> files = ImmutableList.<ManifestEntry>builder()
                    .addAll(base.files().getOrDefault(key, List.of()))
                    .addAll(written.files().stream()
                            .map(file -> new ManifestEntry(FileKind.ADD, written.partition(), written.bucket(), written.totalBuckets(), file))
                            .toList())
                    .build();
            Optional<IndexManifestEntry> vectorIndex = Optional.ofNullable(base.vectorIndexes().get(key));
            try {
                BucketFiles bucketFiles = new BucketFiles(written.partition(), written.bucket(), files);
                Optional<CompactionFragment> compaction = table.hasPrimaryKey()
                        ? namedCompactions.compactBucket(session, table, options, handle.overwrite(), bucketFiles, base.deletionVectors(), vectorIndex)
                        : namedCompactions.compactAppendBucket(session, table, appendOptions, bucketFiles, base.deletionVectors());
                compaction.ifPresent(result -> compacted.add(new SinkCompaction(
                        result,
                        files.stream().map(entry -> entry.file().fileName()).toList(),
                        vectorIndex.map(IndexManifestEntry::fileName))));
            }
            catch (RuntimeException e) {
                // the statement's files are written: the coordinator compacts this bucket after the commit instead
                log.warn(e, "Table %s: compaction of bucket %s in the page sink failed; the coordinator compacts it after the commit", tableName, written.bucket());
            }
        }
        return compacted;
    }

    /** The live files and deletion vectors of the written buckets in the statement's base snapshot. */
    private record BaseBuckets(Map<BucketKey, List<ManifestEntry>> files, Map<BucketKey, IndexManifestEntry> vectorIndexes, DeletionVectorIndex deletionVectors) {}

    private BaseBuckets readBase(ConnectorSession session, PaimonInsertTableHandle handle, List<WrittenBucket> buckets)
    {
        PaimonTable table = handle.table();
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location(), metadataCache);
        Set<ByteBuffer> partitions = buckets.stream()
                .map(bucket -> ByteBuffer.wrap(bucket.partition().bytes()))
                .collect(toImmutableSet());
        ScanFilter writtenPartitions = new ScanFilter()
        {
            @Override
            public boolean matchesPartition(BinaryRow partition)
            {
                return partitions.contains(ByteBuffer.wrap(partition.bytes()));
            }
        };
        Map<BucketKey, List<ManifestEntry>> baseFiles = new HashMap<>();
        Map<BucketKey, IndexManifestEntry> vectorIndexes = new HashMap<>();
        List<IndexManifestEntry> indexFiles = List.of();
        if (handle.baseSnapshotId().isPresent()) {
            Snapshot base = new SnapshotFiles(fileSystem, table.metadataLocation(), metadataCache).readSnapshot(handle.baseSnapshotId().getAsLong());
            for (BucketFiles bucket : scan.liveFilesByBucket(base, writtenPartitions)) {
                baseFiles.put(BucketKey.of(bucket.partition(), bucket.bucket()), bucket.files());
            }
            indexFiles = scan.indexFiles(base, writtenPartitions);
            for (IndexManifestEntry index : indexFiles) {
                if (index.indexType().equals(IndexManifestEntry.DELETION_VECTORS_INDEX)) {
                    vectorIndexes.put(BucketKey.of(index.partition(), index.bucket()), index);
                }
            }
        }
        return new BaseBuckets(baseFiles, vectorIndexes, DeletionVectorIndex.of(table, scan, indexFiles));
    }
}
