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

import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.TableChanges;
import io.trino.plugin.paimon.TableChanges.Mode;
import io.trino.plugin.paimon.TableChanges.Version;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableOptions.ChangelogProducer;
import io.trino.spi.TrinoException;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * The bounds a call of {@code table_changes} gives, resolved to snapshots as Paimon's {@code incremental-between}
 * and {@code incremental-between-timestamp} resolve them: the start is exclusive and the end inclusive; a time
 * stands for the newest snapshot committed at or before it (a start before every snapshot for the one before the
 * earliest); no end means the latest snapshot. Two tags read as Paimon reads them by default, as a diff of the two
 * tagged states, unless a mode is named. A bound that names no version of the table, or a range part of which has
 * expired, is an error naming the table and the bound.
 */
record TableChangesRange(
        Optional<Long> startSnapshotId,
        Optional<String> startTag,
        Optional<Long> startMillis,
        Optional<Long> endSnapshotId,
        Optional<String> endTag,
        Optional<Long> endMillis,
        String mode)
{
    private static final Version BEFORE_FIRST_COMMIT = Version.snapshot(0);

    TableChangesRange
    {
        requireNonNull(startSnapshotId, "startSnapshotId is null");
        requireNonNull(startTag, "startTag is null");
        requireNonNull(startMillis, "startMillis is null");
        requireNonNull(endSnapshotId, "endSnapshotId is null");
        requireNonNull(endTag, "endTag is null");
        requireNonNull(endMillis, "endMillis is null");
        requireNonNull(mode, "mode is null");
    }

    TableChanges resolve(TrinoFileSystem fileSystem, PaimonTable table)
    {
        String name = table.name().toString();
        if (Stream.of(startSnapshotId, startTag, startMillis).filter(Optional::isPresent).count() != 1) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s takes exactly one start: start_snapshot_id, start_tag or start_timestamp".formatted(name));
        }
        if (Stream.of(endSnapshotId, endTag, endMillis).filter(Optional::isPresent).count() > 1) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s takes at most one end: end_snapshot_id, end_tag or end_timestamp".formatted(name));
        }
        Mode scanMode = scanMode(table);
        if (startMillis.isPresent() && endMillis.isPresent() && startMillis.get() > endMillis.get()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s: the start %s is after the end %s".formatted(name, Instant.ofEpochMilli(startMillis.get()), Instant.ofEpochMilli(endMillis.get())));
        }
        startSnapshotId.ifPresent(id -> checkSnapshotId(name, "start_snapshot_id", id));
        endSnapshotId.ifPresent(id -> checkSnapshotId(name, "end_snapshot_id", id));

        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        OptionalLong earliest = snapshots.earliestSnapshotId();
        OptionalLong latest = snapshots.latestSnapshotId();
        TagFiles tags = new TagFiles(fileSystem, table.metadataLocation());

        Optional<Version> end;
        if (endSnapshotId.isPresent()) {
            end = Optional.of(existingSnapshot(name, "end", endSnapshotId.get(), earliest, latest));
        }
        else if (endTag.isPresent()) {
            end = Optional.of(tag(tags, name, endTag.get()));
        }
        else if (endMillis.isPresent()) {
            // no snapshot at or before the end time: nothing was committed in the range
            end = snapshots.snapshotAtOrBefore(endMillis.get()).map(snapshot -> Version.snapshot(snapshot.id()));
        }
        else {
            end = Optional.of(latest.isPresent() ? Version.snapshot(latest.getAsLong()) : BEFORE_FIRST_COMMIT);
        }

        Version start;
        if (startSnapshotId.isPresent()) {
            long id = startSnapshotId.get();
            if (latest.isPresent() && id > latest.getAsLong()) {
                throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "Table %s has no snapshot %s; the latest snapshot is %s".formatted(name, id, latest.getAsLong()));
            }
            start = Version.snapshot(id);
        }
        else if (startTag.isPresent()) {
            start = tag(tags, name, startTag.get());
        }
        else {
            start = snapshots.snapshotAtOrBefore(startMillis.orElseThrow())
                    .map(snapshot -> Version.snapshot(snapshot.id()))
                    // every snapshot is newer than the start: the range begins with the earliest one
                    .orElse(earliest.isPresent() ? Version.snapshot(earliest.getAsLong() - 1) : BEFORE_FIRST_COMMIT);
        }
        if (end.isEmpty() || latest.isEmpty() && startTag.isEmpty() && endTag.isEmpty()) {
            return new TableChanges(scanMode, BEFORE_FIRST_COMMIT, BEFORE_FIRST_COMMIT);
        }
        if (start.snapshotId() > end.get().snapshotId()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s: the start, %s, is after the end, %s".formatted(name, start, end.get()));
        }
        TableChanges changes = new TableChanges(scanMode, start, end.get());
        if (changes.isEmpty()) {
            return changes;
        }
        if (scanMode == Mode.DIFF) {
            // both states are read whole: each must still be there, or be the empty table before the first commit
            if (start.tag().isEmpty() && !(start.snapshotId() == 0 && earliest.orElse(1) == 1)) {
                existingSnapshot(name, "start", start.snapshotId(), earliest, latest);
            }
            return changes;
        }
        // each snapshot of the range is read: the first one after the start must not have expired
        long first = start.snapshotId() + 1;
        if (earliest.isEmpty() || first < earliest.getAsLong()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s: the changes after %s cannot be read, snapshot %s has expired; the earliest snapshot still readable is %s, so a range may start at %s at the earliest"
                    .formatted(name, start, first, earliest.isPresent() ? earliest.getAsLong() : "none", earliest.isPresent() ? earliest.getAsLong() - 1 : "none"));
        }
        return changes;
    }

    private Mode scanMode(PaimonTable table)
    {
        return switch (mode.toLowerCase(Locale.ENGLISH)) {
            // Paimon reads two tags as a diff of their states unless told to read the snapshots between them
            case "auto" -> startTag.isPresent() && endTag.isPresent() ? Mode.DIFF
                    : table.options().changelogProducer() == ChangelogProducer.NONE ? Mode.DELTA : Mode.CHANGELOG;
            case "delta" -> Mode.DELTA;
            case "changelog" -> Mode.CHANGELOG;
            case "diff" -> Mode.DIFF;
            default -> throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s: unknown mode '%s'; the modes are auto, delta, changelog and diff".formatted(table.name(), mode));
        };
    }

    private static void checkSnapshotId(String table, String argument, long id)
    {
        if (id < 0) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of %s: %s is negative: %s".formatted(table, argument, id));
        }
    }

    private static Version existingSnapshot(String table, String bound, long id, OptionalLong earliest, OptionalLong latest)
    {
        if (earliest.isEmpty()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "Table %s has no snapshot %s (the %s of table_changes): nothing was committed to it yet".formatted(table, id, bound));
        }
        if (id < earliest.getAsLong()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "Table %s: snapshot %s (the %s of table_changes) has expired; the earliest snapshot still readable is %s".formatted(table, id, bound, earliest.getAsLong()));
        }
        if (id > latest.orElseThrow()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "Table %s has no snapshot %s (the %s of table_changes); the latest snapshot is %s".formatted(table, id, bound, latest.getAsLong()));
        }
        return Version.snapshot(id);
    }

    private static Version tag(TagFiles tags, String table, String tag)
    {
        Snapshot snapshot = tags.readTag(tag)
                .orElseThrow(() -> new TrinoException(INVALID_FUNCTION_ARGUMENT, "Table %s has no tag '%s'".formatted(table, tag)));
        return new Version(snapshot.id(), Optional.of(tag));
    }
}
