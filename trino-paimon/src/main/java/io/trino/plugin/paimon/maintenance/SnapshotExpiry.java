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
import com.google.common.base.Suppliers;
import io.airlift.log.Logger;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.JsonFields;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.MetadataPaths;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.ChangelogFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.format.stats.StatisticsFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.SnapshotRetention;
import io.trino.plugin.paimon.table.TableOptions.ChangelogProducer;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.MetadataFiles.readIfExists;
import static io.trino.plugin.paimon.format.manifest.DataFileMeta.FILE_SOURCE_APPEND;
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
 * <p>
 * A table whose changelog outlives its snapshots ({@link SnapshotRetention#changelogDecoupled()}) keeps each expired
 * snapshot as a long-lived changelog file, as Paimon's expiry does: the snapshot's JSON moves to
 * {@code changelog/changelog-<id>}, and what it names as changelog stays — its changelog manifest list and files, or,
 * without a changelog producer, its base and delta manifest lists and the data files writers appended. Changelog
 * expiry then removes those under the {@code changelog.*} retention, oldest first, never the newest changelog file.
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
    private final ChangelogFiles changelogs;
    private final TagFiles tags;
    private final SnapshotScan scan;
    private final StatisticsFiles statisticsFiles;
    private int deletedFiles;

    public SnapshotExpiry(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.snapshots = new SnapshotFiles(fileSystem, table.location());
        this.changelogs = new ChangelogFiles(fileSystem, table.location());
        this.tags = new TagFiles(fileSystem, table.location());
        this.scan = new SnapshotScan(fileSystem, table.location());
        this.statisticsFiles = new StatisticsFiles(fileSystem, table.location());
    }

    /** What an expiry did: the snapshots and long-lived changelog files it removed and the files it deleted with them. */
    public record Result(int expiredSnapshots, int expiredChangelogs, int deletedFiles) {}

    /**
     * Expires what the table's options say, as Paimon does after each commit.
     */
    public Result expire(SnapshotRetention retention)
    {
        long now = System.currentTimeMillis();
        return expire(retention, now - retention.timeRetained().toMillis(), now - retention.changelogTimeRetained().toMillis());
    }

    /**
     * @param snapshotsOlderThanMillis snapshots committed at or after this time are kept
     * @param changelogOlderThanMillis long-lived changelog files of snapshots committed at or after this time are kept
     */
    public Result expire(SnapshotRetention retention, long snapshotsOlderThanMillis, long changelogOlderThanMillis)
    {
        Expiring expiring = new Expiring(
                retention.changelogDecoupled(),
                table.options().changelogProducer() != ChangelogProducer.NONE,
                // read once, and only when something expires: commits run this too
                Suppliers.memoize(tags::taggedSnapshots));
        int expiredSnapshots = expireSnapshots(retention, snapshotsOlderThanMillis, expiring);
        // as Paimon: a changelog that no longer outlives the snapshots is left as it is
        int expiredChangelogs = expiring.decoupled() ? expireChangelog(retention, changelogOlderThanMillis, expiring) : 0;
        return new Result(expiredSnapshots, expiredChangelogs, deletedFiles);
    }

    private int expireSnapshots(SnapshotRetention retention, long olderThanMillis, Expiring expiring)
    {
        OptionalLong latest = snapshots.latestSnapshotId();
        OptionalLong earliestId = snapshots.earliestSnapshotId();
        if (latest.isEmpty() || earliestId.isEmpty()) {
            return 0;
        }
        long earliest = earliestId.getAsLong();
        long first = Math.max(latest.getAsLong() - retention.retainMax() + 1, earliest);
        long endExclusive = latest.getAsLong() - retention.retainMin() + 1;
        if (!retention.snapshotsIgnoreConsumers()) {
            endExclusive = Math.min(endExclusive, minConsumerNextSnapshot().orElse(Long.MAX_VALUE));
        }
        endExclusive = Math.min(endExclusive, earliest + retention.expireLimit());
        for (long id = first; id < endExclusive; id++) {
            Optional<Snapshot> snapshot = tryReadSnapshot(id);
            if (snapshot.isPresent() && olderThanMillis <= snapshot.get().timeMillis()) {
                return expireSnapshotsUntil(earliest, id, expiring);
            }
        }
        return expireSnapshotsUntil(earliest, endExclusive, expiring);
    }

    /**
     * What one expiry needs to know throughout.
     *
     * @param decoupled whether expired snapshots become long-lived changelog files
     * @param producesChangelog whether the table has a changelog producer, whose changelog files are what a long-lived
     * changelog keeps; without one it keeps the appended data files of the delta
     * @param taggedSnapshots the snapshots of the table's tags, by id
     */
    private record Expiring(boolean decoupled, boolean producesChangelog, Supplier<List<Snapshot>> taggedSnapshots) {}

    private int expireSnapshotsUntil(long earliestId, long endExclusiveId, Expiring expiring)
    {
        if (endExclusiveId <= earliestId) {
            // nothing to expire: leave the hint a later reader starts from, as Paimon does
            snapshots.writeEarliestHintIfMissing();
            return 0;
        }
        List<Snapshot> includingEnd = new ArrayList<>();
        for (long id = earliestId; id <= endExclusiveId; id++) {
            tryReadSnapshot(id).ifPresent(includingEnd::add);
        }
        if (includingEnd.isEmpty()) {
            return 0;
        }
        List<Snapshot> excludingEnd = includingEnd.stream().filter(snapshot -> snapshot.id() != endExclusiveId).toList();
        long beginId = includingEnd.getFirst().id();
        List<Snapshot> taggedSnapshots = expiring.taggedSnapshots().get();
        Branches branches = branches();
        // without a changelog producer, the long-lived changelog is the data the writers appended
        boolean keepAppendedFiles = expiring.decoupled() && !expiring.producesChangelog();

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
            deleteFilesDeletedIn(snapshot, protectedFiles.get(), branches.files(), keepAppendedFiles);
        }
        if (!expiring.decoupled()) {
            for (Snapshot snapshot : excludingEnd) {
                snapshot.changelogManifestList().ifPresent(this::deleteAddedFiles);
            }
        }

        Snapshot last = includingEnd.getLast();
        if (last.id() != endExclusiveId) {
            // the end snapshot is gone (another expiry ran meanwhile): its manifests cannot be told apart, so keep them
            return 0;
        }
        List<Snapshot> keep = new ArrayList<>(tagsBetween(taggedSnapshots, beginId, endExclusiveId));
        keep.add(last);
        // a branch's snapshots name the main branch's manifest lists, manifests and index files
        keep.addAll(branches.snapshots());
        Optional<Set<String>> keptMetadata = metadataFilesOf(keep);
        if (keptMetadata.isPresent()) {
            Set<String> skip = keptMetadata.get();
            for (Snapshot snapshot : excludingEnd) {
                if (!keepAppendedFiles) {
                    deleteUnusedManifestList(snapshot.baseManifestList(), snapshot.baseManifestListSize(), skip);
                    deleteUnusedManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize(), skip);
                }
                if (!expiring.decoupled()) {
                    snapshot.changelogManifestList().ifPresent(list -> deleteUnusedManifestList(list, snapshot.changelogManifestListSize(), skip));
                }
                deleteUnusedIndexAndStatistics(snapshot, skip);
            }
        }

        for (Snapshot snapshot : excludingEnd) {
            if (expiring.decoupled()) {
                // the changelog file first: a failure between the two leaves both, which a rerun expires again
                changelogs.keep(snapshots.snapshotLocation(snapshot.id()), snapshot.id());
            }
            delete(snapshots.snapshotLocation(snapshot.id()));
        }
        snapshots.writeHint(SnapshotFiles.EARLIEST_HINT, endExclusiveId);
        log.info("Expired snapshots [%s, %s) of %s", beginId, endExclusiveId, table.name());
        return excludingEnd.size();
    }

    /**
     * Removes long-lived changelog files as Paimon's {@code ExpireChangelogImpl} does: from the earliest on, those more
     * than {@code changelog.num-retained.max} behind the latest snapshot, or older than the time limit while more than
     * {@code changelog.num-retained.min} behind it, stopping at the first young enough, at the oldest snapshot a
     * consumer reads, after {@code snapshot.expire.limit} files, and always before the newest changelog file.
     */
    private int expireChangelog(SnapshotRetention retention, long olderThanMillis, Expiring expiring)
    {
        OptionalLong latestSnapshot = snapshots.latestSnapshotId();
        OptionalLong earliestChangelog = changelogs.earliestId();
        OptionalLong latestChangelog = changelogs.latestId();
        if (latestSnapshot.isEmpty() || earliestChangelog.isEmpty() || latestChangelog.isEmpty()) {
            return 0;
        }
        long earliest = earliestChangelog.getAsLong();
        long first = Math.max(latestSnapshot.getAsLong() - retention.changelogRetainMax() + 1, earliest);
        long endExclusive = latestSnapshot.getAsLong() - retention.changelogRetainMin() + 1;
        endExclusive = Math.min(endExclusive, minConsumerNextSnapshot().orElse(Long.MAX_VALUE));
        endExclusive = Math.min(endExclusive, earliest + retention.expireLimit());
        endExclusive = Math.min(endExclusive, latestChangelog.getAsLong());
        if (endExclusive <= earliest) {
            // Paimon 1.4.2 fails here reading a changelog file that is not there; there is simply nothing to remove
            return 0;
        }
        for (long id = first; id <= endExclusive; id++) {
            Optional<Snapshot> changelog = changelogs.read(id);
            if (changelog.isPresent() && olderThanMillis <= changelog.get().timeMillis()) {
                return expireChangelogUntil(earliest, id, expiring);
            }
        }
        return expireChangelogUntil(earliest, endExclusive, expiring);
    }

    private int expireChangelogUntil(long earliestId, long endExclusiveId, Expiring expiring)
    {
        if (endExclusiveId <= earliestId) {
            return 0;
        }
        List<Snapshot> expired = new ArrayList<>();
        for (long id = earliestId; id < endExclusiveId; id++) {
            changelogs.read(id).ifPresent(expired::add);
        }
        Branches branches = branches();
        // what the changelog files to keep, the earliest snapshot, the tags and the branches still name; the ids of
        // long-lived changelog files may have gaps, so the next one kept may be later than the end
        List<Snapshot> keep = new ArrayList<>(tagsBetween(expiring.taggedSnapshots().get(), earliestId, endExclusiveId));
        changelogs.listIds().stream()
                .filter(id -> id >= endExclusiveId)
                .findFirst()
                .flatMap(changelogs::read)
                .ifPresent(keep::add);
        snapshots.earliestSnapshotId().ifPresent(id -> tryReadSnapshot(id).ifPresent(keep::add));
        keep.addAll(branches.snapshots());
        Optional<Set<String>> keptMetadata = existingMetadataFilesOf(keep);
        if (keptMetadata.isEmpty()) {
            return 0;
        }
        Set<String> skip = keptMetadata.get();
        TagDataFiles tagFiles = new TagDataFiles();
        for (Snapshot changelog : expired) {
            if (changelog.changelogManifestList().isPresent()) {
                deleteAddedFiles(changelog.changelogManifestList().get());
                deleteUnusedManifestList(changelog.changelogManifestList().get(), changelog.changelogManifestListSize(), skip);
            }
            else {
                // the appended data files snapshot expiry kept, deleted once no tag or branch holds them
                tagFiles.previousTagFiles(expiring.taggedSnapshots().get(), changelog.id())
                        .ifPresent(protectedFiles -> deleteFilesDeletedIn(changelog, protectedFiles, branches.files(), false));
                deleteUnusedManifestList(changelog.deltaManifestList(), changelog.deltaManifestListSize(), skip);
                deleteUnusedManifestList(changelog.baseManifestList(), changelog.baseManifestListSize(), skip);
            }
            // index files and statistics went with the snapshot
            delete(changelogs.location(changelog.id()));
        }
        changelogs.writeEarliestHint(endExclusiveId);
        log.info("Expired long-lived changelog [%s, %s) of %s", earliestId, endExclusiveId, table.name());
        return expired.size();
    }

    /**
     * Deletes what only a deleted tag kept: the data files, manifests, index files and statistics of its snapshot,
     * which expired while the tag held it, that neither the previous tag nor the next version (the next tag, or the
     * earliest snapshot where that comes first) uses, as Paimon's tag deletion does, and that no branch uses (Paimon
     * does not look at branches; a branch made from the tag needs them). The snapshot's changelog stays, as in Paimon,
     * for changelog expiry. Nothing is deleted while another tag holds the snapshot or the table has no snapshot.
     *
     * @param taggedBefore the tagged snapshots before the tag was deleted, by id
     * @return the files deleted
     */
    public int deleteFilesOfDeletedTag(Snapshot tagged, List<Snapshot> taggedBefore)
    {
        if (snapshots.snapshotExists(tagged.id()) || taggedBefore.stream().filter(snapshot -> snapshot.id() == tagged.id()).count() > 1) {
            return 0;
        }
        OptionalLong earliest = snapshots.earliestSnapshotId();
        if (earliest.isEmpty()) {
            return 0;
        }
        List<Snapshot> keep = new ArrayList<>();
        int previous = lastIndexBefore(taggedBefore, tagged.id());
        if (previous >= 0) {
            keep.add(taggedBefore.get(previous));
        }
        Optional<Snapshot> nextTag = taggedBefore.stream().filter(snapshot -> snapshot.id() > tagged.id()).findFirst();
        if (nextTag.isPresent() && nextTag.get().id() < earliest.getAsLong()) {
            keep.add(nextTag.get());
        }
        else {
            Optional<Snapshot> earliestSnapshot = tryReadSnapshot(earliest.getAsLong());
            if (earliestSnapshot.isEmpty()) {
                return 0;
            }
            keep.add(earliestSnapshot.get());
        }
        int before = deletedFiles;
        try {
            Set<DataFileKey> kept = new HashSet<>(branches().files());
            for (Snapshot snapshot : keep) {
                kept.addAll(liveFilesOf(snapshot).keySet());
            }
            liveFilesOf(tagged).forEach((key, entry) -> {
                if (!kept.contains(key)) {
                    Location location = dataFileLocation(entry);
                    delete(location);
                    for (String extraFile : entry.file().extraFiles()) {
                        delete(MetadataPaths.child(location.parentDirectory(), extraFile, "data file"));
                    }
                }
            });
        }
        catch (TrinoException e) {
            log.warn(e, "Cannot read the files of the versions around deleted tag of snapshot %s of %s; its data files are left for orphan file removal", tagged.id(), table.name());
        }
        Optional<Set<String>> keptMetadata = metadataFilesOf(keep);
        if (keptMetadata.isPresent()) {
            Set<String> skip = keptMetadata.get();
            deleteUnusedManifestList(tagged.baseManifestList(), tagged.baseManifestListSize(), skip);
            deleteUnusedManifestList(tagged.deltaManifestList(), tagged.deltaManifestListSize(), skip);
            deleteUnusedIndexAndStatistics(tagged, skip);
        }
        return deletedFiles - before;
    }

    /** The snapshots and tags of the table's branches, and the data files they use. */
    private record Branches(List<Snapshot> snapshots, Set<DataFileKey> files) {}

    private Branches branches()
    {
        try {
            List<Snapshot> branchSnapshots = new ArrayList<>();
            for (Location branch : BranchSnapshots.branchRoots(fileSystem, table)) {
                branchSnapshots.addAll(BranchSnapshots.snapshotsAndTags(fileSystem, branch));
            }
            return new Branches(branchSnapshots, liveFilesOf(branchSnapshots));
        }
        catch (TrinoException e) {
            // expiring without knowing what the branches use could delete their files
            throw new TrinoException(PAIMON_INVALID_METADATA, "Cannot expire snapshots of Paimon table %s: the files its branches use cannot be read, so nothing was expired: %s".formatted(table.name(), e.getMessage()), e);
        }
    }

    /**
     * Data files whose last DELETE in the snapshot's delta is not followed by an ADD of the same file, unless a tag
     * or a branch holds them, or they were appended by a writer and {@code keepAppendedFiles} says to keep those.
     */
    private void deleteFilesDeletedIn(Snapshot snapshot, Set<DataFileKey> tagFiles, Set<DataFileKey> branchFiles, boolean keepAppendedFiles)
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
            // a file of unknown source, written by an old Paimon, counts as appended, as Paimon counts it
            boolean appended = entry.file().fileSource().orElse(FILE_SOURCE_APPEND) == FILE_SOURCE_APPEND;
            if (!tagFiles.contains(key) && !branchFiles.contains(key) && !(keepAppendedFiles && appended)) {
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

    /**
     * As {@link #metadataFilesOf}, for snapshots and long-lived changelog files whose base and delta manifest lists
     * may be gone (a changelog file of a table with a changelog producer keeps only its changelog).
     */
    private Optional<Set<String>> existingMetadataFilesOf(List<Snapshot> kept)
    {
        Set<String> names = new HashSet<>();
        try {
            for (Snapshot snapshot : kept) {
                for (String manifestList : List.of(snapshot.baseManifestList(), snapshot.deltaManifestList())) {
                    if (MetadataFiles.exists(fileSystem, scan.manifestLocation(manifestList))) {
                        names.add(manifestList);
                        scan.readManifestList(manifestList, OptionalLong.empty()).forEach(manifest -> names.add(manifest.fileName()));
                    }
                }
                if (snapshot.indexManifest().isPresent() && MetadataFiles.exists(fileSystem, scan.manifestLocation(snapshot.indexManifest().get()))) {
                    names.add(snapshot.indexManifest().get());
                    scan.readIndexManifest(snapshot.indexManifest().get()).forEach(entry -> names.add(entry.fileName()));
                }
                snapshot.statistics().ifPresent(names::add);
            }
        }
        catch (TrinoException e) {
            log.warn(e, "Cannot read the metadata of the versions %s keeps; its long-lived changelog is not expired", table.name());
            return Optional.empty();
        }
        return Optional.of(names);
    }

    private void deleteUnusedIndexAndStatistics(Snapshot snapshot, Set<String> skip)
    {
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

    /**
     * The live data files of one snapshot: the files its manifests add and do not delete again.
     *
     * @throws TrinoException when a manifest list or manifest cannot be read
     */
    private Map<DataFileKey, ManifestEntry> liveFilesOf(Snapshot snapshot)
    {
        Map<DataFileKey, ManifestEntry> live = new LinkedHashMap<>();
        for (ManifestFileMeta manifest : scan.manifests(snapshot)) {
            for (ManifestEntry entry : scan.readManifest(manifest)) {
                if (entry.kind() == FileKind.ADD) {
                    live.put(DataFileKey.of(entry), entry);
                }
                else {
                    live.remove(DataFileKey.of(entry));
                }
            }
        }
        return live;
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
