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
package io.trino.plugin.paimon.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.log.Logger;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.JsonFields;
import io.trino.plugin.paimon.format.MetadataPaths;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.format.stats.StatisticsFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.SnapshotRetention;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static io.trino.plugin.paimon.format.MetadataFiles.readIfExists;
import static io.trino.plugin.paimon.format.manifest.ManifestEntry.POSTPONE_BUCKET;
import static java.util.Objects.requireNonNull;

/**
 * Expires a table's old snapshots the way Paimon's {@code ExpireSnapshotsImpl} does, so that a table maintained here
 * keeps exactly what one maintained by Paimon keeps.
 * <p>
 * Which: from the earliest snapshot on, every snapshot that is more than {@code retainMax} behind the latest, or older
 * than the time limit while more than {@code retainMin} behind the latest, stopping at the first one that is young
 * enough, at the oldest snapshot a consumer still reads, and after {@code expireLimit} snapshots. The first snapshot
 * kept is the "end".
 * <p>
 * In what order, so that a failure at any point leaves the retained snapshots whole: data files that the deltas of
 * the expired snapshots and of the end delete (a file deleted in snapshot n was last live in n-1), except those the
 * nearest older tag or any snapshot or tag of a branch still holds; the changelog files the expired snapshots added;
 * then their manifests, manifest lists, index files and statistics that neither the end, a tag in the range nor a
 * branch uses (Paimon 1.4.2 itself protects only tags, so a branch made from a tag that is then deleted loses files to
 * it; the branches' own snapshots are never expired here); then the snapshot files, oldest
 * first; the EARLIEST hint last. Files are deleted one by one (never a directory), and a file that cannot be deleted
 * is left behind for orphan removal.
 */
