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
package io.trino.plugin.paimon.merge;

import io.airlift.slice.Slice;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;

/**
 * Compares two non-null values of one column at positions of two blocks, in Paimon's order (paimon-format.md §10):
 * signed numbers, false before true, strings and binaries bytewise unsigned, floating point with {@code <} and
 * {@code >} only (NaN equals everything). CHAR values compare as Paimon stores them, padded with spaces to their
 * length, whether a block holds them padded (as written) or without trailing spaces (as Trino keeps them): files
 * Flink and Trino write are sorted by the padded values, and {@code 'a\t'} sorts before {@code 'a'} in a CHAR(2).
 * One implementation per physical representation, no boxing.
 * <p>
 * The same order as {@code format.row.StatsValueComparator} on decoded values; NaN differs only in min/max
 * ({@link MinMaxAggregator}), where Paimon uses {@code Double.compare} and NaN is the greatest value.
 */
public interface BlockValueComparator
{
    int compare(Block left, int leftPosition, Block right, int rightPosition);

    static BlockValueComparator forType(Type type)
    {
        return switch (type) {
            case BigintType _, IntegerType _, SmallintType _, TinyintType _, DateType _, TimeType _ -> (left, leftPosition, right, rightPosition) ->
                    Long.compare(type.getLong(left, leftPosition), type.getLong(right, rightPosition));
            case DecimalType decimal when decimal.isShort() -> (left, leftPosition, right, rightPosition) ->
                    Long.compare(type.getLong(left, leftPosition), type.getLong(right, rightPosition));
            case DecimalType _ -> (left, leftPosition, right, rightPosition) ->
                    ((Int128) type.getObject(left, leftPosition)).compareTo((Int128) type.getObject(right, rightPosition));
            case TimestampType timestamp when timestamp.isShort() -> (left, leftPosition, right, rightPosition) ->
                    Long.compare(type.getLong(left, leftPosition), type.getLong(right, rightPosition));
            case TimestampType _ -> (left, leftPosition, right, rightPosition) -> {
                LongTimestamp a = (LongTimestamp) type.getObject(left, leftPosition);
                LongTimestamp b = (LongTimestamp) type.getObject(right, rightPosition);
                int result = Long.compare(a.getEpochMicros(), b.getEpochMicros());
                return result != 0 ? result : Integer.compare(a.getPicosOfMicro(), b.getPicosOfMicro());
            };
            case TimestampWithTimeZoneType timestamp when timestamp.isShort() -> (left, leftPosition, right, rightPosition) ->
                    Long.compare(unpackMillisUtc(type.getLong(left, leftPosition)), unpackMillisUtc(type.getLong(right, rightPosition)));
            case TimestampWithTimeZoneType _ -> (left, leftPosition, right, rightPosition) -> {
                LongTimestampWithTimeZone a = (LongTimestampWithTimeZone) type.getObject(left, leftPosition);
                LongTimestampWithTimeZone b = (LongTimestampWithTimeZone) type.getObject(right, rightPosition);
                int result = Long.compare(a.getEpochMillis(), b.getEpochMillis());
                return result != 0 ? result : Integer.compare(a.getPicosOfMilli(), b.getPicosOfMilli());
            };
            case BooleanType _ -> (left, leftPosition, right, rightPosition) ->
                    Boolean.compare(BooleanType.BOOLEAN.getBoolean(left, leftPosition), BooleanType.BOOLEAN.getBoolean(right, rightPosition));
            case DoubleType _ -> (left, leftPosition, right, rightPosition) ->
                    compareFloating(DoubleType.DOUBLE.getDouble(left, leftPosition), DoubleType.DOUBLE.getDouble(right, rightPosition));
            case RealType _ -> (left, leftPosition, right, rightPosition) ->
                    compareFloating(RealType.REAL.getFloat(left, leftPosition), RealType.REAL.getFloat(right, rightPosition));
            case VarcharType _, VarbinaryType _ -> BlockValueComparator::compareBytes;
            case CharType _ -> BlockValueComparator::compareChars;
            default -> throw new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Values of type %s cannot be primary-key or sequence fields: Paimon defines no order for them".formatted(type));
        };
    }

    // Paimon's generated comparator: a > b ? 1 : a < b ? -1 : 0
    private static int compareFloating(double left, double right)
    {
        if (left > right) {
            return 1;
        }
        return left < right ? -1 : 0;
    }

    private static int compareChars(Block left, int leftPosition, Block right, int rightPosition)
    {
        VariableWidthBlock leftValues = (VariableWidthBlock) left.getUnderlyingValueBlock();
        VariableWidthBlock rightValues = (VariableWidthBlock) right.getUnderlyingValueBlock();
        int leftValuePosition = left.getUnderlyingValuePosition(leftPosition);
        int rightValuePosition = right.getUnderlyingValuePosition(rightPosition);
        Slice leftSlice = leftValues.getRawSlice();
        Slice rightSlice = rightValues.getRawSlice();
        int leftOffset = leftValues.getRawSliceOffset(leftValuePosition);
        int rightOffset = rightValues.getRawSliceOffset(rightValuePosition);
        int leftLength = leftValues.getSliceLength(leftValuePosition);
        int rightLength = rightValues.getSliceLength(rightValuePosition);
        int common = Math.min(leftLength, rightLength);
        int result = leftSlice.compareTo(leftOffset, common, rightSlice, rightOffset, common);
        if (result != 0) {
            return result;
        }
        // the shorter value goes on with spaces: the first byte of the longer one that is not a space decides
        for (int i = common; i < leftLength; i++) {
            int value = leftSlice.getByte(leftOffset + i) & 0xFF;
            if (value != ' ') {
                return value < ' ' ? -1 : 1;
            }
        }
        for (int i = common; i < rightLength; i++) {
            int value = rightSlice.getByte(rightOffset + i) & 0xFF;
            if (value != ' ') {
                return value < ' ' ? 1 : -1;
            }
        }
        return 0;
    }

    private static int compareBytes(Block left, int leftPosition, Block right, int rightPosition)
    {
        VariableWidthBlock leftValues = (VariableWidthBlock) left.getUnderlyingValueBlock();
        VariableWidthBlock rightValues = (VariableWidthBlock) right.getUnderlyingValueBlock();
        int leftValuePosition = left.getUnderlyingValuePosition(leftPosition);
        int rightValuePosition = right.getUnderlyingValuePosition(rightPosition);
        Slice leftSlice = leftValues.getRawSlice();
        Slice rightSlice = rightValues.getRawSlice();
        // Slice comparison is unsigned bytewise, then shorter first: Paimon's order of UTF-8 strings and binaries
        return leftSlice.compareTo(
                leftValues.getRawSliceOffset(leftValuePosition),
                leftValues.getSliceLength(leftValuePosition),
                rightSlice,
                rightValues.getRawSliceOffset(rightValuePosition),
                rightValues.getSliceLength(rightValuePosition));
    }
}
