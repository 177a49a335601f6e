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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.TableChanges;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.manifest.BucketFiles;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.SplitWeight;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind.ADD;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The splits of a {@code table_changes} read, as Paimon's incremental scans choose files (paimon-format.md §14):
 * <ul>
 * <li>delta: for each {@code APPEND} snapshot of the range, the data files its delta manifests add;</li>
 * <li>changelog: for each snapshot of the range but {@code OVERWRITE} ones, the files of its changelog manifests;</li>
 * <li>diff: each bucket whose files differ between the two states, with both sets of files; of an append table the
 * files the end has and the start had not.</li>
 * </ul>
 * One split per bucket (and snapshot). Partition, bucket and key domains prune as for a read of the table, a
 * domain on {@code _change_version_id} prunes whole snapshots, and one on {@code _change_type} files that hold no
 * record of the wanted kinds.
 */
final class TableChangesSplits
{
    // a bucket's changes of this many bytes weigh as much as a standard split
    private static final long STANDARD_SPLIT_BYTES = 128L * 1024 * 1024;

    private TableChangesSplits() {}

    /** The snapshots a predicate on {@code _change_version_id} lets through. */
    static Domain versions(TupleDomain<PaimonColumnHandle> constraint)
    {
        return domainOf(constraint, TableChangesPageSource.CHANGE_VERSION_FIELD_ID).orElse(Domain.all(BIGINT));
    }

    private static Optional<Domain> domainOf(TupleDomain<PaimonColumnHandle> constraint, int fieldId)
    {
        return constraint.getDomains().orElseThrow().entrySet().stream()
                .filter(entry -> entry.getKey().fieldId() == fieldId)
                .map(Map.Entry::getValue)
                .findFirst();
    }

    /**
     * The kinds of change a predicate on {@code _change_type} lets through, as what a file may be left out for: a
     * file whose manifest entry counts no retraction ({@code -U}, {@code -D}) holds only additions, one whose
     * records are all retractions only those. An append table's records are all insertions.
     */
    private record WantedKinds(boolean insert, boolean updatePreimage, boolean updatePostimage, boolean delete)
    {
        static WantedKinds of(TupleDomain<PaimonColumnHandle> constraint)
        {
            Domain domain = domainOf(constraint, TableChangesPageSource.CHANGE_TYPE_FIELD_ID).orElse(Domain.all(VARCHAR));
            Slice[] names = TableChangesPageSource.KIND_NAMES;
            return new WantedKinds(
                    domain.includesNullableValue(names[KeyValueLayout.INSERT]),
                    domain.includesNullableValue(names[KeyValueLayout.UPDATE_BEFORE]),
                    domain.includesNullableValue(names[KeyValueLayout.UPDATE_AFTER]),
                    domain.includesNullableValue(names[KeyValueLayout.DELETE]));
        }

        boolean mayMatch(DataFileMeta file, boolean primaryKey)
        {
            boolean additions = insert || updatePostimage;
            if (!primaryKey) {
                return insert;
            }
            boolean retractions = updatePreimage || delete;
            long retracting = file.deleteRowCount().orElse(-1);
            if (retracting == 0) {
                return additions;
            }
            if (retracting == file.rowCount()) {
                return retractions;
            }
            return additions || retractions;
        }
    }

