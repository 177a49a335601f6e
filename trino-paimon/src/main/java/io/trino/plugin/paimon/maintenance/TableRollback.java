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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.snapshot.ChangelogFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * {@code rollback_to} over a table's files, as Paimon's rollback does where the catalog does not do it itself: the
 * given snapshot (or a tag's) becomes the latest, the later snapshots, long-lived changelog files and tags are
 * deleted, and a tag's snapshot that had expired is written back as a snapshot. Like Paimon 1.4.2 it deletes no data
 * file or manifest: what only the removed versions used is left for {@code remove_orphan_files}.
 */
public final class TableRollback
{
    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final SnapshotFiles snapshots;
    private final ChangelogFiles changelogs;
    private final TagFiles tags;

    public TableRollback(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        this.changelogs = new ChangelogFiles(fileSystem, table.metadataLocation());
        this.tags = new TagFiles(fileSystem, table.metadataLocation());
    }

    /** Rolls back to the snapshot, or to a tag of it when its snapshot file expired. */
    public void toSnapshot(long id)
    {
        if (snapshots.snapshotExists(id)) {
            cleanLaterThan(snapshots.readSnapshot(id));
            return;
        }
        for (String name : tags.listTags()) {
            Optional<Snapshot> tagged = tags.readTag(name);
            if (tagged.isPresent() && tagged.get().id() == id) {
                toTag(name);
                return;
            }
        }
        throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot roll back Paimon table %s to snapshot %s: it does not exist".formatted(table.name(), id));
    }

    /** Rolls back to the tag's snapshot, written back as a snapshot when its file expired. */
    public void toTag(String name)
    {
        Snapshot tagged = tags.readTag(name).orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                "Cannot roll back Paimon table %s to tag '%s': it does not exist".formatted(table.name(), name)));
        cleanLaterThan(tagged);
        if (!snapshots.snapshotExists(tagged.id())) {
            MetadataFiles.createAtomically(fileSystem, snapshots.snapshotLocation(tagged.id()), tags.snapshotFileOf(name).orElseThrow());
            snapshots.writeHint(SnapshotFiles.EARLIEST_HINT, tagged.id());
        }
    }

    private void cleanLaterThan(Snapshot retained)
    {
        OptionalLong earliest = snapshots.earliestSnapshotId();
        OptionalLong latest = snapshots.latestSnapshotId();
        if (earliest.isEmpty() || latest.isEmpty()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot roll back Paimon table %s: it has no snapshot".formatted(table.name()));
        }
        // the hint first, as Paimon: a reader between the steps finds the retained snapshot as the latest
        snapshots.writeHint(SnapshotFiles.LATEST_HINT, retained.id());
        for (long id = latest.getAsLong(); id >= Math.max(earliest.getAsLong(), retained.id() + 1); id--) {
            delete(snapshots.snapshotLocation(id));
        }
        List<Long> changelogIds = changelogs.listIds().stream().filter(id -> id > retained.id()).toList();
        if (!changelogIds.isEmpty()) {
            long first = changelogIds.getFirst();
            changelogs.writeLatestHint(changelogs.earliestId().orElse(first) == first ? -1 : first - 1);
            for (long id : changelogIds.reversed()) {
                delete(changelogs.location(id));
            }
        }
        for (String name : tags.listTags()) {
            if (tags.readTag(name).map(tagged -> tagged.id() > retained.id()).orElse(false)) {
                tags.deleteTag(name);
            }
        }
        // a commit that landed meanwhile sits above the retained snapshot with a gap below it, hidden by the LATEST
        // hint, which now names the retained snapshot: so the snapshots are listed
        List<Long> ids = snapshots.listSnapshotIds();
        if (!ids.isEmpty() && ids.getLast() > retained.id()) {
            long landed = ids.getLast();
            // readers of both engines go by the hint first: it must name that commit, now the table's latest version
            snapshots.writeHint(SnapshotFiles.LATEST_HINT, landed);
            throw new TrinoException(TRANSACTION_CONFLICT, "Rollback of Paimon table %s to snapshot %s raced snapshot %s committed meanwhile, which stays the latest; run the rollback again".formatted(table.name(), retained.id(), landed));
        }
    }

    private void delete(Location location)
    {
        try {
            fileSystem.deleteFile(location);
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // gone already
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete %s while rolling back Paimon table %s".formatted(location, table.name()), e);
        }
    }
}
