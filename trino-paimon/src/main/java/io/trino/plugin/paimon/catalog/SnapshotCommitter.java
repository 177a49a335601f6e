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
import io.airlift.log.Logger;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestWriter;
import io.trino.plugin.paimon.format.manifest.ManifestWriter.WrittenFile;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.stats.StatisticsFiles;
import io.trino.plugin.paimon.format.stats.WrittenStatistics;
import io.trino.plugin.paimon.maintenance.AutomaticTags;
import io.trino.plugin.paimon.maintenance.PartitionExpiration;
import io.trino.plugin.paimon.maintenance.SnapshotExpiry;
import io.trino.plugin.paimon.table.CommitRetry;
import io.trino.plugin.paimon.table.ManifestOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.SnapshotRetention;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.format.snapshot.Snapshot.BATCH_COMMIT_IDENTIFIER;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.durationOption;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Commits changes to a table's file set as a new snapshot, the way Paimon's writers do (paimon-format.md §11): the
 * changes go into a delta manifest written once; per attempt, a base manifest list (the previous snapshot's
 * manifests, or one rewritten manifest when compacting), a delta list and the snapshot file, which is created only
 * if its id is still free. When another writer took the id, this attempt's lists are removed and the commit is
 * retried on top of the new latest snapshot, as the table's {@link CommitRetry} allows; deletions of files that are
 * no longer live fail the commit. Each attempt holds the publisher's commit lock, when it has one, from reading the
 * latest snapshot to publishing the next, so the commits that share it queue rather than race.
 */
public final class SnapshotCommitter
{
    private static final Logger log = Logger.get(SnapshotCommitter.class);

    private final TrinoFileSystem fileSystem;
    private final Location tableLocation;
    // where the snapshots and schemas are: the table's folder, or its branch's (data and manifests stay in the table's)
    private final Location metadataLocation;
    private final SchemaTableName tableName;
    private final Optional<String> branch;
    private final SnapshotPublisher publisher;
    private final TableSchema schema;
    private final String commitUser;
    private final CommitRetry retry;
    private final SnapshotFiles snapshots;
    private final SnapshotScan scan;
    private final ManifestWriter manifestWriter;
    private final SchemaFiles schemaFiles;
    private final StatisticsFiles statisticsFiles;
    private final PaimonTable table;
    // Paimon maintains the table after a commit unless the table is write-only or the commit is itself maintenance
    private final boolean maintains;
    private final ManifestMerge manifestMerge;
    private final AddedFileCheck addedFileCheck;

    /**
     * A committer to the main branch of the table at the location that publishes by creating {@code snapshot-<id>} in
     * the table's folder, as a folder catalog does.
     */
    public SnapshotCommitter(TrinoFileSystem fileSystem, Location tableLocation, TableSchema schema, String commitUser, CommitRetry retry)
    {
        this(fileSystem, tableLocation, new SnapshotFiles(fileSystem, tableLocation)::commit, schema, commitUser, retry);
    }

    /** A committer to the main branch of the table at the location. */
    public SnapshotCommitter(TrinoFileSystem fileSystem, Location tableLocation, SnapshotPublisher publisher, TableSchema schema, String commitUser, CommitRetry retry)
    {
        this(fileSystem, new PaimonTable(tableName(tableLocation), tableLocation, schema), publisher, schema, commitUser, retry);
    }

    /** A committer to the table's branch: the main branch, or the branch the table was loaded on. */
    public SnapshotCommitter(TrinoFileSystem fileSystem, PaimonTable table, SnapshotPublisher publisher, TableSchema schema, String commitUser, CommitRetry retry)
    {
        this(fileSystem, table, publisher, schema, commitUser, retry, true);
    }

