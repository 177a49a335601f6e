package io.trino.plugin.paimon.read;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.spi.TrinoException;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;

/**
 * The snapshot a table handle pinned. A tagged read takes it from the tag's file: the snapshot file may have expired
 * since the tag was made.
 */
public final class PinnedSnapshot
{
    private PinnedSnapshot() {}

    public static Snapshot read(TrinoFileSystem fileSystem, PaimonTableHandle handle)
    {
        return read(fileSystem, MetadataCache.DISABLED, handle);
    }

    public static Snapshot read(TrinoFileSystem fileSystem, MetadataCache cache, PaimonTableHandle handle)
    {
        checkArgument(handle.snapshotId().isPresent(), "table %s has no snapshot", handle.table().name());
        Location location = handle.table().metadataLocation();
        if (handle.tag().isPresent()) {
            String tag = handle.tag().get();
            return new TagFiles(fileSystem, location).readTag(tag)
                    .orElseThrow(() -> new TrinoException(PAIMON_INVALID_METADATA, "Table %s: tag '%s' was deleted while the query ran".formatted(handle.table().name(), tag)));
        }
        return new SnapshotFiles(fileSystem, location, cache).readSnapshot(handle.snapshotId().getAsLong());
    }
}
