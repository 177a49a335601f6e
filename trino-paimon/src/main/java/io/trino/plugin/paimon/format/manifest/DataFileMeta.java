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
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One data file as a manifest describes it (the {@code _FILE} record, paimon-format.md §4.4): its size and rows,
 * its key range and sequence range, the schema it was written with and its LSM level.
 */
public record DataFileMeta(
        String fileName,
        long fileSize,
        long rowCount,
        BinaryRow minKey,
        BinaryRow maxKey,
        SimpleStats keyStats,
        SimpleStats valueStats,
        long minSequenceNumber,
        long maxSequenceNumber,
        long schemaId,
        int level,
        List<String> extraFiles,
        OptionalLong creationTimeMillis,
        OptionalLong deleteRowCount,
        Optional<byte[]> embeddedIndex,
        OptionalInt fileSource,
        Optional<List<String>> valueStatsColumns,
        Optional<String> externalPath,
        OptionalLong firstRowId,
        Optional<List<String>> writeColumns)
{
    /** {@code _FILE_SOURCE}: written by a writer. */
    public static final int FILE_SOURCE_APPEND = 0;
    /** {@code _FILE_SOURCE}: the output of a compaction. */
    public static final int FILE_SOURCE_COMPACT = 1;

    public DataFileMeta
    {
        requireNonNull(fileName, "fileName is null");
        requireNonNull(minKey, "minKey is null");
        requireNonNull(maxKey, "maxKey is null");
        requireNonNull(keyStats, "keyStats is null");
        requireNonNull(valueStats, "valueStats is null");
        extraFiles = ImmutableList.copyOf(requireNonNull(extraFiles, "extraFiles is null"));
        requireNonNull(creationTimeMillis, "creationTimeMillis is null");
        requireNonNull(deleteRowCount, "deleteRowCount is null");
        requireNonNull(embeddedIndex, "embeddedIndex is null");
        requireNonNull(fileSource, "fileSource is null");
        valueStatsColumns = requireNonNull(valueStatsColumns, "valueStatsColumns is null").map(ImmutableList::copyOf);
        requireNonNull(externalPath, "externalPath is null");
        requireNonNull(firstRowId, "firstRowId is null");
        writeColumns = requireNonNull(writeColumns, "writeColumns is null").map(ImmutableList::copyOf);
    }
}
