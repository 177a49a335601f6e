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

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.SimpleStats;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A data file a page sink wrote, as a fragment for the coordinator's commit: where it belongs (partition, bucket,
 * the table's bucket count) and its manifest description. Binary rows travel in their serialized form (§5.4).
 */
public record WrittenFile(
        byte[] partition,
        int bucket,
        int totalBuckets,
        String fileName,
        long fileSize,
        long rowCount,
        byte[] minKey,
        byte[] maxKey,
        Stats keyStats,
        Stats valueStats,
        long minSequenceNumber,
        long maxSequenceNumber,
        long schemaId,
        int level,
        long creationTimeMillis,
        long deleteRowCount,
        int fileSource,
        Optional<List<String>> valueStatsColumns)
{
    @JsonCreator
    public WrittenFile(
            @JsonProperty("partition") byte[] partition,
            @JsonProperty("bucket") int bucket,
            @JsonProperty("totalBuckets") int totalBuckets,
            @JsonProperty("fileName") String fileName,
            @JsonProperty("fileSize") long fileSize,
            @JsonProperty("rowCount") long rowCount,
            @JsonProperty("minKey") byte[] minKey,
            @JsonProperty("maxKey") byte[] maxKey,
            @JsonProperty("keyStats") Stats keyStats,
            @JsonProperty("valueStats") Stats valueStats,
            @JsonProperty("minSequenceNumber") long minSequenceNumber,
            @JsonProperty("maxSequenceNumber") long maxSequenceNumber,
            @JsonProperty("schemaId") long schemaId,
            @JsonProperty("level") int level,
            @JsonProperty("creationTimeMillis") long creationTimeMillis,
            @JsonProperty("deleteRowCount") long deleteRowCount,
            @JsonProperty("fileSource") int fileSource,
            @JsonProperty("valueStatsColumns") Optional<List<String>> valueStatsColumns)
    {
        this.partition = requireNonNull(partition, "partition is null");
        this.bucket = bucket;
        this.totalBuckets = totalBuckets;
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.fileSize = fileSize;
        this.rowCount = rowCount;
        this.minKey = requireNonNull(minKey, "minKey is null");
        this.maxKey = requireNonNull(maxKey, "maxKey is null");
        this.keyStats = requireNonNull(keyStats, "keyStats is null");
        this.valueStats = requireNonNull(valueStats, "valueStats is null");
        this.minSequenceNumber = minSequenceNumber;
        this.maxSequenceNumber = maxSequenceNumber;
        this.schemaId = schemaId;
        this.level = level;
        this.creationTimeMillis = creationTimeMillis;
        this.deleteRowCount = deleteRowCount;
        this.fileSource = fileSource;
        this.valueStatsColumns = requireNonNull(valueStatsColumns, "valueStatsColumns is null").map(ImmutableList::copyOf);
    }

    /** Min and max rows (serialized binary rows) and null counts (entries may be null: unknown). */
    public record Stats(byte[] minValues, byte[] maxValues, List<Long> nullCounts)
    {
        public Stats
        {
            requireNonNull(minValues, "minValues is null");
            requireNonNull(maxValues, "maxValues is null");
            nullCounts = new ArrayList<>(requireNonNull(nullCounts, "nullCounts is null"));
        }

        static Stats of(SimpleStats stats)
        {
            return new Stats(stats.minValues().serialize(), stats.maxValues().serialize(), stats.nullCounts().orElseThrow());
        }

        SimpleStats toSimpleStats()
        {
            return new SimpleStats(BinaryRow.deserialize(minValues), BinaryRow.deserialize(maxValues), Optional.of(nullCounts));
        }
    }

    public static WrittenFile of(BinaryRow partition, int bucket, int totalBuckets, DataFileMeta file)
    {
        return new WrittenFile(
                partition.serialize(),
                bucket,
                totalBuckets,
                file.fileName(),
                file.fileSize(),
                file.rowCount(),
                file.minKey().serialize(),
                file.maxKey().serialize(),
                Stats.of(file.keyStats()),
                Stats.of(file.valueStats()),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                file.schemaId(),
                file.level(),
                file.creationTimeMillis().orElseThrow(),
                file.deleteRowCount().orElseThrow(),
                file.fileSource().orElseThrow(),
                file.valueStatsColumns());
    }

    /** The manifest entry that adds this file. */
    public ManifestEntry toManifestEntry()
    {
        DataFileMeta file = new DataFileMeta(
                fileName,
                fileSize,
                rowCount,
                BinaryRow.deserialize(minKey),
                BinaryRow.deserialize(maxKey),
                keyStats.toSimpleStats(),
                valueStats.toSimpleStats(),
                minSequenceNumber,
                maxSequenceNumber,
                schemaId,
                level,
                ImmutableList.of(),
                OptionalLong.of(creationTimeMillis),
                OptionalLong.of(deleteRowCount),
                Optional.empty(),
                OptionalInt.of(fileSource),
                valueStatsColumns,
                Optional.empty(),
                OptionalLong.empty(),
                Optional.empty());
        return new ManifestEntry(FileKind.ADD, BinaryRow.deserialize(partition), bucket, totalBuckets, file);
    }
}
