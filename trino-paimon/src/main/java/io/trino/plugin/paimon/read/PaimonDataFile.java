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
import io.trino.plugin.paimon.format.manifest.DataFileMeta;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One data file of a split, with what the reader needs to know before opening it: where it is, its LSM level, the
 * schema it was written with, its key range (serialized binary rows) and its deletion vector, if any.
 */
public record PaimonDataFile(
        String path,
        long fileSize,
        long rowCount,
        int level,
        long schemaId,
        byte[] minKey,
        byte[] maxKey,
        long minSequenceNumber,
        long maxSequenceNumber,
        OptionalLong deleteRowCount,
        Optional<DeletionVectorReference> deletionVector)
{
    public PaimonDataFile
    {
        requireNonNull(path, "path is null");
        requireNonNull(minKey, "minKey is null");
        requireNonNull(maxKey, "maxKey is null");
        requireNonNull(deleteRowCount, "deleteRowCount is null");
        requireNonNull(deletionVector, "deletionVector is null");
    }

    /** A file as a manifest describes it, at its location (see {@code PaimonTable.dataFileLocation}). */
    public static PaimonDataFile of(DataFileMeta file, Location location, Optional<DeletionVectorReference> deletionVector)
    {
        return new PaimonDataFile(
                location.toString(),
                file.fileSize(),
                file.rowCount(),
                file.level(),
                file.schemaId(),
                file.minKey().serialize(),
                file.maxKey().serialize(),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                file.deleteRowCount(),
                deletionVector);
    }

    /** The same file read whole, its deletion vector not applied. */
    public PaimonDataFile withoutDeletionVector()
    {
        return new PaimonDataFile(path, fileSize, rowCount, level, schemaId, minKey, maxKey, minSequenceNumber, maxSequenceNumber, deleteRowCount, Optional.empty());
    }

    /** Where a file's deletion vector lies in an index file. */
    public record DeletionVectorReference(String indexFilePath, long offset, int length)
    {
        public DeletionVectorReference
        {
            requireNonNull(indexFilePath, "indexFilePath is null");
        }
    }
}
