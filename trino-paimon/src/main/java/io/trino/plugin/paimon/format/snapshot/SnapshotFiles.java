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
package io.trino.plugin.paimon.format.snapshot;

import io.airlift.log.Logger;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.spi.TrinoException;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.MetadataFiles.exists;
import static io.trino.plugin.paimon.format.MetadataFiles.readFile;
import static io.trino.plugin.paimon.format.MetadataFiles.readIfExists;
import static java.util.Objects.requireNonNull;

/**
 * The snapshots of one table: {@code <table>/snapshot/snapshot-<id>} with ids 1, 2, ... and the {@code LATEST} and
 * {@code EARLIEST} hint files. Hints may be stale or missing (paimon-format.md §3.1), so each is checked
 * against the snapshot files before it is believed.
 */
public final class SnapshotFiles
{
    public static final String SNAPSHOT_DIRECTORY = "snapshot";
    public static final String LATEST_HINT = NumberedFiles.LATEST_HINT;
    public static final String EARLIEST_HINT = NumberedFiles.EARLIEST_HINT;
    private static final String SNAPSHOT_PREFIX = "snapshot-";
    private static final Logger log = Logger.get(SnapshotFiles.class);

    private final TrinoFileSystem fileSystem;
    private final NumberedFiles files;
    private final MetadataCache cache;

    public SnapshotFiles(TrinoFileSystem fileSystem, Location tableLocation)
    {
        this(fileSystem, tableLocation, MetadataCache.DISABLED);
    }

