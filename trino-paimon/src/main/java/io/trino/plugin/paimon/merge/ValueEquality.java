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
import io.trino.spi.block.Block;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;

import java.util.List;

import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.lang.Double.doubleToLongBits;
import static java.lang.Double.doubleToRawLongBits;
import static java.lang.Float.floatToIntBits;
import static java.lang.Float.floatToRawIntBits;
import static java.lang.Float.intBitsToFloat;
import static java.util.Objects.requireNonNull;

/**
 * Equality of two values of one type at positions of blocks, in one of the ways Paimon's collection aggregates
 * compare values (merge-semantics §7.2), with a hash consistent with it. Nulls are equal to nulls only.
 */
public final class ValueEquality
{
    public enum Mode
    {
        /**
         * Java's {@code equals} on Paimon's internal objects (hash sets and maps of elements, keys): floating point
         * by bits with one NaN, so NaN equals NaN and 0.0 differs from -0.0. A binary value is a {@code byte[]}
         * compared by identity: Parquet's dictionary hands out one array per distinct value of a file, and a key
         * has one record per file, so binaries are equal by content within one block (one record's collection)
         * and never across blocks.
         */
        JAVA_EQUALS,
        /** Paimon's generated record equaliser: floating point with {@code ==}, binaries and nested values by content. */
        RECORD_EQUALISER,
        /** Equality of serialized binary rows (projected nested keys): every value by its bytes, floating point by raw bits. */
        BINARY_ROW,
    }

    private final Type type;
    private final Mode mode;
    private final ValueEquality[] children;

    private ValueEquality(Type type, Mode mode)
    {
        this.type = requireNonNull(type, "type is null");
        this.mode = requireNonNull(mode, "mode is null");
        // values nested in arrays, maps and rows compare by content in every mode
        Mode nested = mode == Mode.JAVA_EQUALS ? Mode.RECORD_EQUALISER : mode;
        List<Type> parameters = type.getTypeParameters();
        this.children = new ValueEquality[parameters.size()];
        for (int i = 0; i < children.length; i++) {
            children[i] = new ValueEquality(parameters.get(i), nested);
        }
    }

    public static ValueEquality of(Type type, Mode mode)
    {
        return new ValueEquality(type, mode);
    }

    public boolean equal(Block left, int leftPosition, Block right, int rightPosition)
    {
        boolean leftNull = left.isNull(leftPosition);
        boolean rightNull = right.isNull(rightPosition);
        if (leftNull || rightNull) {
            return leftNull && rightNull;
        }
        return switch (type) {
            case DoubleType _ -> {
                double a = DoubleType.DOUBLE.getDouble(left, leftPosition);
                double b = DoubleType.DOUBLE.getDouble(right, rightPosition);
                boolean equal = switch (mode) {
                    case JAVA_EQUALS -> doubleToLongBits(a) == doubleToLongBits(b);
                    case RECORD_EQUALISER -> a == b;
                    case BINARY_ROW -> doubleToRawLongBits(a) == doubleToRawLongBits(b);
                };
                yield equal;
            }
            case RealType _ -> {
                int a = (int) RealType.REAL.getLong(left, leftPosition);
                int b = (int) RealType.REAL.getLong(right, rightPosition);
                boolean equal = switch (mode) {
                    case JAVA_EQUALS -> floatToIntBits(intBitsToFloat(a)) == floatToIntBits(intBitsToFloat(b));
                    case RECORD_EQUALISER -> intBitsToFloat(a) == intBitsToFloat(b);
                    case BINARY_ROW -> a == b;
                };
                yield equal;
            }
            case VarbinaryType _ when mode == Mode.JAVA_EQUALS -> left == right && type.getSlice(left, leftPosition).equals(type.getSlice(right, rightPosition));
            case BooleanType _ -> BooleanType.BOOLEAN.getBoolean(left, leftPosition) == BooleanType.BOOLEAN.getBoolean(right, rightPosition);
            case TimestampWithTimeZoneType timestamp when timestamp.isShort() -> unpackMillisUtc(type.getLong(left, leftPosition)) == unpackMillisUtc(type.getLong(right, rightPosition));
            case TimestampWithTimeZoneType _ -> {
                LongTimestampWithTimeZone a = (LongTimestampWithTimeZone) type.getObject(left, leftPosition);
                LongTimestampWithTimeZone b = (LongTimestampWithTimeZone) type.getObject(right, rightPosition);
                yield a.getEpochMillis() == b.getEpochMillis() && a.getPicosOfMilli() == b.getPicosOfMilli();
            }
            case ArrayType _ -> arraysEqual((Block) type.getObject(left, leftPosition), (Block) type.getObject(right, rightPosition));
            case MapType _ -> mapsEqual((SqlMap) type.getObject(left, leftPosition), (SqlMap) type.getObject(right, rightPosition));
            case RowType _ -> rowsEqual((SqlRow) type.getObject(left, leftPosition), (SqlRow) type.getObject(right, rightPosition));
            default -> {
                Class<?> javaType = type.getJavaType();
                if (javaType == long.class) {
                    yield type.getLong(left, leftPosition) == type.getLong(right, rightPosition);
                }
                if (javaType == Slice.class) {
                    yield type.getSlice(left, leftPosition).equals(type.getSlice(right, rightPosition));
                }
                // Int128, LongTimestamp, ...: value objects
                yield type.getObject(left, leftPosition).equals(type.getObject(right, rightPosition));
            }
        };
    }

