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
package io.trino.plugin.paimon;

import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * A range of a table's history whose changes a read of {@code system.table_changes} returns, in one of Paimon's
 * incremental scan modes (docs/changes.md). For {@link Mode#DELTA} and {@link Mode#CHANGELOG} the snapshots after
 * the start, up to and including the end, are read one by one; for {@link Mode#DIFF} the table's state at the start
 * is compared with its state at the end.
 *
 * @param start the version before the first change: for a delta or changelog range the snapshot before the first one
 * read, which may have expired (or be 0, before the first commit); for a diff the version whose state is compared,
 * 0 for the empty table before the first commit
 * @param end the last version read, an existing snapshot (or 0 when nothing was committed yet)
 */
public record TableChanges(Mode mode, Version start, Version end)
{
    public enum Mode
    {
        /** The records of the data files each {@code APPEND} snapshot of the range added, as they were written. */
        DELTA,
        /** The records of the changelog files of each snapshot of the range, {@code OVERWRITE} snapshots left out. */
        CHANGELOG,
        /** Each key whose merged row differs between the start and the end. */
        DIFF,
    }

    /**
     * A snapshot and the tag it was named by: a tag's file holds its snapshot after the snapshot's own file has
     * expired, so a tagged version is read from there.
     */
    public record Version(long snapshotId, Optional<String> tag)
    {
        public Version
        {
            checkArgument(snapshotId >= 0, "snapshot id is negative: %s", snapshotId);
            requireNonNull(tag, "tag is null");
        }

        public static Version snapshot(long snapshotId)
        {
            return new Version(snapshotId, Optional.empty());
        }

        @Override
        public String toString()
        {
            return tag.map(name -> "tag '%s' (snapshot %s)".formatted(name, snapshotId)).orElse("snapshot " + snapshotId);
        }
    }

    public TableChanges
    {
        requireNonNull(mode, "mode is null");
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
    }

    /** Whether the range holds no change at all: it ends where it starts. */
    public boolean isEmpty()
    {
        return end.snapshotId() <= start.snapshotId();
    }

    @Override
    public String toString()
    {
        return "%s after %s up to %s".formatted(mode.name().toLowerCase(ENGLISH), start, end);
    }
}
