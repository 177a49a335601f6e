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
package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.Optional;

import static io.trino.plugin.paimon.format.manifest.IndexManifestEntry.HASH_INDEX;
import static java.util.Objects.requireNonNull;

/**
 * A dynamic-bucket key index file a page sink wrote for a (partition, bucket) whose keys changed: all the bucket's key
 * hashes, replacing the bucket's previous index file when committed. The partition travels as a serialized binary row.
 *
 * @param rowCount the number of hashes, which Paimon records as the index file's row count
 */
public record WrittenIndexFile(byte[] partition, int bucket, String fileName, long fileSize, long rowCount)
{
    public WrittenIndexFile
    {
        requireNonNull(partition, "partition is null");
        requireNonNull(fileName, "fileName is null");
    }

    /** The index manifest entry that adds this file. */
    public IndexManifestEntry toIndexManifestEntry()
    {
        return new IndexManifestEntry(FileKind.ADD, BinaryRow.deserialize(partition), bucket, HASH_INDEX, fileName, fileSize, rowCount, Optional.empty(), Optional.empty());
    }
}
