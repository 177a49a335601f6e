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
package io.trino.plugin.paimon.format.manifest;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One index file of a (partition, bucket): deletion vectors ({@code DELETION_VECTORS}, with the byte range of
 * each data file's vector) or a dynamic-bucket key index ({@code HASH}). An index manifest holds the full state.
 */
public record IndexManifestEntry(
        ManifestEntry.FileKind kind,
        BinaryRow partition,
        int bucket,
        String indexType,
        String fileName,
        long fileSize,
        long rowCount,
        Optional<List<DeletionVectorRange>> deletionVectorRanges,
        Optional<String> externalPath)
{
    public static final int VERSION = 1;
    public static final String DELETION_VECTORS_INDEX = "DELETION_VECTORS";
    public static final String HASH_INDEX = "HASH";

    public IndexManifestEntry
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(indexType, "indexType is null");
        requireNonNull(fileName, "fileName is null");
        deletionVectorRanges = requireNonNull(deletionVectorRanges, "deletionVectorRanges is null").map(ImmutableList::copyOf);
        requireNonNull(externalPath, "externalPath is null");
    }

    /** Where one data file's deletion vector lies in the index file, and how many rows it deletes. */
    public record DeletionVectorRange(String dataFileName, int offset, int length, OptionalLong cardinality)
    {
        public DeletionVectorRange
        {
            requireNonNull(dataFileName, "dataFileName is null");
            requireNonNull(cardinality, "cardinality is null");
        }
    }
}