    private SnapshotCommitter(TrinoFileSystem fileSystem, PaimonTable table, SnapshotPublisher publisher, TableSchema schema, String commitUser, CommitRetry retry, boolean maintains)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.tableLocation = table.location();
        this.metadataLocation = table.metadataLocation();
        this.tableName = table.name();
        this.branch = table.branch();
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.commitUser = requireNonNull(commitUser, "commitUser is null");
        this.retry = requireNonNull(retry, "retry is null");
        this.snapshots = new SnapshotFiles(fileSystem, metadataLocation);
        this.scan = new SnapshotScan(fileSystem, tableLocation);
        this.manifestWriter = new ManifestWriter(fileSystem, tableLocation, new MetadataFileNames());
        this.schemaFiles = new SchemaFiles(fileSystem, metadataLocation);
        this.statisticsFiles = new StatisticsFiles(fileSystem, tableLocation);
        this.maintains = maintains && !booleanOption(tableName.toString(), schema.options(), "write-only", false);
        this.addedFileCheck = new AddedFileCheck(tableName.toString(), schema);
        this.manifestMerge = new ManifestMerge(scan, manifestWriter, ManifestOptions.of(tableName.toString(), schema.options()), partitionTypes(), schema.id());
    }

    /** This committer without the maintenance after each commit, for commits that are themselves maintenance. */
    public SnapshotCommitter withoutMaintenance()
    {
        return new SnapshotCommitter(fileSystem, table, publisher, schema, commitUser, retry, false);
    }

    /**
     * @param changes files added and deleted by this commit
     * @param indexFiles the table's complete index state after this commit, or empty when the commit does not touch it
     * @param compactManifests rewrite all live files of the base into one manifest (Paimon's manifest full compaction)
     * @return the committed snapshot
     * @throws TrinoException {@code PAIMON_COMMIT_STATE_UNKNOWN} when the snapshot may have been published; any
     * other failure means it was not
     */
    public Snapshot commit(CommitKind kind, List<ManifestEntry> changes, Optional<List<IndexManifestEntry>> indexFiles, boolean compactManifests)
    {
        return commit(kind, changes, indexFiles, compactManifests, Map.of(), _ -> {});
    }

    /**
     * @param properties recorded in the snapshot, e.g. a marker by which the writer recognises its own commit
     * @param check called with the latest snapshot before each attempt; throws to give the commit up
     */
    public Snapshot commit(CommitKind kind, List<ManifestEntry> changes, Optional<List<IndexManifestEntry>> indexFiles, boolean compactManifests, Map<String, String> properties, Consumer<Optional<Snapshot>> check)
    {
        IndexManifestUpdate update = indexFiles.map(IndexManifestUpdate::replaceAll).orElse(IndexManifestUpdate.NONE);
        return commit(kind, changes, update, compactManifests, properties, check);
    }

    /**
     * @param indexUpdate the change to the index manifest, applied to the index state of the snapshot each attempt lands on
     */
    public Snapshot commit(CommitKind kind, List<ManifestEntry> changes, IndexManifestUpdate indexUpdate, boolean compactManifests, Map<String, String> properties, Consumer<Optional<Snapshot>> check)
    {
        return commit(kind, changes, List.of(), indexUpdate, compactManifests, properties, check);
    }

    /**
     * @param changelog changelog files added with this commit: written to a changelog manifest and listed in the
     * snapshot's changelog manifest list, with their row count as its changelog record count (none: no list)
     */
    public Snapshot commit(CommitKind kind, List<ManifestEntry> changes, List<ManifestEntry> changelog, IndexManifestUpdate indexUpdate, boolean compactManifests, Map<String, String> properties, Consumer<Optional<Snapshot>> check)
    {
        return commit(kind, changes, changelog, indexUpdate, compactManifests, properties, check, Optional.empty(), Optional.empty());
    }

    /**
     * A write's commit that also describes the rows it added: the snapshot names a statistics file of them, alone or
     * merged into what it would inherit, as {@link WrittenStatistics#describe} decides for the snapshot each attempt
     * lands on.
     */
    public Snapshot commit(CommitKind kind, List<ManifestEntry> changes, List<ManifestEntry> changelog, IndexManifestUpdate indexUpdate, Map<String, String> properties, Consumer<Optional<Snapshot>> check, WrittenStatistics statistics)
    {
        return commit(kind, changes, changelog, indexUpdate, false, properties, check, Optional.empty(), Optional.of(statistics));
    }

    /**
     * Commits an {@code ANALYZE} snapshot: the latest snapshot's files unchanged, naming a statistics file that was
     * written before. Later commits carry the file forward while the table's schema stays the one it was computed on.
     */
    public Snapshot commitStatistics(String statisticsFile)
    {
        return commit(CommitKind.ANALYZE, List.of(), List.of(), IndexManifestUpdate.NONE, false, Map.of(), _ -> {}, Optional.of(statisticsFile), Optional.empty());
    }

    private Snapshot commit(CommitKind kind, List<ManifestEntry> changes, List<ManifestEntry> changelog, IndexManifestUpdate indexUpdate, boolean compactManifests, Map<String, String> properties, Consumer<Optional<Snapshot>> check, Optional<String> newStatistics, Optional<WrittenStatistics> writtenStatistics)
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(changelog, "changelog is null");
        requireNonNull(indexUpdate, "indexUpdate is null");
        requireNonNull(properties, "properties is null");
        requireNonNull(check, "check is null");
        addedFileCheck.check(changes);
        addedFileCheck.check(changelog);
        // the manifests and lists of this commit, removed again when it fails before its snapshot may have landed
        List<String> written = new ArrayList<>();
        // the statistics files of this commit's attempts, likewise
        List<String> writtenStatisticsFiles = new ArrayList<>();
        try {
            return commitAttempts(kind, changes, changelog, indexUpdate, compactManifests, properties, check, newStatistics, writtenStatistics, written, writtenStatisticsFiles);
        }
        catch (RuntimeException e) {
            if (!(e instanceof TrinoException trinoException && trinoException.getErrorCode().equals(PAIMON_COMMIT_STATE_UNKNOWN.toErrorCode()))) {
                for (String name : written) {
                    try {
                        manifestWriter.delete(name);
                    }
                    catch (RuntimeException deleteFailure) {
                        e.addSuppressed(deleteFailure);
                    }
                }
                writtenStatisticsFiles.forEach(statisticsFiles::delete);
            }
            throw e;
        }
    }

    private Snapshot commitAttempts(CommitKind kind, List<ManifestEntry> changes, List<ManifestEntry> changelog, IndexManifestUpdate indexUpdate, boolean compactManifests, Map<String, String> properties, Consumer<Optional<Snapshot>> check, Optional<String> newStatistics, Optional<WrittenStatistics> writtenStatistics, List<String> written, List<String> writtenStatisticsFiles)
    {
        List<DataType> partitionTypes = partitionTypes();
        Optional<ManifestFileMeta> deltaManifest = changes.isEmpty()
                ? Optional.empty()
                : Optional.of(manifestWriter.writeManifest(changes, partitionTypes, schema.id()));
        deltaManifest.ifPresent(manifest -> written.add(manifest.fileName()));
        Optional<ManifestFileMeta> changelogManifest = changelog.isEmpty()
                ? Optional.empty()
                : Optional.of(manifestWriter.writeManifest(changelog, partitionTypes, schema.id()));
        changelogManifest.ifPresent(manifest -> written.add(manifest.fileName()));

        long start = System.nanoTime();
        for (int attempt = 0; ; attempt++) {
            // also listed in written, as soon as each is written
            List<String> attemptFiles = new ArrayList<>();
            Optional<String> attemptStatistics = Optional.empty();
            Optional<Lock> lock = publisher.commitLock();
            lock(lock);
            Snapshot snapshot;
            boolean published;
            try {
                Optional<Snapshot> latest = snapshots.latestSnapshot();
                check.accept(latest);
                checkDeletedFilesAreLive(latest, changes);

                List<ManifestFileMeta> baseManifests = new ArrayList<>();
                long previousTotal = 0;
                if (latest.isPresent()) {
                    previousTotal = latest.get().totalRecordCount().orElseGet(() -> liveRowCount(latest.get()));
                    if (compactManifests) {
                        List<ManifestEntry> live = scan.liveFiles(latest.get(), ScanFilter.ALL);
                        if (!live.isEmpty()) {
                            ManifestFileMeta rewritten = manifestWriter.writeManifest(live, partitionTypes, schema.id());
                            attemptFiles.add(rewritten.fileName());
                            written.add(rewritten.fileName());
                            baseManifests.add(rewritten);
                        }
                    }
                    else {
                        baseManifests.addAll(manifestMerge.merge(scan.manifests(latest.get()), name -> {
                            attemptFiles.add(name);
                            written.add(name);
                        }));
                    }
                }
                WrittenFile baseList = manifestWriter.writeManifestList(baseManifests);
                attemptFiles.add(baseList.name());
                written.add(baseList.name());
                WrittenFile deltaList = manifestWriter.writeManifestList(deltaManifest.map(List::of).orElse(List.of()));
                attemptFiles.add(deltaList.name());
                written.add(deltaList.name());
                Optional<WrittenFile> changelogList = changelogManifest.map(manifest -> manifestWriter.writeManifestList(List.of(manifest)));
                changelogList.ifPresent(list -> {
                    attemptFiles.add(list.name());
                    written.add(list.name());
                });
                Optional<String> indexManifest = latest.flatMap(Snapshot::indexManifest);
                List<IndexManifestEntry> previousIndex = indexUpdate.readsPrevious() && indexManifest.isPresent()
                        ? scan.readIndexManifest(indexManifest.get())
                        : List.of();
                Optional<List<IndexManifestEntry>> indexFiles;
                try {
                    indexFiles = indexUpdate.apply(previousIndex);
                }
                catch (TrinoException e) {
                    if (!e.getErrorCode().equals(NOT_SUPPORTED.toErrorCode())) {
                        throw e;
                    }
                    throw new TrinoException(NOT_SUPPORTED, "Table %s: %s".formatted(tableName, e.getMessage()), e);
                }
                if (indexFiles.isPresent()) {
                    WrittenFile indexList = manifestWriter.writeIndexManifest(indexFiles.get());
                    attemptFiles.add(indexList.name());
                    written.add(indexList.name());
                    indexManifest = Optional.of(indexList.name());
                }

                // as Paimon's commit: the snapshot names the table's latest schema, which may be newer than the one this
                // writer wrote its files with (each file names its own)
                long schemaId = Math.max(schema.id(), schemaFiles.listSchemaIds().stream().mapToLong(Long::longValue).max().orElse(schema.id()));
                long deltaRecords = changes.stream()
                        .mapToLong(entry -> entry.kind() == FileKind.ADD ? entry.file().rowCount() : -entry.file().rowCount())
                        .sum();
                long snapshotId = latest.map(previous -> previous.id() + 1).orElse(1L);
                Optional<String> statistics = newStatistics.or(() -> inheritedStatistics(latest, schemaId));
                if (writtenStatistics.isPresent()) {
                    long addedBytes = changes.stream()
                            .filter(entry -> entry.kind() == FileKind.ADD)
                            .mapToLong(entry -> entry.file().fileSize())
                            .sum();
                    Optional<String> described = writtenStatistics.get()
                            .describe(snapshotId, schemaId, previousTotal == 0, statistics.map(statisticsFiles::read), addedBytes)
                            .map(statisticsFiles::write);
                    if (described.isPresent()) {
                        attemptStatistics = described;
                        writtenStatisticsFiles.add(described.get());
                        statistics = described;
                    }
                }
                snapshot = new Snapshot(
                        Snapshot.CURRENT_VERSION,
                        // Paimon 2.0 names every snapshot by a random uuid: after a snapshot that has one, ours gets its own
                        latest.flatMap(Snapshot::uuid).map(_ -> UUID.randomUUID().toString()),
                        snapshotId,
                        schemaId,
                        baseList.name(),
                        OptionalLong.of(baseList.size()),
                        deltaList.name(),
                        OptionalLong.of(deltaList.size()),
                        changelogList.map(WrittenFile::name),
                        changelogList.map(list -> OptionalLong.of(list.size())).orElse(OptionalLong.empty()),
                        indexManifest,
                        commitUser,
                        BATCH_COMMIT_IDENTIFIER,
                        kind,
                        System.currentTimeMillis(),
                        latest.flatMap(Snapshot::logOffsets),
                        OptionalLong.of(previousTotal + deltaRecords),
                        OptionalLong.of(deltaRecords),
                        changelog.isEmpty() ? OptionalLong.empty() : OptionalLong.of(changelog.stream().mapToLong(entry -> entry.file().rowCount()).sum()),
                        latest.map(Snapshot::watermark).orElse(OptionalLong.empty()),
                        statistics,
                        properties.isEmpty() ? Optional.empty() : Optional.of(properties),
                        OptionalLong.of(latest.map(previous -> previous.nextRowId().orElse(0)).orElse(0L)),
                        // writerVersion and operation describe the commit that wrote them, not this one
                        ImmutableMap.of());

                published = publisher.publish(snapshot);
            }
            finally {
                lock.ifPresent(Lock::unlock);
            }
            if (published) {
                if (maintains) {
                    maintainAfterCommit();
                }
                return snapshot;
            }
            // another writer committed this id first: drop this attempt's lists and try on top of its snapshot
            attemptFiles.forEach(manifestWriter::delete);
            written.removeAll(attemptFiles);
            attemptStatistics.ifPresent(name -> {
                statisticsFiles.delete(name);
                writtenStatisticsFiles.remove(name);
            });
            Optional<String> exhausted = retry.exhausted(attempt, Duration.ofNanos(System.nanoTime() - start));
            if (exhausted.isPresent()) {
                throw new TrinoException(TRANSACTION_CONFLICT, "Commit to Paimon table %s failed: snapshot %s was taken by another writer, %s attempts made (%s)".formatted(metadataLocation, snapshot.id(), attempt + 1, exhausted.get()));
            }
            log.debug("Snapshot %s of %s was committed by another writer, retrying", snapshot.id(), metadataLocation);
            sleep(retry.waitBefore(attempt));
        }
    }

    // as Paimon's commit: the previous snapshot's statistics carry forward while they describe the latest schema
    private Optional<String> inheritedStatistics(Optional<Snapshot> latest, long schemaId)
    {
        Optional<String> previous = latest.flatMap(Snapshot::statistics);
        if (previous.isEmpty() || statisticsFiles.read(previous.get()).schemaId() != schemaId) {
            return Optional.empty();
        }
        return previous;
    }

    /**
     * Maintains the table after a commit, as Paimon's writers do: the automatic tags first (created and expired as the
     * table's {@code tag.*} options say), then the snapshots' expiry. The commit has landed: a failure here is logged
     * and leaves at most tags for the next commit to create and files for the next expiry or orphan removal.
     */
    private void maintainAfterCommit()
    {
        if (branch.isPresent()) {
            // a branch's snapshots share data files with the main branch's and the other branches', which an expiry
            // of one branch does not look at: expire_snapshots of main removes what no version needs any more
            return;
        }
        PaimonTable committed = new PaimonTable(tableName, tableLocation, schema);
        try {
            new AutomaticTags(fileSystem, committed).run();
        }
        catch (RuntimeException e) {
            log.warn(e, "Creating or expiring the automatic tags of %s after a commit failed; the commit stands", tableLocation);
        }
        try {
            expirePartitions(committed);
        }
        catch (RuntimeException e) {
            log.warn(e, "Expiring partitions of %s after a commit failed; the commit stands", tableLocation);
        }
        try {
            new SnapshotExpiry(fileSystem, committed).expire(SnapshotRetention.fromOptions(committed.name().toString(), schema.options()));
        }
        catch (RuntimeException e) {
            log.warn(e, "Expiring snapshots of %s after a commit failed; the commit stands", tableLocation);
        }
    }

    /**
     * Paimon's writers expire partitions after a commit when {@code partition.expiration-time} is set and either the
     * check interval is zero or {@code end-input.check-partition-expire} is set: a fresh writer, as each statement's
     * is, waits one check interval before its first check otherwise, so a batch write never gets there.
     */
    private void expirePartitions(PaimonTable committed)
    {
        Optional<PartitionExpiration> expiration = PartitionExpiration.fromOptions(tableName.toString(), schema.options());
        if (expiration.isEmpty()
                || !(durationOption(tableName.toString(), schema.options(), "partition.expiration-check-interval", Duration.ofHours(1)).isZero()
                || booleanOption(tableName.toString(), schema.options(), "end-input.check-partition-expire", false))) {
            return;
        }
        new PartitionExpiry(fileSystem, committed, publisher).expire(expiration.get(), LocalDateTime.now(), Map.of());
    }

    // the catalog places a table at <warehouse>/<database>.db/<table>
    private static SchemaTableName tableName(Location tableLocation)
    {
        String database = tableLocation.parentDirectory().fileName();
        if (database.endsWith(FileSystemCatalog.DATABASE_SUFFIX)) {
            database = database.substring(0, database.length() - FileSystemCatalog.DATABASE_SUFFIX.length());
        }
        return new SchemaTableName(database, tableLocation.fileName());
    }

    private void checkDeletedFilesAreLive(Optional<Snapshot> latest, List<ManifestEntry> changes)
    {
        List<ManifestEntry> deletions = changes.stream().filter(entry -> entry.kind() == FileKind.DELETE).toList();
        if (deletions.isEmpty()) {
            return;
        }
        Set<ManifestEntry.Identifier> live = new HashSet<>();
        latest.ifPresent(snapshot -> scan.liveFiles(snapshot, ScanFilter.ALL).forEach(entry -> live.add(entry.identifier())));
        List<String> missing = deletions.stream()
                .filter(entry -> !live.contains(entry.identifier()))
                .map(entry -> entry.file().fileName())
                .collect(toImmutableList());
        if (!missing.isEmpty()) {
            throw new TrinoException(TRANSACTION_CONFLICT, "Commit to Paimon table %s failed: files it deletes are no longer live (another writer changed them): %s".formatted(metadataLocation, missing));
        }
    }

    private long liveRowCount(Snapshot snapshot)
    {
        return scan.liveFiles(snapshot, ScanFilter.ALL).stream().mapToLong(entry -> entry.file().rowCount()).sum();
    }

    private List<DataType> partitionTypes()
    {
        return schema.partitionFields().stream()
                .map(DataField::type)
                .collect(toImmutableList());
    }

    // statement cancellation interrupts the thread: an interrupt, not a conflict to retry
    private static void lock(Optional<Lock> lock)
    {
        if (lock.isEmpty()) {
            return;
        }
        try {
            lock.get().lockInterruptibly();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException("Interrupted while waiting for the commits queued before this one", e);
        }
    }

    private static void sleep(Duration wait)
    {
        try {
            Thread.sleep(wait);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException("Interrupted while waiting to retry a commit", e);
        }
    }
}
