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
import com.google.common.collect.ImmutableMap;
import io.airlift.log.Logger;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.catalog.CompactionConflictCheck;
import io.trino.plugin.paimon.catalog.IndexManifestUpdate;
import io.trino.plugin.paimon.catalog.SnapshotCommitter;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.index.DeletionVectorIndexFile;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.DeletionVectorFile;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Commits compactions of buckets as one COMPACT snapshot, as Paimon's commit of compaction results does
 * (paimon-format.md §11): a DELETE entry for every file replaced, at the level it had, and an ADD entry for every file
 * written, on deletion-vector tables the removal of the compacted buckets' vectors, and the changelog files of full
 * compactions in the snapshot's changelog manifest list. A commit since the compacted
 * snapshot that removed a replaced file, or changed the vectors of a compacted bucket, fails it with
 * TRANSACTION_CONFLICT ({@link CompactionConflictCheck}); new files in the same buckets do not. Nothing compacted: no
 * snapshot. When the commit surely did not land, the written files are deleted.
 */
public final class CompactionCommit
{
    private static final Logger log = Logger.get(CompactionCommit.class);

    private final TrinoFileSystem fileSystem;
    private final SnapshotPublisher publisher;
    private final PaimonTable table;

    public CompactionCommit(TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.table = requireNonNull(table, "table is null");
    }

    /**
     * @param baseSnapshotId the snapshot whose files were compacted
     * @param commitIdentifier the commit user of the snapshot (a statement's APPEND and COMPACT snapshots share it)
     * @return the committed snapshot, if anything was compacted
     */
    public Optional<Snapshot> commit(long baseSnapshotId, List<CompactionFragment> fragments, String commitIdentifier, String queryId)
    {
        if (fragments.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(commitFragments(baseSnapshotId, fragments, commitIdentifier, queryId));
        }
        catch (RuntimeException e) {
            if (e instanceof TrinoException trinoException && !trinoException.getErrorCode().equals(PAIMON_COMMIT_STATE_UNKNOWN.toErrorCode())) {
                discard(fragments, e);
            }
            else {
                log.warn(e, "Compaction commit to %s failed with an unknown outcome; its data files are left in place", table.name());
            }
            throw e;
        }
    }

