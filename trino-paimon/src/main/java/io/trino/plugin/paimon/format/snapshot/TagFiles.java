package io.trino.plugin.paimon.format.snapshot;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.spi.TrinoException;

import java.util.Optional;

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
}
