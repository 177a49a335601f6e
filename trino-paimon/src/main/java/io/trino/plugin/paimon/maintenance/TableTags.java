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

import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * The tags of a table (or of one of its branches) as Paimon's tag procedures make them: {@code create_tag},
 * {@code create_tag_from_timestamp}, {@code delete_tag}, {@code rename_tag} and {@code expire_tags}. A tag is one
 * file, created only if absent, so two creators of one tag cannot both succeed.
 */
public final class TableTags
{
    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final TagFiles tags;
    private final SnapshotFiles snapshots;

    public TableTags(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.tags = new TagFiles(fileSystem, table.metadataLocation());
        this.snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
    }

    /**
     * Tags the snapshot, the latest when none is given. A snapshot that expired while a tag held it can be tagged
     * again, from that tag, as Paimon allows.
     *
     * @return the id of the snapshot tagged
     */
    public long create(String name, OptionalLong snapshotId, Optional<Duration> timeRetained)
    {
        checkName(name);
        long id;
        if (snapshotId.isPresent()) {
            id = snapshotId.getAsLong();
        }
        else {
            id = snapshots.latestSnapshotId().orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                    "Cannot create tag '%s' of Paimon table %s: the table has no snapshot yet".formatted(name, table.name())));
        }
        byte[] snapshotJson = MetadataFiles.readIfExists(fileSystem, snapshots.snapshotLocation(id))
                .or(() -> tagFileOfSnapshot(id))
                .orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                        "Cannot create tag '%s' of Paimon table %s: snapshot %s does not exist".formatted(name, table.name(), id)));
        // Paimon stamps the tag in the local time of the writer's machine, which its own expiry reads the same way
        if (!tags.createTag(name, snapshotJson, timeRetained, LocalDateTime.now())) {
            throw new TrinoException(ALREADY_EXISTS, "Tag '%s' of Paimon table %s already exists".formatted(name, table.name()));
        }
        return id;
    }

    /**
     * Tags the oldest snapshot committed at or after the time, as Paimon's {@code create_tag_from_timestamp} does:
     * where a tag holds an older such snapshot (expired since), the tag's snapshot.
     *
     * @return the id of the snapshot tagged
     */
    public long createFromTimestamp(String name, long timestampMillis, Optional<Duration> timeRetained)
    {
        checkName(name);
        Optional<Snapshot> found = snapshots.snapshotAtOrAfter(timestampMillis);
        for (Snapshot tagged : tags.taggedSnapshots()) {
            if (tagged.timeMillis() >= timestampMillis) {
                if (found.isEmpty() || tagged.timeMillis() < found.get().timeMillis()) {
                    found = Optional.of(tagged);
                }
                break;
            }
        }
        Snapshot snapshot = found.orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                "Cannot create tag '%s' of Paimon table %s: no snapshot was committed at or after %s (%s)".formatted(name, table.name(), timestampMillis, Instant.ofEpochMilli(timestampMillis))));
        return create(name, OptionalLong.of(snapshot.id()), timeRetained);
    }

    /**
     * Deletes the tags whose retention has passed, and with {@code olderThan} also those made before it, as Paimon's
     * {@code expire_tags} does: a tag made without a retention counts as made when its file was last modified, and
     * only {@code olderThan} expires it. Times are the local date and time of this machine, as Paimon writes them.
     *
     * @return the tags deleted
     */
    public List<String> expire(Optional<LocalDateTime> olderThan)
    {
        LocalDateTime now = LocalDateTime.now();
        List<String> expired = new ArrayList<>();
        for (String name : tags.listTags()) {
            Optional<TagFiles.TagRetention> retention = tags.readRetention(name);
            if (retention.isEmpty()) {
                // deleted meanwhile
                continue;
            }
            Optional<Duration> timeRetained = retention.get().timeRetained();
            Optional<LocalDateTime> createTime = retention.get().createTime();
            if (createTime.isEmpty() || timeRetained.isEmpty()) {
                if (olderThan.isEmpty()) {
                    continue;
                }
                createTime = modificationTime(name);
                if (createTime.isEmpty()) {
                    continue;
                }
            }
            boolean retentionPassed = timeRetained.isPresent() && now.isAfter(createTime.get().plus(timeRetained.get()));
            boolean older = olderThan.isPresent() && olderThan.get().isAfter(createTime.get());
            if ((retentionPassed || older) && deleteOne(name, tags.taggedSnapshots())) {
                expired.add(name);
            }
        }
        return expired;
    }

    private Optional<LocalDateTime> modificationTime(String name)
    {
        try {
            Instant modified = fileSystem.newInputFile(tags.tagLocation(name)).lastModified();
            return Optional.of(LocalDateTime.ofInstant(modified, ZoneId.systemDefault()));
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to read the modification time of tag '%s' of Paimon table %s".formatted(name, table.name()), e);
        }
    }

    /**
     * Deletes the tags (all are checked before any is deleted). The files a deleted tag alone kept (its snapshot
     * expired while the tag held it) are deleted with it, as Paimon's tag deletion does.
     */
    public void delete(List<String> names)
    {
        Set<String> unique = new LinkedHashSet<>(names);
        for (String name : unique) {
            checkName(name);
            if (tags.readTag(name).isEmpty()) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Paimon table %s has no tag '%s'".formatted(table.name(), name));
            }
        }
        for (String name : unique) {
            // as Paimon, each tag's files are judged against the tags left when it goes
            deleteOne(name, tags.taggedSnapshots());
        }
    }

    // deletes the tag, and the files it alone kept; false when it was deleted meanwhile by someone else
    private boolean deleteOne(String name, List<Snapshot> taggedBefore)
    {
        Optional<Snapshot> tagged = tags.readTag(name);
        if (tagged.isEmpty() || !tags.deleteTag(name)) {
            return false;
        }
        if (table.branch().isEmpty() && !snapshots.snapshotExists(tagged.get().id())) {
            new SnapshotExpiry(fileSystem, table).deleteFilesOfDeletedTag(tagged.get(), taggedBefore);
        }
        return true;
    }

    /** Renames a tag: its file under the new name, with its content, creation time included. */
    public void rename(String from, String to)
    {
        checkName(from);
        checkName(to);
        byte[] content = tags.readTagFile(from).orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                "Paimon table %s has no tag '%s'".formatted(table.name(), from)));
        if (!MetadataFiles.createAtomically(fileSystem, tags.tagLocation(to), content)) {
            throw new TrinoException(ALREADY_EXISTS, "Tag '%s' of Paimon table %s already exists".formatted(to, table.name()));
        }
        tags.deleteTag(from);
    }

    private Optional<byte[]> tagFileOfSnapshot(long id)
    {
        for (String name : tags.listTags()) {
            Optional<Snapshot> tagged = tags.readTag(name);
            if (tagged.isPresent() && tagged.get().id() == id) {
                return tags.readTagFile(name);
            }
        }
        return Optional.empty();
    }

    private void checkName(String name)
    {
        if (name == null || !TagFiles.isValidName(name)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Invalid tag name '%s' for Paimon table %s: a tag name is not blank and holds no '/' or '\\'".formatted(name, table.name()));
        }
    }
}
