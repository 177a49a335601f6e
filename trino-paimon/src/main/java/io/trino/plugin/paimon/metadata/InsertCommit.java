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
package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.airlift.log.Logger;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.catalog.BucketConflictCheck;
import io.trino.plugin.paimon.catalog.BucketConflictCheck.Bucket;
import io.trino.plugin.paimon.catalog.HashIndexConflictCheck;
import io.trino.plugin.paimon.catalog.HashIndexConflictCheck.IndexFile;
import io.trino.plugin.paimon.catalog.IndexManifestUpdate;
import io.trino.plugin.paimon.catalog.SnapshotCommitter;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.index.HashIndexFile;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.stats.WrittenStatistics;
import io.trino.plugin.paimon.read.KeyLookup;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Commits the files of an INSERT as one APPEND snapshot (paimon-format.md §11.2), or, for an overwrite, as one
 * OVERWRITE snapshot that also deletes every live file of the partitions written, as Paimon's overwrite commit does. The snapshot carries the
 * statement's commit identifier in its properties; when the commit fails, the snapshots committed since the base
 * are searched for it first (the publish may have landed although it reported a failure). When the commit surely
 * did not land the written data files are deleted; when its outcome is unknown they are left in place, since
 * deleting them could break a snapshot that did land.
 */
final class InsertCommit
{
    private static final Logger log = Logger.get(InsertCommit.class);

    private final TrinoFileSystem fileSystem;
    private final SnapshotPublisher publisher;
    private final PaimonInsertTableHandle handle;
    private final TableSchema schema;
    private final TableOptions options;
    private final KeyLookup keyLookup;

