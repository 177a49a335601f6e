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
package io.trino.plugin.paimon.format.stats;

import com.google.common.collect.ImmutableMap;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The statistics an {@code ANALYZE} recorded for a table (paimon-format.md, snapshot {@code statistics}): the merged
 * row count of the snapshot it analyzed and, per column name, what it computed over the merged rows.
 *
 * @param snapshotId the snapshot the statistics were computed on
 * @param schemaId the schema the column names and value texts belong to
 * @param mergedRecordCount the table's rows after merging
 * @param mergedRecordSize the table's size in bytes after merging
 */
public record AnalyzedStatistics(
        long snapshotId,
        long schemaId,
        OptionalLong mergedRecordCount,
        OptionalLong mergedRecordSize,
        Map<String, ColumnStats> columns)
{
    public AnalyzedStatistics
    {
        requireNonNull(mergedRecordCount, "mergedRecordCount is null");
        requireNonNull(mergedRecordSize, "mergedRecordSize is null");
        columns = ImmutableMap.copyOf(requireNonNull(columns, "columns is null"));
    }

    /**
     * One column's statistics. Bounds are texts in Paimon's form for the column's type (a DATE as its day number, a
     * DECIMAL as its plain digits); lengths are in bytes.
     *
     * @param fieldId the column's field id, which outlives renames
     */
    public record ColumnStats(
            int fieldId,
            OptionalLong distinctCount,
            Optional<String> min,
            Optional<String> max,
            OptionalLong nullCount,
            OptionalLong averageLength,
            OptionalLong maxLength)
    {
        public ColumnStats
        {
            requireNonNull(distinctCount, "distinctCount is null");
            requireNonNull(min, "min is null");
            requireNonNull(max, "max is null");
            requireNonNull(nullCount, "nullCount is null");
            requireNonNull(averageLength, "averageLength is null");
            requireNonNull(maxLength, "maxLength is null");
        }
    }
}
