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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.JsonFields;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.NoSuchFileException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
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
    private static final String CREATE_TIME = "tagCreateTime";
    private static final String TIME_RETAINED = "tagTimeRetained";
    private static final ObjectMapper MAPPER = new ObjectMapper();

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

    public Location tagLocation(String name)
    {
        return directory.appendPath(TAG_PREFIX + name);
    }

    /**
     * Creates a tag of the snapshot, as Paimon's {@code create_tag} does: the tag file holds the snapshot's JSON and,
     * when the tag has a retention, its creation time (local date and time, as an array) and its retention (seconds,
     * with nine decimals), which Paimon's {@code expire_tags} reads.
     *
     * @param snapshotJson the snapshot's file, or a tag of it: tag fields there are replaced
     * @return false when a tag of this name exists (nothing is written)
     */
    public boolean createTag(String name, byte[] snapshotJson, Optional<Duration> timeRetained, LocalDateTime createTime)
    {
        ObjectNode root = snapshotNode(snapshotJson, name);
        if (timeRetained.isPresent()) {
            ArrayNode time = root.putArray(CREATE_TIME);
            time.add(createTime.getYear()).add(createTime.getMonthValue()).add(createTime.getDayOfMonth()).add(createTime.getHour()).add(createTime.getMinute());
            // Java's date-time arrays end at the last part that is not zero
            if (createTime.getSecond() != 0 || createTime.getNano() != 0) {
                time.add(createTime.getSecond());
            }
            if (createTime.getNano() != 0) {
                time.add(createTime.getNano());
            }
            Duration retained = timeRetained.get();
            root.put(TIME_RETAINED, BigDecimal.valueOf(retained.getSeconds()).add(BigDecimal.valueOf(retained.getNano(), 9)).setScale(9));
        }
        try {
            return MetadataFiles.createAtomically(fileSystem, tagLocation(name), MAPPER.writeValueAsBytes(root));
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode tag '%s' as JSON".formatted(name), e);
        }
    }

    /**
     * When a tag was made and how long it is kept, as its file records them; both are absent for a tag made without
     * a retention.
     */
    public record TagRetention(Optional<LocalDateTime> createTime, Optional<Duration> timeRetained)
    {
        public TagRetention
        {
            requireNonNull(createTime, "createTime is null");
            requireNonNull(timeRetained, "timeRetained is null");
        }
    }

    /**
     * @return the tag's creation time and retention, empty when no tag has this name
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when the fields are not Paimon's
     */
    public Optional<TagRetention> readRetention(String name)
    {
        return readTagFile(name).map(json -> {
            try {
                JsonNode root = JsonFields.parseObject(MAPPER, json);
                Optional<LocalDateTime> createTime = Optional.empty();
                JsonNode time = root.path(CREATE_TIME);
                if (time.isArray() && time.size() >= 5) {
                    // a Java date-time array: year, month, day, hour, minute, then second and nanosecond unless zero
                    createTime = Optional.of(LocalDateTime.of(time.get(0).asInt(), time.get(1).asInt(), time.get(2).asInt(), time.get(3).asInt(), time.get(4).asInt(),
                            time.path(5).asInt(0), time.path(6).asInt(0)));
                }
                else if (!time.isMissingNode() && !time.isNull()) {
                    throw new InvalidMetadataException("%s is not a date-time array: %s".formatted(CREATE_TIME, time));
                }
                Optional<Duration> retained = Optional.empty();
                JsonNode seconds = root.path(TIME_RETAINED);
                if (seconds.isNumber()) {
                    BigDecimal value = seconds.decimalValue();
                    retained = Optional.of(Duration.ofSeconds(value.longValue(), value.remainder(BigDecimal.ONE).movePointRight(9).longValue()));
                }
                else if (!seconds.isMissingNode() && !seconds.isNull()) {
                    throw new InvalidMetadataException("%s is not a number of seconds: %s".formatted(TIME_RETAINED, seconds));
                }
                return new TagRetention(createTime, retained);
            }
            catch (InvalidMetadataException | DateTimeException e) {
                throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon tag file %s: %s".formatted(tagLocation(name), e.getMessage()), e);
            }
        });
    }

    /** The snapshot a tag holds, as the JSON of a snapshot file (without the tag's own fields); empty when no tag has this name. */
    public Optional<byte[]> snapshotFileOf(String name)
    {
        return readTagFile(name).map(json -> {
            try {
                return MAPPER.writeValueAsBytes(snapshotNode(json, name));
            }
            catch (JsonProcessingException e) {
                throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode the snapshot of tag '%s' as JSON".formatted(name), e);
            }
        });
    }

    private ObjectNode snapshotNode(byte[] json, String tagName)
    {
        ObjectNode root;
        try {
            root = (ObjectNode) JsonFields.parseObject(MAPPER, json);
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid snapshot for tag '%s' in %s: %s".formatted(tagName, directory, e.getMessage()), e);
        }
        root.remove(List.of(CREATE_TIME, TIME_RETAINED));
        return root;
    }

    /** The tag file's bytes, empty when no tag has this name. */
    public Optional<byte[]> readTagFile(String name)
    {
        return isValidName(name) ? readIfExists(fileSystem, tagLocation(name)) : Optional.empty();
    }

    /**
     * Deletes the tag's file.
     *
     * @return false when no tag had this name
     */
    public boolean deleteTag(String name)
    {
        if (!isValidName(name) || !MetadataFiles.exists(fileSystem, tagLocation(name))) {
            return false;
        }
        try {
            fileSystem.deleteFile(tagLocation(name));
            return true;
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return false;
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete tag '%s' in %s".formatted(name, directory), e);
        }
    }

    /** The snapshots the tags hold, by snapshot id (once per tag: several tags may hold one snapshot). */
    public List<Snapshot> taggedSnapshots()
    {
        List<Snapshot> tagged = new ArrayList<>();
        for (String tag : listTags()) {
            readTag(tag).ifPresent(tagged::add);
        }
        tagged.sort(Comparator.comparingLong(Snapshot::id));
        return tagged;
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