    /**
     * @param keyLookup reads the keys of written files, to tell whether a rival commit to a written bucket wrote one of ours
     */
    InsertCommit(TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonInsertTableHandle handle, KeyLookup keyLookup)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.handle = requireNonNull(handle, "handle is null");
        this.schema = handle.table().schema();
        this.options = handle.table().options();
        this.keyLookup = requireNonNull(keyLookup, "keyLookup is null");
    }

    /**
     * @param indexFiles the new key index files of a dynamic-bucket table, one per bucket whose keys changed
     */
    Optional<Snapshot> commit(List<ManifestEntry> files, List<IndexManifestEntry> indexFiles, String queryId)
    {
        return commit(files, List.of(), indexFiles, queryId, Optional.empty());
    }

    /**
     * @param changelogFiles the changelog files written beside the data files ({@code changelog-producer} = {@code input}),
     * recorded in the snapshot's changelog manifest list
     * @param statistics what the statement computed over the rows it wrote, for the snapshot to describe them (not
     * for an overwrite, whose replaced rows no statistics subtract)
     * @return the snapshot committed, none when there was nothing to commit
     */
    Optional<Snapshot> commit(List<ManifestEntry> files, List<ManifestEntry> changelogFiles, List<IndexManifestEntry> indexFiles, String queryId, Optional<WrittenStatistics> statistics)
    {
        Location location = handle.table().location();
        String tableName = handle.schemaTableName().toString();
        List<ManifestEntry> replaced = handle.overwrite() ? replacedFiles(files) : List.of();
        if (files.isEmpty() && replaced.isEmpty()) {
            // Paimon's batch writers skip empty commits too
            return Optional.empty();
        }
        Consumer<Optional<Snapshot>> check = _ -> {};
        if (handle.overwrite()) {
            Set<ByteBuffer> partitions = schema.partitionKeys().isEmpty() ? Set.of() : files.stream()
                    .map(entry -> ByteBuffer.wrap(entry.partition().bytes()))
                    .collect(toImmutableSet());
            check = BucketConflictCheck.ofPartitions(fileSystem, handle.table(), handle.baseSnapshotId(), partitions);
        }
        else if (!schema.primaryKeys().isEmpty()) {
            Set<Bucket> buckets = files.stream()
                    .map(entry -> new Bucket(ByteBuffer.wrap(entry.partition().bytes()), entry.bucket()))
                    .collect(toImmutableSet());
            check = new BucketConflictCheck(fileSystem, handle.table(), handle.baseSnapshotId(), buckets, Optional.of(new WrittenKeys(handle.table(), keyLookup, files)));
        }
        if (handle.dynamicBuckets().isPresent()) {
            Set<ByteBuffer> partitions = files.stream().map(entry -> ByteBuffer.wrap(entry.partition().bytes())).collect(toImmutableSet());
            // the key index the statement's assigners started from: that of its base snapshot
            Set<IndexFile> readIndex = handle.baseSnapshotId().isEmpty() ? Set.of() : new SnapshotScan(fileSystem, location)
                    .indexFiles(new SnapshotFiles(fileSystem, handle.table().metadataLocation()).readSnapshot(handle.baseSnapshotId().getAsLong()), ScanFilter.ALL).stream()
                    .filter(index -> index.indexType().equals(IndexManifestEntry.HASH_INDEX))
                    .map(index -> new IndexFile(ByteBuffer.wrap(index.partition().bytes()), index.bucket(), index.fileName()))
                    .collect(toImmutableSet());
            check = check.andThen(new HashIndexConflictCheck(fileSystem, location, tableName, partitions, readIndex));
        }
        SnapshotCommitter committer = new SnapshotCommitter(fileSystem, handle.table(), publisher, schema, handle.commitIdentifier(), options.commitRetry());
        Map<String, String> properties = ImmutableMap.of(Snapshot.TRINO_COMMIT_ID_PROPERTY, handle.commitIdentifier(), Snapshot.TRINO_QUERY_ID_PROPERTY, queryId);
        try {
            List<ManifestEntry> changes = ImmutableList.<ManifestEntry>builder().addAll(replaced).addAll(files).build();
            if (statistics.isPresent() && !handle.overwrite()) {
                return Optional.of(committer.commit(CommitKind.APPEND, changes, changelogFiles, IndexManifestUpdate.bucketed(indexFiles), properties, check, statistics.get()));
            }
            return Optional.of(committer.commit(handle.overwrite() ? CommitKind.OVERWRITE : CommitKind.APPEND, changes, changelogFiles, IndexManifestUpdate.bucketed(indexFiles), false, properties, check));
        }
        catch (RuntimeException e) {
            Optional<Snapshot> own = ownSnapshot(handle.table().metadataLocation());
            if (own.isPresent()) {
                log.warn(e, "Commit to %s reported a failure, but its snapshot was published", tableName);
                return own;
            }
            if (surelyNotPublished(e)) {
                deleteDataFiles(location, files, e);
                deleteDataFiles(location, changelogFiles, e);
                deleteIndexFiles(location, indexFiles, e);
            }
            else {
                log.warn(e, "Commit to %s failed with an unknown outcome; its data files are left in place", tableName);
            }
            throw e;
        }
    }

    /**
     * The live files of the base snapshot that an overwrite removes, as DELETE entries: those of the partitions written,
     * or every file of an unpartitioned table (which an overwrite without rows empties). The committer refuses the
     * commit when any of them is no longer live, so a concurrent change of those partitions fails the statement.
     */
    private List<ManifestEntry> replacedFiles(List<ManifestEntry> files)
    {
        if (handle.baseSnapshotId().isEmpty()) {
            return List.of();
        }
        boolean partitioned = !schema.partitionKeys().isEmpty();
        Set<ByteBuffer> partitions = files.stream()
                .map(entry -> ByteBuffer.wrap(entry.partition().bytes()))
                .collect(toImmutableSet());
        if (partitioned && partitions.isEmpty()) {
            return List.of();
        }
        Location location = handle.table().location();
        Snapshot base = new SnapshotFiles(fileSystem, handle.table().metadataLocation()).readSnapshot(handle.baseSnapshotId().getAsLong());
        return new SnapshotScan(fileSystem, location).liveFiles(base, ScanFilter.ALL).stream()
                .filter(entry -> !partitioned || partitions.contains(ByteBuffer.wrap(entry.partition().bytes())))
                .map(entry -> new ManifestEntry(FileKind.DELETE, entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file()))
                .collect(toImmutableList());
    }

    // the committer reports every failure after which its snapshot may have landed as PAIMON_COMMIT_STATE_UNKNOWN;
    // anything else was thrown before the publish, by a publish that surely failed, or after its id was taken
    private static boolean surelyNotPublished(RuntimeException e)
    {
        return e instanceof TrinoException trinoException
                && !trinoException.getErrorCode().equals(PAIMON_COMMIT_STATE_UNKNOWN.toErrorCode());
    }

    // the snapshot this commit published, if any, looked for in the snapshots of the table's branch
    private Optional<Snapshot> ownSnapshot(Location metadataLocation)
    {
        try {
            SnapshotFiles snapshots = new SnapshotFiles(fileSystem, metadataLocation);
            long latest = snapshots.latestSnapshotId().orElse(0);
            for (long id = handle.baseSnapshotId().orElse(0) + 1; id <= latest; id++) {
                if (!snapshots.snapshotExists(id)) {
                    continue;
                }
                Snapshot snapshot = snapshots.readSnapshot(id);
                if (snapshot.properties().map(properties -> handle.commitIdentifier().equals(properties.get(Snapshot.TRINO_COMMIT_ID_PROPERTY))).orElse(false)) {
                    return Optional.of(snapshot);
                }
            }
            return Optional.empty();
        }
        catch (RuntimeException e) {
            // cannot tell: treat as not found, and the caller keeps the files unless the failure was certain
            log.warn(e, "Could not look for the snapshot of commit %s in %s", handle.commitIdentifier(), metadataLocation);
            return Optional.empty();
        }
    }

    private void deleteIndexFiles(Location location, List<IndexManifestEntry> indexFiles, RuntimeException failure)
    {
        for (IndexManifestEntry entry : indexFiles) {
            Location file = HashIndexFile.location(location, entry.fileName());
            try {
                fileSystem.deleteFile(file);
            }
            catch (IOException e) {
                failure.addSuppressed(new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete index file " + file, e));
            }
        }
    }

    private void deleteDataFiles(Location location, List<ManifestEntry> files, RuntimeException failure)
    {
        List<DataField> partitionFields = schema.partitionKeys().stream().map(name -> schema.field(name).orElseThrow()).collect(toImmutableList());
        for (ManifestEntry entry : files) {
            String partitionPath = PartitionPath.partitionPath(partitionFields, entry.partition(), options.partitionLegacyName(), options.partitionDefaultName());
            Location file = location.appendPath(options.bucketPath(partitionPath, entry.bucket())).appendPath(entry.file().fileName());
            try {
                fileSystem.deleteFile(file);
            }
            catch (IOException e) {
                failure.addSuppressed(new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete data file " + file, e));
            }
        }
    }
}
