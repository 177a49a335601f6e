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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.table.PaimonTable;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The deletion vectors of a snapshot's data files, from the {@code DELETION_VECTORS} entries of its index manifest
 * (paimon-format.md §12): for each (partition, bucket, data file) with deleted rows, where its vector lies.
 */
public final class DeletionVectorIndex
{
    private final Map<String, PaimonDataFile.DeletionVectorReference> references;

    private DeletionVectorIndex(Map<String, PaimonDataFile.DeletionVectorReference> references)
    {
        this.references = ImmutableMap.copyOf(requireNonNull(references, "references is null"));
    }

    /**
     * @param indexFiles index manifest entries of a snapshot ({@link SnapshotScan#indexFiles}); other index types are ignored
     */
    public static DeletionVectorIndex of(PaimonTable table, SnapshotScan scan, List<IndexManifestEntry> indexFiles)
    {
        Map<String, PaimonDataFile.DeletionVectorReference> references = new HashMap<>();
        for (IndexManifestEntry index : indexFiles) {
            if (!index.indexType().equals(IndexManifestEntry.DELETION_VECTORS_INDEX)) {
                continue;
            }
            String indexPath = index.externalPath().map(path -> table.externalFile(path, "deletion vector file")).orElseGet(() -> scan.indexLocation(index.fileName())).toString();
            for (IndexManifestEntry.DeletionVectorRange range : index.deletionVectorRanges().orElse(List.of())) {
                references.put(key(index.partition(), index.bucket(), range.dataFileName()), new PaimonDataFile.DeletionVectorReference(indexPath, range.offset(), range.length()));
            }
        }
        return new DeletionVectorIndex(references);
    }

    /** Where the deletion vector of a data file lies, if it has one. */
    public Optional<PaimonDataFile.DeletionVectorReference> of(BinaryRow partition, int bucket, String dataFileName)
    {
        return Optional.ofNullable(references.get(key(partition, bucket, dataFileName)));
    }

    private static String key(BinaryRow partition, int bucket, String fileName)
    {
        return HexFormat.of().formatHex(partition.bytes()) + "/" + bucket + "/" + fileName;
    }
}