    public int hash(Block block, int position)
    {
        if (block.isNull(position)) {
            return 0;
        }
        return switch (type) {
            case DoubleType _ -> {
                double value = DoubleType.DOUBLE.getDouble(block, position);
                int hash = switch (mode) {
                    case JAVA_EQUALS -> Long.hashCode(doubleToLongBits(value));
                    // 0.0 == -0.0, so both hash alike
                    case RECORD_EQUALISER -> value == 0 ? 0 : Long.hashCode(doubleToLongBits(value));
                    case BINARY_ROW -> Long.hashCode(doubleToRawLongBits(value));
                };
                yield hash;
            }
            case RealType _ -> {
                float value = RealType.REAL.getFloat(block, position);
                int hash = switch (mode) {
                    case JAVA_EQUALS -> floatToIntBits(value);
                    case RECORD_EQUALISER -> value == 0 ? 0 : floatToIntBits(value);
                    case BINARY_ROW -> floatToRawIntBits(value);
                };
                yield hash;
            }
            case BooleanType _ -> Boolean.hashCode(BooleanType.BOOLEAN.getBoolean(block, position));
            case TimestampWithTimeZoneType timestamp when timestamp.isShort() -> Long.hashCode(unpackMillisUtc(type.getLong(block, position)));
            case TimestampWithTimeZoneType _ -> Long.hashCode(((LongTimestampWithTimeZone) type.getObject(block, position)).getEpochMillis());
            case ArrayType _ -> {
                Block elements = (Block) type.getObject(block, position);
                int hash = 1;
                for (int i = 0; i < elements.getPositionCount(); i++) {
                    hash = 31 * hash + children[0].hash(elements, i);
                }
                yield hash;
            }
            // entries compare in any order, so the hash must not depend on it
            case MapType _ -> ((SqlMap) type.getObject(block, position)).getSize();
            case RowType _ -> {
                SqlRow row = (SqlRow) type.getObject(block, position);
                int hash = 1;
                for (int field = 0; field < children.length; field++) {
                    hash = 31 * hash + children[field].hash(row.getRawFieldBlock(field), row.getRawIndex());
                }
                yield hash;
            }
            default -> {
                Class<?> javaType = type.getJavaType();
                if (javaType == long.class) {
                    yield Long.hashCode(type.getLong(block, position));
                }
                if (javaType == Slice.class) {
                    yield type.getSlice(block, position).hashCode();
                }
                yield type.getObject(block, position).hashCode();
            }
        };
    }

    private boolean arraysEqual(Block left, Block right)
    {
        if (left.getPositionCount() != right.getPositionCount()) {
            return false;
        }
        for (int i = 0; i < left.getPositionCount(); i++) {
            if (!children[0].equal(left, i, right, i)) {
                return false;
            }
        }
        return true;
    }

    private boolean mapsEqual(SqlMap left, SqlMap right)
    {
        if (left.getSize() != right.getSize()) {
            return false;
        }
        for (int i = 0; i < left.getSize(); i++) {
            int leftEntry = left.getRawOffset() + i;
            boolean found = false;
            for (int j = 0; j < right.getSize() && !found; j++) {
                int rightEntry = right.getRawOffset() + j;
                found = children[0].equal(left.getRawKeyBlock(), leftEntry, right.getRawKeyBlock(), rightEntry)
                        && children[1].equal(left.getRawValueBlock(), leftEntry, right.getRawValueBlock(), rightEntry);
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private boolean rowsEqual(SqlRow left, SqlRow right)
    {
        for (int field = 0; field < children.length; field++) {
            if (!children[field].equal(left.getRawFieldBlock(field), left.getRawIndex(), right.getRawFieldBlock(field), right.getRawIndex())) {
                return false;
            }
        }
        return true;
    }
}
