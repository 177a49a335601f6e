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

import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.row.StatsValueComparator;
import io.trino.plugin.paimon.format.schema.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Collects full-mode {@link SimpleStats} (exact min, max and null count per field) over rows, as Paimon keeps
 * them for the partitions of a manifest. Fields whose type has no order get no min or max.
 */
public final class SimpleStatsCollector
{
    private final List<DataType> types;
    private final Object[] minValues;
    private final Object[] maxValues;
    private final long[] nullCounts;

    public SimpleStatsCollector(List<DataType> types)
    {
        this.types = List.copyOf(types);
        this.minValues = new Object[types.size()];
        this.maxValues = new Object[types.size()];
        this.nullCounts = new long[types.size()];
    }

    public void add(BinaryRow row)
    {
        checkArgument(row.arity() == types.size(), "row has %s fields, expected %s", row.arity(), types.size());
        for (int i = 0; i < types.size(); i++) {
            DataType type = types.get(i);
            Object value = row.get(i, type);
            if (value == null) {
                nullCounts[i]++;
                continue;
            }
            if (!StatsValueComparator.isOrdered(type)) {
                continue;
            }
            if (minValues[i] == null || StatsValueComparator.compare(type, value, minValues[i]) < 0) {
                minValues[i] = value;
            }
            if (maxValues[i] == null || StatsValueComparator.compare(type, value, maxValues[i]) > 0) {
                maxValues[i] = value;
            }
        }
    }

    public SimpleStats build()
    {
        // stats rows hold every type as nullable: an absent min or max means unknown
        List<DataType> nullableTypes = types.stream().map(type -> type.withNullable(true)).toList();
        List<Long> counts = new ArrayList<>();
        Arrays.stream(nullCounts).forEach(counts::add);
        return new SimpleStats(
                BinaryRowWriter.toBinaryRow(nullableTypes, Arrays.asList(minValues)),
                BinaryRowWriter.toBinaryRow(nullableTypes, Arrays.asList(maxValues)),
                Optional.of(counts));
    }
}