    private Snapshot commitFragments(long baseSnapshotId, List<CompactionFragment> fragments, String commitIdentifier, String queryId)
    {
        String tableName = table.name().toString();
        Location location = table.location();
        Snapshot base = new SnapshotFiles(fileSystem, table.metadataLocation()).readSnapshot(baseSnapshotId);
        Map<String, ManifestEntry> live = new HashMap<>();
        for (ManifestEntry entry : new SnapshotScan(fileSystem, location).liveFiles(base, ScanFilter.ALL)) {
            live.put(fileKey(entry.partition().bytes(), entry.bucket(), entry.file().fileName()), entry);
        }
        ImmutableList.Builder<ManifestEntry> deleted = ImmutableList.builder();
        ImmutableList.Builder<ManifestEntry> added = ImmutableList.builder();
        ImmutableList.Builder<ManifestEntry> changelog = ImmutableList.builder();
        for (CompactionFragment fragment : fragments) {
            byte[] partition = BinaryRow.deserialize(fragment.partition()).bytes();
            for (String fileName : fragment.compactedFiles()) {
                ManifestEntry entry = live.get(fileKey(partition, fragment.bucket(), fileName));
                if (entry == null) {
                    throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: compacted file %s is not live in snapshot %s".formatted(tableName, fileName, baseSnapshotId));
                }
                deleted.add(new ManifestEntry(FileKind.DELETE, entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file()));
            }
            for (WrittenFile file : fragment.writtenFiles()) {
                added.add(file.toManifestEntry());
            }
            for (WrittenFile file : fragment.changelogFiles()) {
                changelog.add(file.toManifestEntry());
            }
        }
        List<ManifestEntry> deletes = deleted.build();
        List<ManifestEntry> adds = added.build();
        List<ManifestEntry> changelogFiles = changelog.build();
        Set<String> buckets = new HashSet<>();
        for (CompactionFragment fragment : fragments) {
            buckets.add(bucketKey(BinaryRow.deserialize(fragment.partition()).bytes(), fragment.bucket()));
        }
        List<IndexManifestEntry> vectorChanges = deletionVectorChanges(base, fragments, deletes);
        Map<String, Set<String>> baseVectors = deletionVectorFiles(Optional.of(base), buckets);
        // the files a new vector marks must still be live, or the vector would point at a file gone meanwhile and the
        // rows it deletes would live on in the files that replaced it
        Set<ManifestEntry.Identifier> kept = new HashSet<>();
        deletes.forEach(entry -> kept.add(entry.identifier()));
        for (CompactionFragment fragment : fragments) {
            byte[] partition = BinaryRow.deserialize(fragment.partition()).bytes();
            for (IndexManifestEntry.DeletionVectorRange range : fragment.deletionVectors().map(DeletionVectorFile::ranges).orElse(List.of())) {
                ManifestEntry entry = live.get(fileKey(partition, fragment.bucket(), range.dataFileName()));
                if (entry == null) {
                    throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: data file %s with a deletion vector in %s is not live in snapshot %s".formatted(tableName, range.dataFileName(), fragment.deletionVectors().get().fileName(), baseSnapshotId));
                }
                kept.add(entry.identifier());
            }
        }
        CompactionConflictCheck fileCheck = new CompactionConflictCheck(fileSystem, table, OptionalLong.of(baseSnapshotId), kept);
        Consumer<Optional<Snapshot>> check = latest -> {
            fileCheck.accept(latest);
            checkDeletionVectorsUnchanged(latest, buckets, baseVectors);
        };
        SnapshotCommitter committer = new SnapshotCommitter(fileSystem, table, publisher, table.schema(), commitIdentifier, table.options().commitRetry());
        Map<String, String> properties = ImmutableMap.of(Snapshot.TRINO_COMMIT_ID_PROPERTY, commitIdentifier, Snapshot.TRINO_QUERY_ID_PROPERTY, queryId);
        List<ManifestEntry> changes = ImmutableList.<ManifestEntry>builder().addAll(deletes).addAll(adds).build();
        return committer.commit(CommitKind.COMPACT, changes, changelogFiles, IndexManifestUpdate.bucketed(vectorChanges), false, properties, check);
    }

    /**
     * The changes of the deletion-vector index: a bucket whose compaction brings a new index file (a lookup
     * compaction, which marks rows of files it leaves in place) has its entry replaced by it. Otherwise the vectors
     * of a compacted bucket belong to the files it replaced (it read them with their vectors applied), so the
     * bucket's entry goes, as Paimon drops the vectors of the files a compaction rewrites; a vector of a file such a
     * compaction leaves in place is an internal error.
     */
    private List<IndexManifestEntry> deletionVectorChanges(Snapshot base, List<CompactionFragment> fragments, List<ManifestEntry> deletes)
    {
        Set<String> compacted = new HashSet<>();
        for (ManifestEntry entry : deletes) {
            compacted.add(fileKey(entry.partition().bytes(), entry.bucket(), entry.file().fileName()));
        }
        Set<String> buckets = new HashSet<>();
        ImmutableList.Builder<IndexManifestEntry> changes = ImmutableList.builder();
        for (CompactionFragment fragment : fragments) {
            BinaryRow partition = BinaryRow.deserialize(fragment.partition());
            if (fragment.deletionVectors().isPresent()) {
                // an index file kept as it was needs no change
                if (fragment.deletionVectors().get().written()) {
                    changes.add(fragment.deletionVectors().get().toIndexManifestEntry(partition, fragment.bucket()));
                }
            }
            else {
                buckets.add(bucketKey(partition.bytes(), fragment.bucket()));
            }
        }
        for (IndexManifestEntry index : deletionVectorEntries(Optional.of(base))) {
            if (!buckets.contains(bucketKey(index.partition().bytes(), index.bucket()))) {
                continue;
            }
            for (IndexManifestEntry.DeletionVectorRange range : index.deletionVectorRanges().orElse(List.of())) {
                if (!compacted.contains(fileKey(index.partition().bytes(), index.bucket(), range.dataFileName()))) {
                    throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: a compaction of bucket %s leaves data file %s with its deletion vector in %s in place".formatted(table.name(), index.bucket(), range.dataFileName(), index.fileName()));
                }
            }
            changes.add(new IndexManifestEntry(FileKind.DELETE, index.partition(), index.bucket(), index.indexType(), index.fileName(), index.fileSize(), index.rowCount(), index.deletionVectorRanges(), index.externalPath()));
        }
        return changes.build();
    }

