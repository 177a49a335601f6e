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
