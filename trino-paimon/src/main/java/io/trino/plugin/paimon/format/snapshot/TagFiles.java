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

import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.MetadataFiles.readIfExists;
import static java.util.Objects.requireNonNull;

/**
 * A table's tags, {@code tag/tag-<name>}: each file is a snapshot's JSON (plus the tag's own creation time and
 * retention, which readers ignore). A tag keeps its snapshot readable after the snapshot file itself has expired, so
 * a tagged read takes the manifests from the tag file, never from {@code snapshot/}.
 */
public final class TagFiles
{
    public static final String TAG_DIRECTORY = "tag";
    private static final String TAG_PREFIX = "tag-";

    private final TrinoFileSystem fileSystem;
    private final Location directory;

    public TagFiles(TrinoFileSystem fileSystem, Location tableLocation)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.directory = requireNonNull(tableLocation, "tableLocation is null").appendPath(TAG_DIRECTORY);
    }

    /**
     * Tag names come from SQL: one that could name a file outside the tag folder is never a tag.
     */
    public static boolean isValidName(String name)
    {
        return !name.isBlank() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0 && name.indexOf('\\') < 0;
    }

    /**
     * @return the tagged snapshot, empty when no tag has this name
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it is not a snapshot
     */
    public Optional<Snapshot> readTag(String name)
    {
        if (!isValidName(name)) {
            return Optional.empty();
        }
        Location location = directory.appendPath(TAG_PREFIX + name);
        return readIfExists(fileSystem, location).map(json -> {
            try {
                return SnapshotJson.parse(json);
            }
            catch (InvalidMetadataException e) {
                throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon tag file %s: %s".formatted(location, e.getMessage()), e);
            }
        });
    }

    /** The names of the table's tags, sorted. */
    public List<String> listTags()
    {
        List<String> names = new ArrayList<>();
        try {
            FileIterator files = fileSystem.listFiles(directory);
            while (files.hasNext()) {
                String fileName = files.next().location().fileName();
                if (fileName.startsWith(TAG_PREFIX) && isValidName(fileName.substring(TAG_PREFIX.length()))) {
                    names.add(fileName.substring(TAG_PREFIX.length()));
                }
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return List.of();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list tags in " + directory, e);
        }
        names.sort(null);
        return List.copyOf(names);
    }
}