    /**
     * A commit since the compacted snapshot that gave a compacted bucket other deletion vectors deleted rows the
     * compaction copied: the compaction gives way, as Paimon's commit checks deletion-vector index conflicts.
     */
    private void checkDeletionVectorsUnchanged(Optional<Snapshot> latest, Set<String> buckets, Map<String, Set<String>> baseVectors)
    {
        if (!table.options().deletionVectorsEnabled() && baseVectors.isEmpty()) {
            return;
        }
        Map<String, Set<String>> current = deletionVectorFiles(latest, buckets);
        if (!current.equals(baseVectors)) {
            throw new TrinoException(TRANSACTION_CONFLICT, "Compaction of Paimon table %s conflicts with a concurrent commit: the deletion vector index files of the compacted buckets changed from %s to %s; run it again".formatted(table.name(), baseVectors.values(), current.values()));
        }
    }

    /**
     * The deletion-vector index files of each of the given buckets that has any: one per bucket of a fixed-bucket
     * table, but possibly several per partition of a bucket-unaware one, where a new delete starts another file.
     */
    private Map<String, Set<String>> deletionVectorFiles(Optional<Snapshot> snapshot, Set<String> buckets)
    {
        Map<String, Set<String>> files = new HashMap<>();
        for (IndexManifestEntry index : deletionVectorEntries(snapshot)) {
            String bucket = bucketKey(index.partition().bytes(), index.bucket());
            if (buckets.contains(bucket)) {
                files.computeIfAbsent(bucket, _ -> new TreeSet<>()).add(index.fileName());
            }
        }
        return files;
    }

    private List<IndexManifestEntry> deletionVectorEntries(Optional<Snapshot> snapshot)
    {
        if (snapshot.isEmpty()) {
            return List.of();
        }
        return new SnapshotScan(fileSystem, table.location()).indexFiles(snapshot.get(), ScanFilter.ALL).stream()
                .filter(index -> index.indexType().equals(IndexManifestEntry.DELETION_VECTORS_INDEX))
                .toList();
    }

    /**
     * Deletes what compactions wrote that will not be committed: their data and changelog files and the deletion
     * vector index files they wrote; failures to delete are added to the failure that made them unwanted.
     */
    public void discard(List<CompactionFragment> fragments, RuntimeException failure)
    {
        for (CompactionFragment fragment : fragments) {
            for (WrittenFile written : fragment.allWrittenFiles()) {
                ManifestEntry entry = written.toManifestEntry();
                delete(table.bucketLocation(entry.partition(), entry.bucket()).appendPath(entry.file().fileName()), failure);
            }
            if (fragment.deletionVectors().isPresent() && fragment.deletionVectors().get().written()) {
                delete(DeletionVectorIndexFile.location(table.location(), fragment.deletionVectors().get().fileName()), failure);
            }
        }
    }

    /**
     * Deletes what compactions wrote that were not committed and need not be: a file left behind is only an orphan,
     * so a failure to delete is logged.
     */
    public void discardUnused(List<CompactionFragment> fragments)
    {
        TrinoException failure = new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete unused compaction output of table " + table.name());
        discard(fragments, failure);
        if (failure.getSuppressed().length > 0) {
            log.warn(failure, "Table %s: files of unused compactions are left behind as orphan files", table.name());
        }
    }

    private void delete(Location file, RuntimeException failure)
    {
        try {
            fileSystem.deleteFile(file);
        }
        catch (IOException e) {
            failure.addSuppressed(new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete compaction output " + file, e));
        }
    }

    private static String fileKey(byte[] partition, int bucket, String fileName)
    {
        return bucketKey(partition, bucket) + "/" + fileName;
    }

    private static String bucketKey(byte[] partition, int bucket)
    {
        return HexFormat.of().formatHex(partition) + "/" + bucket;
    }
}
