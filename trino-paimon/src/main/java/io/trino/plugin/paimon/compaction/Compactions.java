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

import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.BucketFiles;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.read.DeletionVectorIndex;
import io.trino.plugin.paimon.table.AppendCompactionOptions;
import io.trino.plugin.paimon.table.CompactionOptions;
import io.trino.plugin.paimon.table.MergeEngineOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.SinkCompaction;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.PaimonSessionProperties.isCompactionOnWriteEnabled;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Compaction on write, as Paimon's batch writer does it: after a statement's APPEND snapshot, each bucket it wrote
 * whose sorted runs call for it by the universal compaction rules ({@link UniversalCompaction#pick}) is compacted,
 * and the results are committed as a COMPACT snapshot right after, with the same commit user (Paimon's writer commits
 * APPEND then COMPACT in one commit call, two snapshots).
 * <p>
 * The compaction of a bucket is the same wherever it runs: in the page sink that wrote the bucket, before the commit
 * (see the last paragraph), or here, on the coordinator, once the APPEND snapshot exists, where the bucket's runs are
 * known including those a concurrent writer added.
 * <p>
 * On tables where a -D restarts its row ({@code MergeEngineSpec.deleteRestartsRow}) a
 * pick that leaves older runs out becomes a full compaction of the bucket: the partial merge Paimon's writer does
 * there would bring a deleted row's older values back under a re-inserted key.
 * <p>
 * On {@code changelog-producer} = {@code full-compaction} tables every bucket a write reached is compacted fully, with
 * the changelog of the full compaction, as Paimon's Flink writer does at the end of a batch write: the changelog
 * streaming readers of such a table read comes only from full compactions.
 * <p>
 * On fixed-bucket append tables a written bucket is compacted once it holds {@code compaction.min.file-num} small
 * files, as Paimon's append writer does ({@link AppendCompaction#pickOnWrite}); bucket-unaware append tables are not
 * compacted on write, as Paimon's batch writers do not compact them.
 * <p>
 * On deletion-vector and first-row tables, whose level-0 files Paimon's batch reads skip, and on {@code changelog-producer}
 * = {@code lookup} tables, whose changelog that compaction produces, every bucket a write reached gets a lookup
 * compaction, as Paimon's writer does ({@link LookupCompactor}): its level-0 runs move up, and the rows
 * of the levels above that they supersede are marked in deletion vectors instead of rewritten (first-row: the newer
 * record is dropped), so no level-0 file is left and the higher-level files keep their names; where the lookup does
 * not apply, the bucket is compacted whole (see there).
 * <p>
 * Where the page sinks compacted the buckets they wrote ({@link SinkCompactions}; every write but an overwrite unless
 * {@code compaction_on_workers_enabled} is off, see {@code PaimonMetadata.compactsInSinks}), the coordinator only
 * commits their results, as a COMPACT snapshot on top of the statement's; a bucket whose files a concurrent commit
 * changed between the sink's read and that snapshot is compacted here, as without them.
 */
public final class Compactions
{
    private static final Logger log = Logger.get(Compactions.class);

    private final BucketCompactor compactor;
    private final LookupCompactor lookupCompactor;

    @Inject
    public Compactions(BucketCompactor compactor, LookupCompactor lookupCompactor)
    {
        this.compactor = requireNonNull(compactor, "compactor is null");
        this.lookupCompactor = requireNonNull(lookupCompactor, "lookupCompactor is null");
    }

    /** These compactions writing files of the given names: a page sink's, named after its statement ({@link BucketCompactor#namingFiles}). */
    Compactions namingFiles(MetadataFileNames names)
    {
        return new Compactions(compactor.namingFiles(names), lookupCompactor.namingFiles(names));
    }

    /**
     * Whether writes to the table are compacted, unless the session turns compaction on write off: primary-key tables
     * and fixed-bucket append tables, not with {@code write-only}. Paimon's batch writers of bucket-unaware append
     * tables do not compact (only its streaming sinks add a compaction coordinator): such tables are compacted by
     * optimize. Neither are tables of Paimon's incremental clustering, which Paimon compacts by their clustering
     * columns into levels.
     */
    public static boolean compactsOnWrite(PaimonTable table)
    {
        String tableName = table.name().toString();
        boolean fixedBucketAppend = !table.hasPrimaryKey() && table.options().bucket() > 0
                && !AppendCompactionOptions.of(tableName, table.schema().options()).incrementalClustering();
        return (table.hasPrimaryKey() || fixedBucketAppend) && !CompactionOptions.of(tableName, table.schema().options()).writeOnly();
    }

    /**
     * Compaction on write, run once the statement's snapshot is published: its failure cannot undo the statement,
     * whose rows are committed, so the statement must not fail as if they were not (a repeated statement would write
     * them twice). Where readers see level 0 the failure is only logged, and the next write or {@code optimize}
     * compacts. On deletion-vector and first-row tables, whose readers skip level 0, the rows stay unseen until then,
     * so the statement fails, saying that its rows are committed and how to make them visible.
     */
    public void compactCommittedWrite(ConnectorSession session, TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonInsertTableHandle handle, Snapshot appended, List<ManifestEntry> written)
    {
        compactCommittedWrite(session, fileSystem, publisher, handle, appended, written, List.of());
    }

    /**
     * Compaction on write after a statement whose page sinks compacted buckets they wrote: their results are committed
     * where they still apply, and the other written buckets are compacted here.
     *
     * @param sinkCompactions the compactions the page sinks did
     */
    public void compactCommittedWrite(ConnectorSession session, TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonInsertTableHandle handle, Snapshot appended, List<ManifestEntry> written, List<SinkCompaction> sinkCompactions)
    {
        try {
            Snapshot base = appended;
            List<ManifestEntry> remaining = written;
            if (!sinkCompactions.isEmpty()) {
                SinkCompactionCommit committed = commitSinkCompactions(session, fileSystem, publisher, handle, appended, sinkCompactions);
                base = committed.snapshot().orElse(appended);
                remaining = written.stream()
                        .filter(entry -> !committed.buckets().contains(BucketKey.of(entry.partition(), entry.bucket())))
                        .toList();
            }
            compactAfterWrite(session, fileSystem, publisher, handle, base, remaining);
        }
        catch (RuntimeException e) {
            String tableName = handle.table().name().toString();
            // an append table's level-0 rows are visible, deletion vectors or not
            if (handle.table().hasPrimaryKey() && handle.table().options().batchScanSkipsLevelZero()) {
                ErrorCodeSupplier code = e instanceof TrinoException trinoException ? trinoException::getErrorCode : () -> PAIMON_INTERNAL_ERROR.toErrorCode();
                throw new TrinoException(code, ("Table %s: the statement's rows are committed (snapshot %s), but the compaction that makes them visible failed; " +
                        "do not repeat the statement, run ALTER TABLE %s EXECUTE optimize: %s").formatted(tableName, appended.id(), tableName, e.getMessage()), e);
            }
            log.warn(e, "Table %s: compaction after the write of snapshot %s failed; the statement's rows are committed, and the next write or optimize compacts", tableName, appended.id());
        }
    }

    /** The buckets whose sink compactions were committed, and the snapshot that committed them. */
    private record SinkCompactionCommit(Set<BucketKey> buckets, Optional<Snapshot> snapshot) {}

    /**
     * Commits the compactions of the page sinks whose buckets hold, in the statement's snapshot, exactly the files and
     * the deletion-vector index the sink read: another writer's files in the bucket (rebased under the statement's
     * commit) would have been left out of the sink's lookup, so the rows they supersede would stay live. The others
     * are discarded, and so are all when a commit since the statement's snapshot conflicts with them.
     */
    private SinkCompactionCommit commitSinkCompactions(ConnectorSession session, TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonInsertTableHandle handle, Snapshot appended, List<SinkCompaction> sinkCompactions)
    {
        PaimonTable table = handle.table();
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location());
        Set<BucketKey> compactedBuckets = sinkCompactions.stream()
                .map(compaction -> BucketKey.of(BinaryRow.deserialize(compaction.result().partition()), compaction.result().bucket()))
                .collect(toImmutableSet());
        Set<ByteBuffer> partitions = compactedBuckets.stream().map(BucketKey::partition).collect(toImmutableSet());
        ScanFilter compactedPartitions = new ScanFilter()
        {
            @Override
            public boolean matchesPartition(BinaryRow partition)
            {
                return partitions.contains(ByteBuffer.wrap(partition.bytes()));
            }
        };
        Map<BucketKey, Set<String>> liveFiles = new HashMap<>();
        for (BucketFiles bucket : scan.liveFilesByBucket(appended, compactedPartitions)) {
            liveFiles.put(BucketKey.of(bucket.partition(), bucket.bucket()), bucket.files().stream().map(entry -> entry.file().fileName()).collect(toImmutableSet()));
        }
        Map<BucketKey, String> vectorIndexes = new HashMap<>();
        for (IndexManifestEntry index : scan.indexFiles(appended, compactedPartitions)) {
            if (index.indexType().equals(IndexManifestEntry.DELETION_VECTORS_INDEX)) {
                vectorIndexes.put(BucketKey.of(index.partition(), index.bucket()), index.fileName());
            }
        }
        List<CompactionFragment> applicable = new ArrayList<>();
        List<CompactionFragment> stale = new ArrayList<>();
        for (SinkCompaction compaction : sinkCompactions) {
            BucketKey bucket = BucketKey.of(BinaryRow.deserialize(compaction.result().partition()), compaction.result().bucket());
            boolean unchanged = Set.copyOf(compaction.bucketFiles()).equals(liveFiles.getOrDefault(bucket, Set.of()))
                    && compaction.vectorIndexFile().equals(Optional.ofNullable(vectorIndexes.get(bucket)));
            (unchanged ? applicable : stale).add(compaction.result());
        }
        CompactionCommit commit = new CompactionCommit(fileSystem, publisher, table);
        if (!stale.isEmpty()) {
            log.debug("Table %s: %s buckets compacted by page sinks were changed by a concurrent commit, compacting them again", table.name(), stale.size());
            commit.discardUnused(stale);
        }
        try {
            Optional<Snapshot> snapshot = commit.commit(appended.id(), applicable, handle.commitIdentifier(), session.getQueryId());
            Set<BucketKey> committed = applicable.stream()
                    .map(fragment -> BucketKey.of(BinaryRow.deserialize(fragment.partition()), fragment.bucket()))
                    .collect(toImmutableSet());
            return new SinkCompactionCommit(committed, snapshot);
        }
        catch (TrinoException e) {
            if (!e.getErrorCode().equals(TRANSACTION_CONFLICT.toErrorCode())) {
                throw e;
            }
            // the commit removed the sinks' files; the buckets are compacted again from the newest snapshot
            log.debug(e, "Table %s: the compactions of page sinks conflict with a concurrent commit, compacting the buckets again", table.name());
            return new SinkCompactionCommit(Set.of(), Optional.empty());
        }
    }

    /**
     * Compacts the buckets a committed write reached, if their runs call for it.
     *
     * @param appended the statement's snapshot
     * @param written the data files the statement added
     */
    private void compactAfterWrite(ConnectorSession session, TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonInsertTableHandle handle, Snapshot appended, List<ManifestEntry> written)
    {
        PaimonTable table = handle.table();
        String tableName = table.name().toString();
        CompactionOptions options = CompactionOptions.of(tableName, table.schema().options());
        if (!compactsOnWrite(table) || !isCompactionOnWriteEnabled(session) || written.isEmpty()) {
            return;
        }
        boolean fixedBucketAppend = !table.hasPrimaryKey();
        Set<BucketKey> buckets = written.stream()
                .map(entry -> BucketKey.of(entry.partition(), entry.bucket()))
                .collect(toImmutableSet());
        // where readers skip level 0, the statement's rows are visible only once compacted: a compaction that lost a
        // race is done again from the newest snapshot (a bucket a rival compaction already took has nothing left to
        // do); elsewhere it gives way, the next write compacting
        boolean retry = table.hasPrimaryKey() && table.options().batchScanSkipsLevelZero();
        Snapshot base = appended;
        for (int attempt = 0; ; attempt++) {
            try {
                compactSnapshot(session, fileSystem, publisher, handle, options, fixedBucketAppend, base, buckets);
                return;
            }
            catch (TrinoException e) {
                if (!e.getErrorCode().equals(TRANSACTION_CONFLICT.toErrorCode())) {
                    throw e;
                }
                if (!retry || attempt >= table.options().commitRetry().maxRetries()) {
                    if (retry) {
                        throw e;
                    }
                    // the statement's data is committed; another writer compacted or replaced these files first
                    log.warn(e, "Compaction after a write to %s gave way to a concurrent commit", tableName);
                    return;
                }
                log.debug(e, "Compaction after a write to %s lost a race, compacting again from the newest snapshot", tableName);
                SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
                base = snapshots.readSnapshot(snapshots.latestSnapshotId().orElseThrow());
            }
        }
    }

    /** Compacts the written buckets of the snapshot whose runs call for it, committed on top of that snapshot. */
    private void compactSnapshot(ConnectorSession session, TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonInsertTableHandle handle, CompactionOptions options, boolean fixedBucketAppend, Snapshot appended, Set<BucketKey> buckets)
    {
        SnapshotScan scan = new SnapshotScan(fileSystem, handle.table().location());
        List<BucketFiles> liveBuckets = scan.liveFilesByBucket(appended, ScanFilter.ALL);
        PaimonTable table = withNewestSchema(fileSystem, handle.table(), appended, liveBuckets);
        List<IndexManifestEntry> indexFiles = scan.indexFiles(appended, ScanFilter.ALL);
        DeletionVectorIndex deletionVectors = DeletionVectorIndex.of(table, scan, indexFiles);
        List<IndexManifestEntry> vectorIndexes = indexFiles.stream()
                .filter(index -> index.indexType().equals(IndexManifestEntry.DELETION_VECTORS_INDEX))
                .toList();
        List<CompactionFragment> fragments = new ArrayList<>();
        try {
            if (fixedBucketAppend) {
                compactAppendBuckets(session, table, liveBuckets, buckets, deletionVectors, fragments);
            }
            else {
                compactBuckets(session, table, options, handle.overwrite(), liveBuckets, buckets, deletionVectors, vectorIndexes, fragments);
            }
        }
        catch (RuntimeException e) {
            // the buckets compacted before the failure are not committed
            new CompactionCommit(fileSystem, publisher, table).discard(fragments, e);
            throw e;
        }
        new CompactionCommit(fileSystem, publisher, table).commit(appended.id(), fragments, handle.commitIdentifier(), session.getQueryId());
    }

    /**
     * The table at the newest schema of the snapshot and its files. A schema change may land while the statement
     * writes (its files keep the schema it planned on), and a concurrent writer may then add files of the new schema
     * to the buckets the statement wrote: compacting with the statement's schema would rewrite their rows without
     * the new columns.
     */
    private static PaimonTable withNewestSchema(TrinoFileSystem fileSystem, PaimonTable table, Snapshot snapshot, List<BucketFiles> liveBuckets)
    {
        long newest = liveBuckets.stream()
                .flatMap(bucket -> bucket.files().stream())
                .mapToLong(entry -> entry.file().schemaId())
                .reduce(snapshot.schemaId(), Math::max);
        if (newest <= table.schema().id()) {
            return table;
        }
        return new PaimonTable(table.name(), table.location(), table.branch(), new SchemaFiles(fileSystem, table.metadataLocation()).readSchema(newest));
    }

    /** Compacts the written buckets that call for it, adding each compaction's fragment as it is done. */
    private void compactBuckets(
            ConnectorSession session,
            PaimonTable table,
            CompactionOptions options,
            boolean overwrite,
            List<BucketFiles> liveBuckets,
            Set<BucketKey> buckets,
            DeletionVectorIndex deletionVectors,
            List<IndexManifestEntry> vectorIndexes,
            List<CompactionFragment> fragments)
    {
        for (BucketFiles bucket : liveBuckets) {
            if (!buckets.contains(BucketKey.of(bucket.partition(), bucket.bucket()))) {
                continue;
            }
            Optional<IndexManifestEntry> vectorIndex = vectorIndexes.stream()
                    .filter(index -> index.bucket() == bucket.bucket() && Arrays.equals(index.partition().bytes(), bucket.partition().bytes()))
                    .findFirst();
            compactBucket(session, table, options, overwrite, bucket, deletionVectors, vectorIndex).ifPresent(fragments::add);
        }
    }

    /**
     * The compaction on write of one bucket of a primary-key table, given all its live files, if its runs call for
     * it: the unit of work that needs only the bucket's own files, its deletion vectors and its vector index.
     *
     * @param overwrite whether the write replaced the partition (no changelog is kept of it)
     */
    Optional<CompactionFragment> compactBucket(
            ConnectorSession session,
            PaimonTable table,
            CompactionOptions options,
            boolean overwrite,
            BucketFiles bucket,
            DeletionVectorIndex deletionVectors,
            Optional<IndexManifestEntry> vectorIndex)
    {
        TableOptions tableOptions = table.options();
        List<DataFileMeta> files = bucket.files().stream().map(ManifestEntry::file).toList();
        int totalBuckets = bucket.files().getFirst().totalBuckets();
        // lookup changelog comes from the compaction that moves level 0 up, which looks up the keys' older records
        boolean lookupChangelog = tableOptions.changelogProducer() == TableOptions.ChangelogProducer.LOOKUP;
        if (tableOptions.batchScanSkipsLevelZero() || lookupChangelog) {
            return lookupCompactor.compact(session, table, options, bucket.partition(), bucket.bucket(), totalBuckets, files, deletionVectors, vectorIndex, !overwrite);
        }
        int numLevels = UniversalCompaction.numLevels(options, files);
        List<UniversalCompaction.LevelRun> runs = UniversalCompaction.levelSortedRuns(files);
        if (tableOptions.changelogProducer() == TableOptions.ChangelogProducer.FULL_COMPACTION) {
            // streaming readers of the table learn of its changes only from the changelog of full compactions;
            // Paimon's overwrite commit drops the statement's changelog, but its writer still compacts fully
            return UniversalCompaction.pickFull(numLevels, runs).map(full -> overwrite
                    ? compact(session, table, bucket.partition(), bucket.bucket(), totalBuckets, full, deletionVectors)
                    : compactWithChangelog(session, table, bucket.partition(), bucket.bucket(), totalBuckets, files, numLevels - 1, deletionVectors));
        }
        Optional<UniversalCompaction.Unit> unit = UniversalCompaction.pick(options, numLevels, runs);
        if (MergeEngineOptions.toSpec(table.schema(), tableOptions).deleteRestartsRow() && unit.isPresent() && unit.get().runs().size() < runs.size()) {
            // merging the newer runs alone would turn "-D then +I" into a plain +I over the older row
            unit = UniversalCompaction.pickFull(numLevels, runs);
        }
        return unit.map(picked -> compact(session, table, bucket.partition(), bucket.bucket(), totalBuckets, picked, deletionVectors));
    }

    /**
     * Compacts the written buckets of a fixed-bucket append table whose files call for it, as Paimon's append writer
     * does after a flush ({@link AppendCompaction#pickOnWrite}).
     */
    private void compactAppendBuckets(ConnectorSession session, PaimonTable table, List<BucketFiles> liveBuckets, Set<BucketKey> buckets, DeletionVectorIndex deletionVectors, List<CompactionFragment> fragments)
    {
        AppendCompactionOptions options = AppendCompactionOptions.of(table.name().toString(), table.schema().options());
        for (BucketFiles bucket : liveBuckets) {
            if (buckets.contains(BucketKey.of(bucket.partition(), bucket.bucket()))) {
                compactAppendBucket(session, table, options, bucket, deletionVectors).ifPresent(fragments::add);
            }
        }
    }

    /**
     * The compaction on write of one bucket of a fixed-bucket append table, given all its live files, if they call for
     * it. A bucket whose deletion vectors mark files the compaction leaves in place is left to optimize: its vector
     * index would have to be rewritten.
     */
    Optional<CompactionFragment> compactAppendBucket(ConnectorSession session, PaimonTable table, AppendCompactionOptions options, BucketFiles bucket, DeletionVectorIndex deletionVectors)
    {
        List<DataFileMeta> files = bucket.files().stream().map(ManifestEntry::file).toList();
        List<DataFileMeta> picked = AppendCompaction.pickOnWrite(options, files);
        if (picked.isEmpty() || files.stream()
                .filter(file -> !picked.contains(file))
                .anyMatch(file -> deletionVectors.of(bucket.partition(), bucket.bucket(), file.fileName()).isPresent())) {
            return Optional.empty();
        }
        Location bucketDirectory = table.bucketLocation(bucket.partition(), bucket.bucket());
        int totalBuckets = bucket.files().getFirst().totalBuckets();
        List<DataFileMeta> output = compactor.compactAppend(session, table, bucket.partition(), bucket.bucket(), bucketDirectory, BucketCompactor.dataFiles(table, bucket.partition(), bucket.bucket(), picked, deletionVectors));
        return Optional.of(new CompactionFragment(
                bucket.partition().serialize(),
                bucket.bucket(),
                picked.stream().map(DataFileMeta::fileName).toList(),
                output.stream().map(file -> WrittenFile.of(bucket.partition(), bucket.bucket(), totalBuckets, file)).toList()));
    }

    private CompactionFragment compact(ConnectorSession session, PaimonTable table, BinaryRow partition, int bucket, int totalBuckets, UniversalCompaction.Unit unit, DeletionVectorIndex deletionVectors)
    {
        Location bucketDirectory = table.bucketLocation(partition, bucket);
        List<DataFileMeta> output = compactor.compact(session, table, bucketDirectory, BucketCompactor.dataFiles(table, partition, bucket, unit.files(), deletionVectors), unit.outputLevel(), unit.dropRetracts());
        return new CompactionFragment(
                partition.serialize(),
                bucket,
                unit.files().stream().map(DataFileMeta::fileName).toList(),
                output.stream().map(file -> WrittenFile.of(partition, bucket, totalBuckets, file)).toList());
    }

    private CompactionFragment compactWithChangelog(ConnectorSession session, PaimonTable table, BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files, int maxLevel, DeletionVectorIndex deletionVectors)
    {
        Location bucketDirectory = table.bucketLocation(partition, bucket);
        BucketCompactor.CompactionOutput output = compactor.compactWithFullChangelog(session, table, bucketDirectory, BucketCompactor.dataFiles(table, partition, bucket, files, deletionVectors), maxLevel);
        return new CompactionFragment(
                partition.serialize(),
                bucket,
                files.stream().map(DataFileMeta::fileName).toList(),
                output.dataFiles().stream().map(file -> WrittenFile.of(partition, bucket, totalBuckets, file)).toList(),
                Optional.empty(),
                output.changelogFiles().stream().map(file -> WrittenFile.of(partition, bucket, totalBuckets, file)).toList());
    }
}
