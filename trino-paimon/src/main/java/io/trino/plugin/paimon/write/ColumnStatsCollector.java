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

import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.merge.BlockValueComparator;
import io.trino.plugin.paimon.table.StatsMode;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Min, max and null count of one column of a data file, as Paimon records them for Parquet files (its statistics
 * come from the Parquet footer, then the column's {@link StatsMode} applies), computed from the pages written, so ORC
 * and Avro files get the same: ordered atomic types get min and max;
 * binaries and timestamps above microseconds (int96) only a null count; nested columns nothing. Min and max are kept
 * as single-value blocks and compared in Paimon's order.
 */
final class ColumnStatsCollector
{
    private final DataType type;
    private final Type trinoType;
    private final StatsMode mode;
    private final Extent extent;
    private final BlockValueComparator comparator;
    private final boolean floatingPoint;
    private long nullCount;
    private Block min;
    private Block max;
    // NaN has no place in Paimon's order: a column holding one gets no min or max (unknown) rather than a wrong one
    private boolean sawNaN;

    private enum Extent
    {
        MIN_MAX, NULL_COUNT, NOTHING
    }

    ColumnStatsCollector(DataType type, Type trinoType, StatsMode mode)
    {
        this.type = requireNonNull(type, "type is null");
        this.trinoType = requireNonNull(trinoType, "trinoType is null");
        this.mode = requireNonNull(mode, "mode is null");
        this.extent = extent(type);
        this.comparator = extent == Extent.MIN_MAX ? BlockValueComparator.forType(trinoType) : null;
        this.floatingPoint = type instanceof DataType.FloatType || type instanceof DataType.DoubleType;
    }

    private static Extent extent(DataType type)
    {
        return switch (type) {
            case DataType.ArrayType _, DataType.MapType _, DataType.MultisetType _, DataType.RowType _ -> Extent.NOTHING;
            case DataType.BinaryType _, DataType.VarBinaryType _ -> Extent.NULL_COUNT;
            case DataType.TimestampType timestamp -> timestamp.precision() <= 6 ? Extent.MIN_MAX : Extent.NULL_COUNT;
            case DataType.LocalZonedTimestampType timestamp -> timestamp.precision() <= 6 ? Extent.MIN_MAX : Extent.NULL_COUNT;
            default -> Extent.MIN_MAX;
        };
    }

    void add(Block block)
    {
        int positions = block.getPositionCount();
        boolean mayHaveNull = block.mayHaveNull();
        for (int position = 0; position < positions; position++) {
            if (mayHaveNull && block.isNull(position)) {
                nullCount++;
                continue;
            }
            if (comparator == null) {
                continue;
            }
            if (floatingPoint && isNaN(block, position)) {
                sawNaN = true;
                continue;
            }
            if (min == null || comparator.compare(block, position, min, 0) < 0) {
                min = block.getSingleValueBlock(position);
            }
            if (max == null || comparator.compare(block, position, max, 0) > 0) {
                max = block.getSingleValueBlock(position);
            }
        }
    }

    /** The statistics, in binary-row values: {@code [min, max, nullCount]}, each possibly null (unknown). */
    Object[] result()
    {
        if (extent == Extent.NOTHING || mode.kind() == StatsMode.Kind.NONE) {
            return new Object[] {null, null, null};
        }
        if (extent == Extent.NULL_COUNT || mode.kind() == StatsMode.Kind.COUNTS || min == null || sawNaN) {
            return new Object[] {null, null, nullCount};
        }
        Object minValue = BinaryRowValues.value(type, trinoType, min, 0);
        Object maxValue = BinaryRowValues.value(type, trinoType, max, 0);
        if (mode.kind() == StatsMode.Kind.TRUNCATE && minValue instanceof String) {
            int length = mode.truncateLength().orElseThrow();
            minValue = truncateMin((String) minValue, length);
            maxValue = truncateMax((String) maxValue, length);
            if (maxValue == null) {
                return new Object[] {null, null, nullCount};
            }
        }
        return new Object[] {minValue, maxValue, nullCount};
    }

    private boolean isNaN(Block block, int position)
    {
        if (type instanceof DataType.FloatType) {
            return Float.isNaN(Float.intBitsToFloat((int) trinoType.getLong(block, position)));
        }
        return Double.isNaN(trinoType.getDouble(block, position));
    }

    // the first length code points: not above the value
    static String truncateMin(String value, int length)
    {
        if (value.codePointCount(0, value.length()) <= length) {
            return value;
        }
        return value.substring(0, value.offsetByCodePoints(0, length));
    }

    // not below the value: the first length code points with the last one that can be incremented incremented and the
    // rest cut off; null when none can be
    static String truncateMax(String value, int length)
    {
        String truncated = truncateMin(value, length);
        if (truncated.getBytes(UTF_8).length == value.getBytes(UTF_8).length) {
            return value;
        }
        StringBuilder builder = new StringBuilder(truncated);
        for (int i = length - 1; i >= 0; i--) {
            int offset = builder.offsetByCodePoints(0, i);
            int next = builder.codePointAt(offset) + 1;
            if (next != 0 && Character.isValidCodePoint(next)) {
                builder.setLength(offset);
                builder.appendCodePoint(next);
                return builder.toString();
            }
        }
        return null;
    }
}
