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

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.format.MetadataFiles.readIfExists;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Files named {@code <prefix><id>} in one folder with {@code LATEST} and {@code EARLIEST} hint files beside them, as
 * Paimon keeps its snapshots and its long-lived changelog. Hints may be stale or missing (paimon-format.md §3.1), so
 * each is checked against the files before it is believed.
 */
final class NumberedFiles
{
    static final String LATEST_HINT = "LATEST";
    static final String EARLIEST_HINT = "EARLIEST";

    private final TrinoFileSystem fileSystem;
    private final Location directory;
    private final String prefix;

    NumberedFiles(TrinoFileSystem fileSystem, Location directory, String prefix)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.prefix = requireNonNull(prefix, "prefix is null");
    }

    Location directory()
    {
        return directory;
    }

    Location location(long id)
    {
        return directory.appendPath(prefix + id);
    }

    boolean exists(long id)
    {
        return MetadataFiles.exists(fileSystem, location(id));
    }

    boolean hintExists(String hint)
    {
        return MetadataFiles.exists(fileSystem, directory.appendPath(hint));
    }

    /** The ids present, ascending. */
    List<Long> listIds()
    {
        List<Long> ids = new ArrayList<>();
        try {
            FileIterator files = fileSystem.listFiles(directory);
            while (files.hasNext()) {
                String name = files.next().location().fileName();
                if (name.startsWith(prefix)) {
                    parseId(name.substring(prefix.length())).ifPresent(ids::add);
                }
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return ImmutableList.of();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list %s files in %s".formatted(prefix, directory), e);
        }
        ids.sort(null);
        return ImmutableList.copyOf(ids);
    }

    /** The newest id: the LATEST hint when its file exists and the next does not, else the largest listed. */
    OptionalLong latestId()
    {
        OptionalLong hint = readHint(LATEST_HINT);
        if (hint.isPresent() && exists(hint.getAsLong()) && !exists(hint.getAsLong() + 1)) {
            return hint;
        }
        List<Long> ids = listIds();
        return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.getLast());
    }

    /** The oldest id present: the EARLIEST hint when its file exists, else the smallest listed. */
    OptionalLong earliestId()
    {
        OptionalLong hint = readHint(EARLIEST_HINT);
        if (hint.isPresent() && exists(hint.getAsLong())) {
            return hint;
        }
        List<Long> ids = listIds();
        return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.getFirst());
    }

    void writeHint(String hint, long id)
    {
        MetadataFiles.overwrite(fileSystem, directory.appendPath(hint), String.valueOf(id).getBytes(UTF_8));
    }

    private OptionalLong readHint(String hint)
    {
        // a hint that cannot be read or parsed is treated as missing, as Paimon does
        return readIfExists(fileSystem, directory.appendPath(hint))
                .flatMap(bytes -> parseId(new String(bytes, UTF_8).trim()))
                .map(OptionalLong::of)
                .orElseGet(OptionalLong::empty);
    }

    private static Optional<Long> parseId(String digits)
    {
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(digits));
    }
}