    /** Snapshot files decoded through the cache; which snapshot is the latest is read afresh on every call. */
    public SnapshotFiles(TrinoFileSystem fileSystem, Location tableLocation, MetadataCache cache)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.files = new NumberedFiles(fileSystem, requireNonNull(tableLocation, "tableLocation is null").appendPath(SNAPSHOT_DIRECTORY), SNAPSHOT_PREFIX);
        this.cache = requireNonNull(cache, "cache is null");
    }

    public Location snapshotLocation(long id)
    {
        return files.location(id);
    }

    public boolean snapshotExists(long id)
    {
        return files.exists(id);
    }

    /**
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it is missing or not a snapshot
     */
    public Snapshot readSnapshot(long id)
    {
        Location location = snapshotLocation(id);
        return cache.namedById(fileSystem, location, () -> decodeSnapshot(location, id));
    }

    private Snapshot decodeSnapshot(Location location, long id)
    {
        Snapshot snapshot;
        try {
            snapshot = SnapshotJson.parse(readFile(fileSystem, location));
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon snapshot file %s: %s".formatted(location, e.getMessage()), e);
        }
        if (snapshot.id() != id) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon snapshot file %s: it declares snapshot id %s".formatted(location, snapshot.id()));
        }
        return snapshot;
    }

    /** Snapshot ids present, ascending. */
    public List<Long> listSnapshotIds()
    {
        return files.listIds();
    }

    /** The newest snapshot id: the LATEST hint when the snapshot after it does not exist, else the largest listed. */
    public OptionalLong latestSnapshotId()
    {
        return files.latestId();
    }

    /** The oldest snapshot id still present: the EARLIEST hint when that snapshot exists, else the smallest listed. */
    public OptionalLong earliestSnapshotId()
    {
        return files.earliestId();
    }

    public Optional<Snapshot> latestSnapshot()
    {
        OptionalLong id = latestSnapshotId();
        return id.isPresent() ? Optional.of(readSnapshot(id.getAsLong())) : Optional.empty();
    }

    /**
     * The newest snapshot committed at or before the time, as {@code scan.timestamp-millis} selects it; empty when
     * every snapshot is newer.
     */
    public Optional<Snapshot> snapshotAtOrBefore(long timeMillis)
    {
        return nearestSnapshot(timeMillis, false);
    }

    /**
     * The oldest snapshot committed at or after the time, as Paimon's {@code create_tag_from_timestamp} selects it;
     * empty when every snapshot is older.
     */
    public Optional<Snapshot> snapshotAtOrAfter(long timeMillis)
    {
        return nearestSnapshot(timeMillis, true);
    }

    // snapshot ids are contiguous and their times ascend, so this is a binary search
    private Optional<Snapshot> nearestSnapshot(long timeMillis, boolean atOrAfter)
    {
        OptionalLong earliest = earliestSnapshotId();
        OptionalLong latest = latestSnapshotId();
        if (earliest.isEmpty() || latest.isEmpty()) {
            return Optional.empty();
        }
        long low = earliest.getAsLong();
        long high = latest.getAsLong();
        Snapshot found = null;
        while (low <= high) {
            long middle = low + (high - low) / 2;
            Snapshot snapshot = readSnapshot(middle);
            boolean before = snapshot.timeMillis() < timeMillis;
            boolean after = snapshot.timeMillis() > timeMillis;
            if (atOrAfter ? !before : !after) {
                found = snapshot;
            }
            // at or after: look for an older match; at or before: for a newer one
            if (atOrAfter ? !before : after) {
                high = middle - 1;
            }
            else {
                low = middle + 1;
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Creates {@code snapshot-<id>} unless it exists, atomically, then moves the LATEST hint to it (best effort: the
     * snapshot is committed once its file exists, and readers check the hint).
     * <p>
     * A publish can land although the file system reports a failure, or report the file as already there when it
     * was this very write that created it (a retried conditional PUT, a rename that failed after moving the file).
     * So on any such answer the snapshot file is read back: it is this commit's when it names the same manifest
     * lists, whose names are unique per attempt (paimon-format.md §11.4).
     *
     * @return false when another writer committed this snapshot id first
     * @throws TrinoException {@code PAIMON_COMMIT_STATE_UNKNOWN} when the publish failed and reading the snapshot
     * back failed too, so whether it landed is unknown; {@code PAIMON_FILESYSTEM_ERROR} when it surely did not land
     */
    public boolean commit(Snapshot snapshot)
    {
        Location location = snapshotLocation(snapshot.id());
        boolean created;
        try {
            created = MetadataFiles.createAtomically(fileSystem, location, SnapshotJson.toJson(snapshot));
        }
        catch (TrinoException e) {
            Optional<Boolean> own = isOwnSnapshot(snapshot);
            if (own.isEmpty()) {
                throw new TrinoException(PAIMON_COMMIT_STATE_UNKNOWN, "Publishing snapshot %s failed and it cannot be read back; whether the commit landed is unknown".formatted(location), e);
            }
            if (!own.get()) {
                // absent, or another writer's: this attempt did not land
                if (exists(fileSystem, location)) {
                    return false;
                }
                throw e;
            }
            log.warn(e, "Publishing snapshot %s reported a failure, but the snapshot read back is this commit's", location);
            created = true;
        }
        if (!created) {
            Optional<Boolean> own = isOwnSnapshot(snapshot);
            if (own.isEmpty()) {
                throw new TrinoException(PAIMON_COMMIT_STATE_UNKNOWN, "Snapshot %s exists but cannot be read back to tell whether this commit wrote it".formatted(location));
            }
            if (!own.get()) {
                return false;
            }
            log.warn("Publishing snapshot %s reported it as existing, but the snapshot read back is this commit's", location);
        }
        try {
            writeHint(LATEST_HINT, snapshot.id());
        }
        catch (TrinoException e) {
            log.warn(e, "Snapshot %s is committed, but its LATEST hint could not be written", location);
        }
        return true;
    }

    /** Whether snapshot-id, read back, is this snapshot (false when absent or another's); empty when it cannot be read. */
    private Optional<Boolean> isOwnSnapshot(Snapshot snapshot)
    {
        try {
            Optional<byte[]> content = readIfExists(fileSystem, snapshotLocation(snapshot.id()));
            if (content.isEmpty()) {
                return Optional.of(false);
            }
            Snapshot published = SnapshotJson.parse(content.get());
            return Optional.of(published.commitUser().equals(snapshot.commitUser())
                    && published.baseManifestList().equals(snapshot.baseManifestList())
                    && published.deltaManifestList().equals(snapshot.deltaManifestList()));
        }
        catch (TrinoException | InvalidMetadataException e) {
            log.warn(e, "Could not read back snapshot %s", snapshotLocation(snapshot.id()));
            return Optional.empty();
        }
    }

    /**
     * Writes the EARLIEST hint, naming the oldest snapshot present, when there is none: Paimon's writers do so after
     * every commit (the snapshot expiry that follows a commit writes it when it finds it missing). Best effort, as the
     * hint is only a hint.
     */
    public void writeEarliestHintIfMissing()
    {
        try {
            if (files.hintExists(EARLIEST_HINT)) {
                return;
            }
            List<Long> ids = listSnapshotIds();
            if (!ids.isEmpty()) {
                writeHint(EARLIEST_HINT, ids.getFirst());
            }
        }
        catch (TrinoException e) {
            log.warn(e, "The EARLIEST hint of %s could not be written", files.directory());
        }
    }

    public void writeHint(String hint, long id)
    {
        files.writeHint(hint, id);
    }
}
