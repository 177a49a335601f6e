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
import io.trino.plugin.paimon.format.stats.AnalyzedStatistics.ColumnStats;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongBinaryOperator;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * The column statistics a write computed over the rows it added, and how they become the statistics file of the
 * snapshot it commits: alone when the table held no rows before, merged into those the snapshot would inherit
 * otherwise. Distinct counts merge to the larger of the two, a lower bound of the union's (no sketch is kept in
 * Paimon's file to do better), null counts and lengths add up, bounds widen. A table whose earlier rows were never
 * described gets no statistics from a write: they would describe the new rows alone.
 *
 * @param schemaId the schema whose column names {@code columns} uses
 * @param rows the rows the write added
 * @param rowsAreMerged whether every added row is a row of the table (an append table's); a primary-key table's may
 * replace each other or rows already there
 */
public record WrittenStatistics(long schemaId, long rows, boolean rowsAreMerged, Map<String, ColumnStats> columns)
{
    public WrittenStatistics
    {
        checkArgument(rows >= 0, "rows is negative: %s", rows);
        columns = ImmutableMap.copyOf(requireNonNull(columns, "columns is null"));
    }

    /**
     * @param inherited the statistics the new snapshot would carry forward from the latest one, if any
     * @param tableWasEmpty whether the latest snapshot held no rows (or there was none)
     * @param addedBytes the size of the files the write added
     * @return the statistics the new snapshot names; empty where it should carry forward what it inherits
     */
    public Optional<AnalyzedStatistics> describe(long snapshotId, long snapshotSchemaId, boolean tableWasEmpty, Optional<AnalyzedStatistics> inherited, long addedBytes)
    {
        requireNonNull(inherited, "inherited is null");
        if (snapshotSchemaId != schemaId) {
            // the table changed its columns while the write ran: its names may no longer be the table's
            return Optional.empty();
        }
        if (tableWasEmpty) {
            return Optional.of(new AnalyzedStatistics(
                    snapshotId,
                    schemaId,
                    rowsAreMerged ? OptionalLong.of(rows) : OptionalLong.empty(),
                    rowsAreMerged ? OptionalLong.of(addedBytes) : OptionalLong.empty(),
                    columns));
        }
        if (inherited.isEmpty() || inherited.get().schemaId() != schemaId) {
            return Optional.empty();
        }
        AnalyzedStatistics previous = inherited.get();
        ImmutableMap.Builder<String, ColumnStats> merged = ImmutableMap.builder();
        for (Map.Entry<String, ColumnStats> column : columns.entrySet()) {
            ColumnStats before = previous.columns().get(column.getKey());
            if (before != null && before.fieldId() == column.getValue().fieldId()) {
                merged.put(column.getKey(), merge(before, previous.mergedRecordCount(), column.getValue()));
            }
        }
        // the rows and bytes of the table are no sum of the two: other writers' commits since may not be described
        return Optional.of(new AnalyzedStatistics(snapshotId, schemaId, OptionalLong.empty(), OptionalLong.empty(), merged.buildOrThrow()));
    }

    private ColumnStats merge(ColumnStats before, OptionalLong rowsBefore, ColumnStats added)
    {
        OptionalLong averageLength = OptionalLong.empty();
        if (rowsBefore.isPresent() && before.nullCount().isPresent() && before.averageLength().isPresent()
                && added.nullCount().isPresent() && added.averageLength().isPresent()) {
            long valuesBefore = rowsBefore.getAsLong() - before.nullCount().getAsLong();
            long valuesAdded = rows - added.nullCount().getAsLong();
            if (valuesBefore + valuesAdded > 0) {
                averageLength = OptionalLong.of((before.averageLength().getAsLong() * valuesBefore + added.averageLength().getAsLong() * valuesAdded) / (valuesBefore + valuesAdded));
            }
        }
        return new ColumnStats(
                before.fieldId(),
                combine(before.distinctCount(), added.distinctCount(), Math::max),
                bound(before.min(), added.min(), -1),
                bound(before.max(), added.max(), 1),
                combine(before.nullCount(), added.nullCount(), Long::sum),
                averageLength,
                combine(before.maxLength(), added.maxLength(), Math::max));
    }

    private static OptionalLong combine(OptionalLong first, OptionalLong second, LongBinaryOperator operator)
    {
        if (first.isEmpty() || second.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(operator.applyAsLong(first.getAsLong(), second.getAsLong()));
    }

    // the wider of two bounds in Paimon's text form: numbers (a DATE is its day number) and booleans; none for others
    private static Optional<String> bound(Optional<String> first, Optional<String> second, int direction)
    {
        if (first.isEmpty() || second.isEmpty()) {
            return Optional.empty();
        }
        Optional<Integer> order = compare(first.get(), second.get());
        return order.map(value -> value * direction >= 0 ? first.get() : second.get());
    }

    private static Optional<Integer> compare(String first, String second)
    {
        if (isBoolean(first) && isBoolean(second)) {
            return Optional.of(Boolean.compare(Boolean.parseBoolean(first), Boolean.parseBoolean(second)));
        }
        try {
            return Optional.of(new BigDecimal(first).compareTo(new BigDecimal(second)));
        }
        catch (NumberFormatException _) {
            // NaN, infinities: no bound is safer than a wrong one
            return Optional.empty();
        }
    }

    private static boolean isBoolean(String text)
    {
        return text.equals("true") || text.equals("false");
    }
}