public final class SnapshotExpiry
{
    private static final Logger log = Logger.get(SnapshotExpiry.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String CONSUMER_DIRECTORY = "consumer";
    private static final String CONSUMER_PREFIX = "consumer-";
    private static final String POSTPONE_BUCKET_DIRECTORY = "bucket-postpone";

    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final SnapshotFiles snapshots;
    private final TagFiles tags;
    private final SnapshotScan scan;
    private final StatisticsFiles statisticsFiles;
    private int deletedFiles;

    public SnapshotExpiry(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.snapshots = new SnapshotFiles(fileSystem, table.location());
        this.tags = new TagFiles(fileSystem, table.location());
        this.scan = new SnapshotScan(fileSystem, table.location());
        this.statisticsFiles = new StatisticsFiles(fileSystem, table.location());
    }

    /** What an expiry did: the snapshots it removed and the files it deleted with them. */
    public record Result(int expiredSnapshots, int deletedFiles) {}

    /**
     * Expires what the table's options say, as Paimon does after each commit.
     */
    public Result expire(SnapshotRetention retention)
    {
        return expire(retention, System.currentTimeMillis() - retention.timeRetained().toMillis());
    }

    /**
     * @param olderThanMillis snapshots committed at or after this time are kept
     * @throws TrinoException {@code PAIMON_UNSUPPORTED_CONFIGURATION} for a table whose changelog outlives its
     * snapshots
     */
    public Result expire(SnapshotRetention retention, long olderThanMillis)
    {
        checkSupported(table, retention);
        OptionalLong latest = snapshots.latestSnapshotId();
        OptionalLong earliestId = snapshots.earliestSnapshotId();
        if (latest.isEmpty() || earliestId.isEmpty()) {
            return new Result(0, 0);
        }
        long earliest = earliestId.getAsLong();
        long first = Math.max(latest.getAsLong() - retention.retainMax() + 1, earliest);
        long endExclusive = latest.getAsLong() - retention.retainMin() + 1;
        endExclusive = Math.min(endExclusive, minConsumerNextSnapshot().orElse(Long.MAX_VALUE));
        endExclusive = Math.min(endExclusive, earliest + retention.expireLimit());
        for (long id = first; id < endExclusive; id++) {
            Optional<Snapshot> snapshot = tryReadSnapshot(id);
            if (snapshot.isPresent() && olderThanMillis <= snapshot.get().timeMillis()) {
                return expireUntil(earliest, id);
            }
        }
        return expireUntil(earliest, endExclusive);
    }

    /**
     * @throws TrinoException {@code PAIMON_UNSUPPORTED_CONFIGURATION} naming the table and option when snapshots of
     * the table cannot be expired here
     */
    public static void checkSupported(PaimonTable table, SnapshotRetention retention)
    {
        if (retention.changelogDecoupled()) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, ("Cannot expire snapshots of Paimon table %s: its changelog.num-retained.min/max or changelog.time-retained keep " +
                    "the changelog longer than the snapshots, which needs Paimon's long-lived changelog files; expire it with Paimon").formatted(table.name()));
        }
    }

    private Result expireUntil(long earliestId, long endExclusiveId)
    {
        if (endExclusiveId <= earliestId) {
            // nothing to expire: leave the hint a later reader starts from, as Paimon does
            snapshots.writeEarliestHintIfMissing();
            return new Result(0, 0);
        }
        List<Snapshot> includingEnd = new ArrayList<>();
        for (long id = earliestId; id <= endExclusiveId; id++) {
            tryReadSnapshot(id).ifPresent(includingEnd::add);
        }
        if (includingEnd.isEmpty()) {
            return new Result(0, 0);
        }
        List<Snapshot> excludingEnd = includingEnd.stream().filter(snapshot -> snapshot.id() != endExclusiveId).toList();
        long beginId = includingEnd.getFirst().id();
        List<Snapshot> taggedSnapshots = taggedSnapshots();
        List<Snapshot> branchSnapshots;
        Set<DataFileKey> branchFiles;
        try {
            branchSnapshots = new ArrayList<>();
            for (Location branch : BranchSnapshots.branchRoots(fileSystem, table)) {
                branchSnapshots.addAll(BranchSnapshots.snapshotsAndTags(fileSystem, branch));
            }
            branchFiles = liveFilesOf(branchSnapshots);
        }
        catch (TrinoException e) {
            // expiring without knowing what the branches use could delete their files
            throw new TrinoException(PAIMON_INVALID_METADATA, "Cannot expire snapshots of Paimon table %s: the files its branches use cannot be read, so nothing was expired: %s".formatted(table.name(), e.getMessage()), e);
        }

        TagDataFiles tagFiles = new TagDataFiles();
        for (Snapshot snapshot : includingEnd) {
            // the deletions in the begin snapshot's delta were handled when it became the earliest
            if (snapshot.id() == beginId) {
                continue;
            }
            Optional<Set<DataFileKey>> protectedFiles = tagFiles.previousTagFiles(taggedSnapshots, snapshot.id());
            if (protectedFiles.isEmpty()) {
                continue;
            }
            deleteFilesDeletedIn(snapshot, protectedFiles.get(), branchFiles);
        }
        for (Snapshot snapshot : excludingEnd) {
            snapshot.changelogManifestList().ifPresent(this::deleteAddedFiles);
        }

        Snapshot last = includingEnd.getLast();
        if (last.id() != endExclusiveId) {
            // the end snapshot is gone (another expiry ran meanwhile): its manifests cannot be told apart, so keep them
            return new Result(0, deletedFiles);
        }
        List<Snapshot> keep = new ArrayList<>(tagsBetween(taggedSnapshots, beginId, endExclusiveId));
        keep.add(last);
        // a branch's snapshots name the main branch's manifest lists, manifests and index files
        keep.addAll(branchSnapshots);
        Optional<Set<String>> keptMetadata = metadataFilesOf(keep);
        if (keptMetadata.isPresent()) {
            Set<String> skip = keptMetadata.get();
            for (Snapshot snapshot : excludingEnd) {
                deleteUnusedMetadata(snapshot, skip);
            }
        }

        for (Snapshot snapshot : excludingEnd) {
            delete(snapshots.snapshotLocation(snapshot.id()));
        }
        snapshots.writeHint(SnapshotFiles.EARLIEST_HINT, endExclusiveId);
        log.info("Expired snapshots [%s, %s) of %s", beginId, endExclusiveId, table.name());
        return new Result(excludingEnd.size(), deletedFiles);
    }

    /**
     * Data files whose last DELETE in the snapshot's delta is not followed by an ADD of the same file, unless a tag
     * or a branch holds them.
     */
    private void deleteFilesDeletedIn(Snapshot snapshot, Set<DataFileKey> tagFiles, Set<DataFileKey> branchFiles)
    {
        Map<Location, ManifestEntry> toDelete = new LinkedHashMap<>();
        for (ManifestFileMeta manifest : tryReadManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize())) {
            List<ManifestEntry> entries;
            try {
                entries = scan.readManifest(manifest);
            }
            catch (TrinoException e) {
                log.warn(e, "Cannot read manifest %s of snapshot %s of %s; its deleted data files are left in place", manifest.fileName(), snapshot.id(), table.name());
                return;
            }
            for (ManifestEntry entry : entries) {
                Location location = dataFileLocation(entry);
                // a file may be deleted and added back in one delta when it only moves up a level
                if (entry.kind() == FileKind.ADD) {
                    toDelete.remove(location);
                }
                else {
                    toDelete.put(location, entry);
                }
            }
        }
        toDelete.forEach((location, entry) -> {
            DataFileKey key = DataFileKey.of(entry);
            if (!tagFiles.contains(key) && !branchFiles.contains(key)) {
                delete(location);
                for (String extraFile : entry.file().extraFiles()) {
                    delete(MetadataPaths.child(location.parentDirectory(), extraFile, "data file"));
                }
            }
        });
    }

    private void deleteAddedFiles(String changelogManifestList)
    {
        for (ManifestFileMeta manifest : tryReadManifestList(changelogManifestList, OptionalLong.empty())) {
            try {
                for (ManifestEntry entry : scan.readManifest(manifest)) {
                    if (entry.kind() == FileKind.ADD) {
                        delete(dataFileLocation(entry));
                    }
                }
            }
            catch (TrinoException e) {
                log.warn(e, "Cannot read changelog manifest %s of %s; its files are left in place", manifest.fileName(), table.name());
            }
        }
    }

    /** The manifest lists, manifests, index manifests, index files and statistics of the snapshots; empty when one cannot be read. */
    private Optional<Set<String>> metadataFilesOf(List<Snapshot> kept)
    {
        Set<String> names = new HashSet<>();
        try {
            for (Snapshot snapshot : kept) {
                names.add(snapshot.baseManifestList());
                names.add(snapshot.deltaManifestList());
                scan.manifests(snapshot).forEach(manifest -> names.add(manifest.fileName()));
                if (snapshot.indexManifest().isPresent()) {
                    names.add(snapshot.indexManifest().get());
                    scan.readIndexManifest(snapshot.indexManifest().get()).forEach(entry -> names.add(entry.fileName()));
                }
                snapshot.statistics().ifPresent(names::add);
            }
        }
        catch (TrinoException e) {
            log.warn(e, "Cannot read the metadata of the snapshots %s keeps; expired manifests are left in place", table.name());
            return Optional.empty();
        }
        return Optional.of(names);
    }

    private void deleteUnusedMetadata(Snapshot snapshot, Set<String> skip)
    {
        deleteUnusedManifestList(snapshot.baseManifestList(), snapshot.baseManifestListSize(), skip);
        deleteUnusedManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize(), skip);
        snapshot.changelogManifestList().ifPresent(list -> deleteUnusedManifestList(list, snapshot.changelogManifestListSize(), skip));
        if (snapshot.indexManifest().isPresent()) {
            String indexManifest = snapshot.indexManifest().get();
            List<IndexManifestEntry> entries;
            try {
                entries = scan.readIndexManifest(indexManifest);
            }
            catch (TrinoException e) {
                // deleted by an earlier, interrupted expiry: its index files went first
                entries = null;
            }
            if (entries != null) {
                for (IndexManifestEntry entry : entries) {
                    if (!skip.contains(entry.fileName())) {
                        delete(entry.externalPath().map(path -> table.externalFile(path, "index file")).orElseGet(() -> scan.indexLocation(entry.fileName())));
                    }
                }
                if (!skip.contains(indexManifest)) {
                    delete(scan.manifestLocation(indexManifest));
                }
            }
        }
        snapshot.statistics()
                .filter(statistics -> !skip.contains(statistics))
                .ifPresent(statistics -> delete(statisticsFiles.location(statistics)));
    }

    private void deleteUnusedManifestList(String manifestList, OptionalLong size, Set<String> skip)
    {
        for (ManifestFileMeta manifest : tryReadManifestList(manifestList, size)) {
            // added to the skip set so that the next expired snapshot, which shares most manifests, leaves them alone
            if (skip.add(manifest.fileName())) {
                delete(scan.manifestLocation(manifest.fileName()));
            }
        }
        if (!skip.contains(manifestList)) {
            delete(scan.manifestLocation(manifestList));
        }
    }

    private List<ManifestFileMeta> tryReadManifestList(String manifestList, OptionalLong size)
    {
        try {
            return scan.readManifestList(manifestList, size);
        }
        catch (TrinoException e) {
            // deleted by an earlier, interrupted expiry
            log.debug(e, "Cannot read manifest list %s of %s", manifestList, table.name());
            return List.of();
        }
    }

    private Location dataFileLocation(ManifestEntry entry)
    {
        String partitionPath = table.partitionPath(entry.partition());
        if (entry.bucket() == POSTPONE_BUCKET && entry.file().externalPath().isEmpty()) {
            // Paimon names the folder of the postpone bucket by word (paimon-format.md §1)
            return MetadataPaths.child(table.dataLocation().appendPath(partitionPath + POSTPONE_BUCKET_DIRECTORY), entry.file().fileName(), "data file");
        }
        return table.dataFileLocation(partitionPath, entry.bucket(), entry.file());
    }

    private List<Snapshot> taggedSnapshots()
    {
        List<Snapshot> tagged = new ArrayList<>();
        for (String tag : tags.listTags()) {
            tags.readTag(tag).ifPresent(tagged::add);
        }
        tagged.sort(Comparator.comparingLong(Snapshot::id));
        return tagged;
    }

    /**
     * Every data file the snapshots' manifests add, each manifest read once (the snapshots of a branch share most of
     * them): a superset of their live files, which is what keeping them needs.
     *
     * @throws TrinoException when a manifest list or manifest cannot be read
     */
    private Set<DataFileKey> liveFilesOf(List<Snapshot> snapshots)
    {
        Map<String, ManifestFileMeta> manifests = new LinkedHashMap<>();
        for (Snapshot snapshot : snapshots) {
            scan.manifests(snapshot).forEach(manifest -> manifests.putIfAbsent(manifest.fileName(), manifest));
        }
        Set<DataFileKey> files = new HashSet<>();
        for (ManifestFileMeta manifest : manifests.values()) {
            for (ManifestEntry entry : scan.readManifest(manifest)) {
                if (entry.kind() == FileKind.ADD) {
                    files.add(DataFileKey.of(entry));
                }
            }
        }
        return files;
    }

    /** The tags from the last one at or before {@code beginId} (or the first) to the last one before {@code endExclusiveId}. */
    private static List<Snapshot> tagsBetween(List<Snapshot> sortedTags, long beginId, long endExclusiveId)
    {
        int right = lastIndexBefore(sortedTags, endExclusiveId);
        if (right < 0) {
            return List.of();
        }
        int left = Math.max(lastIndexBefore(sortedTags, beginId + 1), 0);
        return sortedTags.subList(left, right + 1);
    }

    private static int lastIndexBefore(List<Snapshot> sortedTags, long id)
    {
        int index = -1;
        for (int i = 0; i < sortedTags.size() && sortedTags.get(i).id() < id; i++) {
            index = i;
        }
        return index;
    }

    /** The live data files of the nearest tag older than a snapshot, read once per tag. */
    private final class TagDataFiles
    {
        private long cachedTagId;
        private Set<DataFileKey> cachedFiles = Set.of();

        /** Empty when the tag's files cannot be read, so that nothing is deleted on a guess. */
        Optional<Set<DataFileKey>> previousTagFiles(List<Snapshot> sortedTags, long snapshotId)
        {
            int index = lastIndexBefore(sortedTags, snapshotId);
            if (index < 0) {
                return Optional.of(Set.of());
            }
            Snapshot tag = sortedTags.get(index);
            if (tag.id() != cachedTagId) {
                try {
                    // every file the tag's manifests add, postpone buckets too: a file deleted again before the tag
                    // cannot be deleted by a later snapshot, so this protects exactly the tag's live files
                    Set<DataFileKey> files = new HashSet<>();
                    for (ManifestFileMeta manifest : scan.manifests(tag)) {
                        for (ManifestEntry entry : scan.readManifest(manifest)) {
                            if (entry.kind() == FileKind.ADD) {
                                files.add(DataFileKey.of(entry));
                            }
                        }
                    }
                    cachedFiles = files;
                    cachedTagId = tag.id();
                }
                catch (TrinoException e) {
                    log.warn(e, "Cannot read the files of the tag at snapshot %s of %s; the data files of snapshot %s are left in place", tag.id(), table.name(), snapshotId);
                    return Optional.empty();
                }
            }
            return Optional.of(cachedFiles);
        }
    }

    private record DataFileKey(ByteBuffer partition, int bucket, String fileName)
    {
        static DataFileKey of(ManifestEntry entry)
        {
            return new DataFileKey(ByteBuffer.wrap(entry.partition().bytes()), entry.bucket(), entry.file().fileName());
        }
    }

    /** The oldest snapshot a consumer ({@code consumer/consumer-<id>}, Paimon's streaming readers) reads next. */
    private OptionalLong minConsumerNextSnapshot()
    {
        Location directory = table.location().appendPath(CONSUMER_DIRECTORY);
        long min = Long.MAX_VALUE;
        try {
            FileIterator files = fileSystem.listFiles(directory);
            while (files.hasNext()) {
                Location file = files.next().location();
                if (!file.fileName().startsWith(CONSUMER_PREFIX)) {
                    continue;
                }
                Optional<byte[]> json = readIfExists(fileSystem, file);
                if (json.isPresent()) {
                    JsonNode consumer = JsonFields.parseObject(MAPPER, json.get());
                    min = Math.min(min, JsonFields.requiredLong(consumer, "nextSnapshot"));
                }
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return OptionalLong.empty();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list the consumers of %s in %s".formatted(table.name(), directory), e);
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Invalid consumer file of %s in %s: %s".formatted(table.name(), directory, e.getMessage()), e);
        }
        return min == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(min);
    }

    private Optional<Snapshot> tryReadSnapshot(long id)
    {
        // a snapshot may vanish while this runs (another expiry)
        if (!snapshots.snapshotExists(id)) {
            return Optional.empty();
        }
        try {
            return Optional.of(snapshots.readSnapshot(id));
        }
        catch (TrinoException e) {
            if (!snapshots.snapshotExists(id)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private void delete(Location location)
    {
        try {
            fileSystem.deleteFile(location);
            deletedFiles++;
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // already gone: an earlier, interrupted expiry deleted it
        }
        catch (IOException e) {
            log.warn(e, "Could not delete %s of %s; it is left for orphan file removal", location, table.name());
        }
    }
}
