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
package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.compaction.AppendCompaction;
import io.trino.plugin.paimon.compaction.BucketCompactor;
import io.trino.plugin.paimon.compaction.UniversalCompaction;
import io.trino.plugin.paimon.format.manifest.BucketFiles;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.read.DeletionVectorIndex;
import io.trino.plugin.paimon.read.FilePruning;
import io.trino.plugin.paimon.read.PaimonSplitManager;
import io.trino.plugin.paimon.read.PinnedSnapshot;
import io.trino.plugin.paimon.read.ScanDynamicFilter;
import io.trino.plugin.paimon.read.SplitManagerAdapter;
import io.trino.plugin.paimon.table.AppendCompactionOptions;
import io.trino.plugin.paimon.table.CompactionOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * The splits of a query: those of a read ({@link PaimonSplitManager}), or for {@code optimize} one split per bucket
 * that needs a full compaction, among the partitions and buckets the {@code WHERE} clause selects. The ids of those
 * buckets go to {@code finishTableExecute} as the split source's information, so the commit knows which fragments
 * to expect.
 */
public class TableExecuteSplitManager
        extends SplitManagerAdapter
{
    private static final long STANDARD_SPLIT_BYTES = 128L * 1024 * 1024;

    private final PaimonSplitManager reads;
    private final TableFileSystemFactory fileSystemFactory;

    @Inject
    public TableExecuteSplitManager(PaimonSplitManager reads, TableFileSystemFactory fileSystemFactory)
    {
        this.reads = requireNonNull(reads, "reads is null");
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
    }

    @Override
    public ConnectorSplitSource splitSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle, ScanDynamicFilter dynamicFilter, Constraint constraint)
    {
        PaimonTableHandle optimize = (PaimonTableHandle) tableHandle;
        if (optimize.optimizeStaging().isEmpty()) {
            return reads.splitSource(transaction, session, tableHandle, dynamicFilter, constraint);
        }
        List<OptimizeSplit> splits = optimizeSplits(session, optimize);
        return new FixedSplitSource(splits, splits.stream().<Object>map(OptimizeSplit::bucketId).toList());
    }

    private List<OptimizeSplit> optimizeSplits(ConnectorSession session, PaimonTableHandle optimize)
    {
        if (optimize.snapshotId().isEmpty() || optimize.constraint().isNone()) {
            return ImmutableList.of();
        }
        PaimonTable table = optimize.table();
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        Snapshot snapshot = PinnedSnapshot.read(fileSystem, optimize);
        FilePruning filter = FilePruning.create(table, optimize.constraint());
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location());
        DeletionVectorIndex deletionVectors = DeletionVectorIndex.of(table, scan, scan.indexFiles(snapshot, filter));
        List<OptimizeSplit> splits = new ArrayList<>();
        for (BucketFiles bucket : scan.liveFilesByBucket(snapshot, filter)) {
            List<DataFileMeta> files = bucket.files().stream().map(ManifestEntry::file).toList();
            Optional<Picked> picked = table.hasPrimaryKey()
                    ? pickPrimaryKeyBucket(table, files)
                    : pickAppendBucket(table, bucket, files, deletionVectors);
            if (picked.isEmpty()) {
                continue;
            }
            String partitionPath = table.partitionPath(bucket.partition());
            long bytes = picked.get().files().stream().mapToLong(DataFileMeta::fileSize).sum();
            splits.add(new OptimizeSplit(
                    bucket.partition().serialize(),
                    partitionPath,
                    bucket.bucket(),
                    bucket.files().getFirst().totalBuckets(),
                    BucketCompactor.dataFiles(table, bucket.partition(), bucket.bucket(), picked.get().files(), deletionVectors),
                    picked.get().outputLevel(),
                    SplitWeight.fromProportion(Math.clamp((double) bytes / STANDARD_SPLIT_BYTES, 0.01, 1.0))));
        }
        return splits;
    }

    // the files of a bucket that optimize rewrites, and the level it writes them at
    private record Picked(List<DataFileMeta> files, int outputLevel) {}

    // a full compaction: every sorted run merged into one at the highest level
    private static Optional<Picked> pickPrimaryKeyBucket(PaimonTable table, List<DataFileMeta> files)
    {
        CompactionOptions options = CompactionOptions.of(table.name().toString(), table.schema().options());
        int numLevels = UniversalCompaction.numLevels(options, files);
        return UniversalCompaction.pickFull(numLevels, UniversalCompaction.levelSortedRuns(files))
                .map(unit -> new Picked(unit.files(), unit.outputLevel()));
    }

    // Paimon's compaction procedure on an append table: a full compaction of each fixed bucket, or the batch plan of
    // each partition of a bucket-unaware table; append files stay at level 0
    private static Optional<Picked> pickAppendBucket(PaimonTable table, BucketFiles bucket, List<DataFileMeta> files, DeletionVectorIndex deletionVectors)
    {
        AppendCompactionOptions options = AppendCompactionOptions.of(table.name().toString(), table.schema().options());
        Predicate<String> hasDeletionVector = fileName -> deletionVectors.of(bucket.partition(), bucket.bucket(), fileName).isPresent();
        List<DataFileMeta> picked = table.options().bucket() == TableOptions.DYNAMIC_BUCKET
                ? AppendCompaction.pickUnaware(options, files, hasDeletionVector)
                : AppendCompaction.pickFull(options, table.options().deletionVectorsEnabled(), files, hasDeletionVector);
        return picked.isEmpty() ? Optional.empty() : Optional.of(new Picked(picked, 0));
    }

    /** The buckets a split source of {@code optimize} reported, from its information. */
    static List<String> bucketIds(List<Object> splitSourceInfo)
    {
        return splitSourceInfo.stream().map(String.class::cast).toList();
    }
}
