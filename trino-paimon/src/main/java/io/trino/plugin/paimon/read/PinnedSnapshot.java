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
