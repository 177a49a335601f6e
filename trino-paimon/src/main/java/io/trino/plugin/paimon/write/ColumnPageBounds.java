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

import io.airlift.slice.Slice;
import io.trino.spi.block.Block;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.parquet.format.BoundaryOrder;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The lowest and highest value and the nulls of one top-level column in each piece of rows handed to Trino's Parquet
 * writer, from which the column index of each page is made once the pages are known: a page is a run of whole pieces.
 * Only columns whose Parquet order is the order of their Trino values are kept: integers, dates and short decimals
 * (signed, int32 or int64), strings and binaries (unsigned bytes, bounds cut to {@value #MAX_BOUND_BYTES} bytes as
 * Apache Parquet cuts them).
 */
final class ColumnPageBounds
{
    static final int MAX_BOUND_BYTES = 64;

    private enum Kind
    {
        INT32, INT64, BINARY
    }

    private final Kind kind;
    private final Type type;
    private final int channel;
    private long[] lowLongs = new long[16];
    private long[] highLongs = new long[16];
    private byte[][] lowBytes = new byte[16][];
    private byte[][] highBytes = new byte[16][];
    private long[] nulls = new long[16];
    private long[] rows = new long[16];
    private int pieces;
    private long boundBytes;

    private ColumnPageBounds(Kind kind, Type type, int channel)
    {
        this.kind = requireNonNull(kind, "kind is null");
        this.type = requireNonNull(type, "type is null");
        this.channel = channel;
    }

    /** Bounds for the column if its Parquet type orders as its Trino values do. */
    static Optional<ColumnPageBounds> of(PrimitiveType parquetType, Type type, int channel)
    {
        LogicalTypeAnnotation annotation = parquetType.getLogicalTypeAnnotation();
        Kind kind = switch (parquetType.getPrimitiveTypeName()) {
            case INT32 -> type instanceof IntegerType || type instanceof SmallintType || type instanceof TinyintType || type instanceof DateType || shortDecimal(type) ? Kind.INT32 : null;
            case INT64 -> type instanceof BigintType || shortDecimal(type) ? Kind.INT64 : null;
            case BINARY -> (type instanceof VarcharType || type instanceof VarbinaryType) && (annotation == null || annotation instanceof StringLogicalTypeAnnotation) ? Kind.BINARY : null;
            default -> null;
        };
        return Optional.ofNullable(kind).map(value -> new ColumnPageBounds(value, type, channel));
    }

    private static boolean shortDecimal(Type type)
    {
        return type instanceof DecimalType decimal && decimal.isShort();
    }

    int channel()
    {
        return channel;
    }

    /** Adds the next piece of rows: the whole block. */
    void add(Block block)
    {
        if (pieces == rows.length) {
            int length = pieces * 2;
            lowLongs = Arrays.copyOf(lowLongs, length);
            highLongs = Arrays.copyOf(highLongs, length);
            lowBytes = Arrays.copyOf(lowBytes, length);
            highBytes = Arrays.copyOf(highBytes, length);
            nulls = Arrays.copyOf(nulls, length);
            rows = Arrays.copyOf(rows, length);
        }
        int positions = block.getPositionCount();
        long nullCount = 0;
        if (kind == Kind.BINARY) {
            Slice low = null;
            Slice high = null;
            for (int position = 0; position < positions; position++) {
                if (block.isNull(position)) {
                    nullCount++;
                    continue;
                }
                Slice value = type.getSlice(block, position);
                if (low == null || value.compareTo(low) < 0) {
                    low = value;
                }
                if (high == null || value.compareTo(high) > 0) {
                    high = value;
                }
            }
            lowBytes[pieces] = low == null ? null : lowerBound(low.getBytes());
            highBytes[pieces] = high == null ? null : upperBound(high.getBytes());
            boundBytes += (lowBytes[pieces] == null ? 0 : lowBytes[pieces].length) + (highBytes[pieces] == null ? 0 : highBytes[pieces].length);
        }
        else {
            long low = Long.MAX_VALUE;
            long high = Long.MIN_VALUE;
            for (int position = 0; position < positions; position++) {
                if (block.isNull(position)) {
                    nullCount++;
                    continue;
                }
                long value = type.getLong(block, position);
                low = Math.min(low, value);
                high = Math.max(high, value);
            }
            lowLongs[pieces] = low;
            highLongs[pieces] = high;
        }
        nulls[pieces] = nullCount;
        rows[pieces] = positions;
        pieces++;
    }

    /**
     * The column index of a column chunk whose pages start at the given rows of the file and end where the next
     * starts, the last at {@code end}; empty when a page does not start where a piece starts.
     */
    Optional<ColumnIndex> columnIndex(long[] pieceStarts, long[] pageStarts, long end)
    {
        List<Boolean> nullPages = new ArrayList<>(pageStarts.length);
        List<ByteBuffer> lows = new ArrayList<>(pageStarts.length);
        List<ByteBuffer> highs = new ArrayList<>(pageStarts.length);
        List<Long> nullCounts = new ArrayList<>(pageStarts.length);
        for (int page = 0; page < pageStarts.length; page++) {
            long pageEnd = page + 1 < pageStarts.length ? pageStarts[page + 1] : end;
            int first = Arrays.binarySearch(pieceStarts, 0, pieces, pageStarts[page]);
            if (first < 0) {
                return Optional.empty();
            }
            long covered = 0;
            long nullCount = 0;
            long lowLong = Long.MAX_VALUE;
            long highLong = Long.MIN_VALUE;
            byte[] low = null;
            byte[] high = null;
            int piece = first;
            for (; piece < pieces && pageStarts[page] + covered < pageEnd; piece++) {
                covered += rows[piece];
                nullCount += nulls[piece];
                if (nulls[piece] == rows[piece]) {
                    continue;
                }
                if (kind == Kind.BINARY) {
                    low = low == null || compareUnsigned(lowBytes[piece], low) < 0 ? lowBytes[piece] : low;
                    high = high == null || compareUnsigned(highBytes[piece], high) > 0 ? highBytes[piece] : high;
                }
                else {
                    lowLong = Math.min(lowLong, lowLongs[piece]);
                    highLong = Math.max(highLong, highLongs[piece]);
                }
            }
            if (pageStarts[page] + covered != pageEnd) {
                return Optional.empty();
            }
            boolean allNull = nullCount == covered;
            nullPages.add(allNull);
            nullCounts.add(nullCount);
            if (allNull) {
                lows.add(ByteBuffer.allocate(0));
                highs.add(ByteBuffer.allocate(0));
            }
            else if (kind == Kind.BINARY) {
                lows.add(ByteBuffer.wrap(low));
                highs.add(ByteBuffer.wrap(high));
            }
            else {
                lows.add(encode(lowLong));
                highs.add(encode(highLong));
            }
        }
        ColumnIndex index = new ColumnIndex(nullPages, lows, highs, boundaryOrder(nullPages, lows, highs));
        index.setNull_counts(nullCounts);
        return Optional.of(index);
    }

    private ByteBuffer encode(long value)
    {
        if (kind == Kind.INT32) {
            return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) value);
        }
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
    }

    private BoundaryOrder boundaryOrder(List<Boolean> nullPages, List<ByteBuffer> lows, List<ByteBuffer> highs)
    {
        boolean ascending = true;
        boolean descending = true;
        int previous = -1;
        for (int page = 0; page < nullPages.size(); page++) {
            if (nullPages.get(page)) {
                continue;
            }
            if (previous >= 0) {
                int lowOrder = compare(lows.get(previous), lows.get(page));
                int highOrder = compare(highs.get(previous), highs.get(page));
                ascending &= lowOrder <= 0 && highOrder <= 0;
                descending &= lowOrder >= 0 && highOrder >= 0;
            }
            previous = page;
        }
        if (ascending) {
            return BoundaryOrder.ASCENDING;
        }
        return descending ? BoundaryOrder.DESCENDING : BoundaryOrder.UNORDERED;
    }

    private int compare(ByteBuffer left, ByteBuffer right)
    {
        return switch (kind) {
            case INT32 -> Integer.compare(left.order(ByteOrder.LITTLE_ENDIAN).getInt(0), right.order(ByteOrder.LITTLE_ENDIAN).getInt(0));
            case INT64 -> Long.compare(left.order(ByteOrder.LITTLE_ENDIAN).getLong(0), right.order(ByteOrder.LITTLE_ENDIAN).getLong(0));
            case BINARY -> compareUnsigned(bytes(left), bytes(right));
        };
    }

    private static byte[] bytes(ByteBuffer buffer)
    {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static int compareUnsigned(byte[] left, byte[] right)
    {
        return Arrays.compareUnsigned(left, right);
    }

    // a prefix is never above the value
    private static byte[] lowerBound(byte[] value)
    {
        return value.length <= MAX_BOUND_BYTES ? value : Arrays.copyOf(value, MAX_BOUND_BYTES);
    }

    // a prefix with its last byte that can grow grown is above every value it starts; none can grow: keep the value
    private static byte[] upperBound(byte[] value)
    {
        if (value.length <= MAX_BOUND_BYTES) {
            return value;
        }
        for (int length = MAX_BOUND_BYTES; length > 0; length--) {
            if (value[length - 1] != (byte) 0xFF) {
                byte[] bound = Arrays.copyOf(value, length);
                bound[length - 1]++;
                return bound;
            }
        }
        return value;
    }

    long retainedBytes()
    {
        return (long) rows.length * Long.BYTES * 5 + boundBytes;
    }
}
