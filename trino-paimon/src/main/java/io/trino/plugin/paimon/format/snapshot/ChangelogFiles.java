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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.spi.TrinoException;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.MetadataFiles.readFile;
import static io.trino.plugin.paimon.format.MetadataFiles.readIfExists;
import static java.util.Objects.requireNonNull;

/**
 * A table's long-lived changelog: {@code <table>/changelog/changelog-<id>} with {@code LATEST} and {@code EARLIEST}
 * hints. Snapshot expiry of a table whose changelog outlives its snapshots (paimon-format.md §3.2) moves each expired
 * snapshot here, its JSON unchanged, so that the changelog (or, without a changelog producer, the delta) it names
 * stays readable until changelog expiry removes it. Ids may have gaps.
 */
public final class ChangelogFiles
{
    public static final String CHANGELOG_DIRECTORY = "changelog";
    public static final String CHANGELOG_PREFIX = "changelog-";

    private final TrinoFileSystem fileSystem;
    private final NumberedFiles files;

    public ChangelogFiles(TrinoFileSystem fileSystem, Location tableLocation)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.files = new NumberedFiles(fileSystem, requireNonNull(tableLocation, "tableLocation is null").appendPath(CHANGELOG_DIRECTORY), CHANGELOG_PREFIX);
    }

    public Location location(long id)
    {
        return files.location(id);
    }

    public List<Long> listIds()
    {
        return files.listIds();
    }

    public OptionalLong latestId()
    {
        return files.latestId();
    }

    public OptionalLong earliestId()
    {
        return files.earliestId();
    }

    /**
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it is not a snapshot of that id
     */
    public Optional<Snapshot> read(long id)
    {
        Location location = files.location(id);
        Optional<byte[]> json = readIfExists(fileSystem, location);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        try {
            Snapshot snapshot = SnapshotJson.parse(json.get());
            if (snapshot.id() != id) {
                throw new InvalidMetadataException("it declares snapshot id " + snapshot.id());
            }
            return Optional.of(snapshot);
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon changelog file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /**
     * Keeps an expiring snapshot as {@code changelog-<id>}, a byte copy of its file as Paimon's copy is, then moves
     * the LATEST hint to it. A rerun after a failure writes the same file again.
     */
    public void keep(Location snapshotFile, long id)
    {
        MetadataFiles.overwrite(fileSystem, files.location(id), readFile(fileSystem, snapshotFile));
        files.writeHint(NumberedFiles.LATEST_HINT, id);
    }

    /** Moves the LATEST hint; -1 when no changelog file is left, as Paimon's rollback writes it. */
    public void writeLatestHint(long id)
    {
        files.writeHint(NumberedFiles.LATEST_HINT, id);
    }

    public void writeEarliestHint(long id)
    {
        files.writeHint(NumberedFiles.EARLIEST_HINT, id);
    }
}