    static List<ConnectorSplit> plan(TrinoFileSystem fileSystem, MetadataCache metadataCache, PaimonTableHandle handle)
    {
        TableChanges changes = handle.changes().orElseThrow();
        TupleDomain<PaimonColumnHandle> constraint = handle.constraint();
        if (changes.isEmpty() || constraint.isNone()) {
            return ImmutableList.of();
        }
        Domain versions = versions(constraint);
        WantedKinds kinds = WantedKinds.of(constraint);
        PaimonTable table = handle.table();
        // as in Paimon's batch scans, tables with deletion vectors or first-row merging show no level-0 file in a
        // delta or a diff: their rows become visible once a compaction moved them up (merge-semantics §2.1)
        boolean skipLevelZero = table.hasPrimaryKey() && table.options().batchScanSkipsLevelZero();
        FilePruning filter = FilePruning.create(table, constraint.filter((column, _) -> column.fieldId() >= 0));
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location(), metadataCache);
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation(), metadataCache);
        if (changes.mode() == TableChanges.Mode.DIFF) {
            // a diff shows the end's rows as insertions and the start's it lost as deletions (none of an append table)
            if (!versions.includesNullableValue(changes.end().snapshotId()) || !(kinds.insert() || (table.hasPrimaryKey() && kinds.delete()))) {
                return ImmutableList.of();
            }
            TagFiles tags = new TagFiles(fileSystem, table.metadataLocation());
            Optional<Snapshot> start = changes.start().snapshotId() == 0 ? Optional.empty() : Optional.of(read(snapshots, tags, table, changes.start()));
            return diff(table, scan, filter, skipLevelZero, start, read(snapshots, tags, table, changes.end()));
        }
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        for (long id = changes.start().snapshotId() + 1; id <= changes.end().snapshotId(); id++) {
            if (!versions.includesNullableValue(id)) {
                continue;
            }
            Snapshot snapshot = snapshots.readSnapshot(id);
            Optional<String> manifestList;
            OptionalLong manifestListSize;
            if (changes.mode() == TableChanges.Mode.DELTA) {
                // compactions and overwrites add no records of their own to a delta
                if (snapshot.commitKind() != Snapshot.CommitKind.APPEND) {
                    continue;
                }
                manifestList = Optional.of(snapshot.deltaManifestList());
                manifestListSize = snapshot.deltaManifestListSize();
            }
            else {
                if (snapshot.commitKind() == Snapshot.CommitKind.OVERWRITE) {
                    continue;
                }
                manifestList = snapshot.changelogManifestList();
                manifestListSize = snapshot.changelogManifestListSize();
            }
            if (manifestList.isEmpty()) {
                continue;
            }
            Map<BucketOf, List<ManifestEntry>> buckets = new LinkedHashMap<>();
            for (ManifestFileMeta manifest : scan.readManifestList(manifestList.get(), manifestListSize)) {
                if (!filter.mayMatch(manifest)) {
                    continue;
                }
                scan.readManifest(manifest, filter, entry -> {
                    boolean hidden = skipLevelZero && changes.mode() == TableChanges.Mode.DELTA && entry.file().level() == 0;
                    if (entry.kind() == ADD && !hidden && kinds.mayMatch(entry.file(), table.hasPrimaryKey()) && (!table.hasPrimaryKey() || filter.mayContainKeys(entry.file()))) {
                        buckets.computeIfAbsent(new BucketOf(entry.partition(), entry.bucket()), _ -> new ArrayList<>()).add(entry);
                    }
                });
            }
            for (Map.Entry<BucketOf, List<ManifestEntry>> bucket : buckets.entrySet()) {
                String partitionPath = table.partitionPath(bucket.getKey().partition());
                // records are read as written: deletion vectors, which hide records replaced later, do not apply
                List<PaimonDataFile> files = bucket.getValue().stream()
                        .map(entry -> PaimonDataFile.of(entry.file(), table.dataFileLocation(partitionPath, entry.bucket(), entry.file()), Optional.empty()))
                        .toList();
                splits.add(split(partitionPath, bucket.getKey().bucket(), files, ImmutableList.of(), snapshot));
            }
        }
        return splits.build();
    }

    // the buckets whose merged rows may differ: those whose files, or their deletion vectors, are not the same
    private static List<ConnectorSplit> diff(PaimonTable table, SnapshotScan scan, FilePruning filter, boolean skipLevelZero, Optional<Snapshot> start, Snapshot end)
    {
        Map<BucketOf, List<PaimonDataFile>> before = start.map(snapshot -> files(table, scan, filter, skipLevelZero, snapshot)).orElse(Map.of());
        Map<BucketOf, List<PaimonDataFile>> after = files(table, scan, filter, skipLevelZero, end);
        Set<BucketOf> buckets = new LinkedHashSet<>(after.keySet());
        buckets.addAll(before.keySet());
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        for (BucketOf bucket : buckets) {
            List<PaimonDataFile> startFiles = before.getOrDefault(bucket, List.of());
            List<PaimonDataFile> endFiles = after.getOrDefault(bucket, List.of());
            if (!table.hasPrimaryKey()) {
                // as Paimon diffs an append table: the rows of the files added since the start, with their deletion vectors
                Set<String> kept = startFiles.stream().map(PaimonDataFile::path).collect(toImmutableSet());
                List<PaimonDataFile> added = endFiles.stream().filter(file -> !kept.contains(file.path())).toList();
                if (!added.isEmpty()) {
                    splits.add(split(table.partitionPath(bucket.partition()), bucket.bucket(), added, ImmutableList.of(), end));
                }
                continue;
            }
            if (identities(startFiles).equals(identities(endFiles))) {
                continue;
            }
            splits.add(split(table.partitionPath(bucket.partition()), bucket.bucket(), endFiles, startFiles, end));
        }
        return splits.build();
    }

    private static Map<BucketOf, List<PaimonDataFile>> files(PaimonTable table, SnapshotScan scan, FilePruning filter, boolean skipLevelZero, Snapshot snapshot)
    {
        DeletionVectorIndex deletionVectors = DeletionVectorIndex.of(table, scan, scan.indexFiles(snapshot, filter));
        Map<BucketOf, List<PaimonDataFile>> files = new LinkedHashMap<>();
        for (BucketFiles bucket : scan.liveFilesByBucket(snapshot, filter)) {
            String partitionPath = table.partitionPath(bucket.partition());
            files.put(new BucketOf(bucket.partition(), bucket.bucket()), bucket.files().stream()
                    .filter(entry -> !(skipLevelZero && entry.file().level() == 0))
                    .filter(entry -> !table.hasPrimaryKey() || filter.mayContainKeys(entry.file()))
                    .map(entry -> PaimonDataFile.of(entry.file(), table.dataFileLocation(partitionPath, bucket.bucket(), entry.file()), deletionVectors.of(bucket.partition(), bucket.bucket(), entry.file().fileName())))
                    .toList());
        }
        return files;
    }

    private static Set<FileIdentity> identities(List<PaimonDataFile> files)
    {
        return files.stream().map(file -> new FileIdentity(file.path(), file.deletionVector())).collect(toImmutableSet());
    }

    private static Snapshot read(SnapshotFiles snapshots, TagFiles tags, PaimonTable table, TableChanges.Version version)
    {
        if (version.tag().isPresent()) {
            return tags.readTag(version.tag().get())
                    .orElseThrow(() -> new TrinoException(PAIMON_INVALID_METADATA, "Table %s: tag '%s' was deleted while its changes were read".formatted(table.name(), version.tag().get())));
        }
        return snapshots.readSnapshot(version.snapshotId());
    }

    private static TableChangesSplit split(String partitionPath, int bucket, List<PaimonDataFile> files, List<PaimonDataFile> startFiles, Snapshot snapshot)
    {
        long bytes = 0;
        for (PaimonDataFile file : files) {
            bytes += file.fileSize();
        }
        for (PaimonDataFile file : startFiles) {
            bytes += file.fileSize();
        }
        SplitWeight weight = SplitWeight.fromProportion(Math.clamp((double) bytes / STANDARD_SPLIT_BYTES, 0.01, 1.0));
        return new TableChangesSplit(partitionPath, bucket, files, startFiles, snapshot.id(), snapshot.timeMillis(), weight);
    }

    private record BucketOf(BinaryRow partition, int bucket) {}

    private record FileIdentity(String path, Optional<PaimonDataFile.DeletionVectorReference> deletionVector) {}
}
