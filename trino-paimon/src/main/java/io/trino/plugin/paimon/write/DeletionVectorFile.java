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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry.DeletionVectorRange;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.format.manifest.IndexManifestEntry.DELETION_VECTORS_INDEX;
import static java.util.Objects.requireNonNull;

/**
 * The deletion-vector index file of a bucket (paimon-format.md §12): one written by a lookup compaction, or the one the
 * bucket had when the compaction changed none of its vectors.
 *
 * @param written whether the compaction wrote the file, so that a failed commit removes it
 */
public record DeletionVectorFile(String fileName, long fileSize, List<DeletionVectorRange> ranges, Optional<String> externalPath, boolean written)
{
    public DeletionVectorFile
    {
        requireNonNull(fileName, "fileName is null");
        ranges = ImmutableList.copyOf(ranges);
        requireNonNull(externalPath, "externalPath is null");
    }

    public static DeletionVectorFile of(IndexManifestEntry entry)
    {
        return new DeletionVectorFile(entry.fileName(), entry.fileSize(), entry.deletionVectorRanges().orElse(List.of()), entry.externalPath(), false);
    }

    /** The index manifest entry that adds this file; its row count is the number of vectors, as Paimon records it. */
    public IndexManifestEntry toIndexManifestEntry(BinaryRow partition, int bucket)
    {
        return new IndexManifestEntry(FileKind.ADD, partition, bucket, DELETION_VECTORS_INDEX, fileName, fileSize, ranges.size(), Optional.of(ranges), externalPath);
    }
}
