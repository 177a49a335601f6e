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
package io.trino.plugin.paimon.format.row;

import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkElementIndex;
import static com.google.common.base.Preconditions.checkState;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Builds the canonical bytes of a {@link BinaryRow}, exactly as Paimon's writer lays them out: fields are
 * written in position order, variable-length chunks appended in that order and padded with zeros to 8 bytes,
 * and a null non-compact DECIMAL or TIMESTAMP still reserves its chunk (Paimon compares and hashes rows
 * bytewise, so any other layout of the same values would be a different partition or bucket).
 */
public final class BinaryRowWriter
{
    private final int arity;
    private final int nullBitsLength;
    private byte[] buffer;
    private int cursor;
    private int nextPosition;

    public BinaryRowWriter(int arity)
    {
        checkArgument(arity >= 0, "arity is negative: %s", arity);
        this.arity = arity;
        this.nullBitsLength = BinaryRow.nullBitsLength(arity);
        this.buffer = new byte[Math.max(64, BinaryRow.fixedLength(arity))];
        this.cursor = BinaryRow.fixedLength(arity);
    }

    /** Encodes one row of the given types and values (see {@link BinaryRow} for the Java types). */
    public static BinaryRow toBinaryRow(List<DataType> types, List<?> values)
    {
        checkArgument(types.size() == values.size(), "%s types but %s values", types.size(), values.size());
        BinaryRowWriter writer = new BinaryRowWriter(types.size());
        for (int i = 0; i < types.size(); i++) {
            writer.write(i, types.get(i), values.get(i));
        }
        return writer.complete();
    }

    public BinaryRowWriter write(int position, DataType type, Object value)
    {
        checkElementIndex(position, arity);
        checkArgument(position == nextPosition, "fields must be written in order: expected %s, got %s", nextPosition, position);
        nextPosition++;
        int slot = nullBitsLength + 8 * position;
        if (value == null) {
            setNullBit(position);
            // Paimon keeps the chunk of a null non-compact value, so later offsets match its writer
            if (type instanceof DataType.DecimalType decimal && !BinaryRow.isCompactDecimal(decimal.precision())) {
                writeLong(slot, (long) reserve(16) << 32);
            }
            else if (isNonCompactTimestamp(type)) {
                writeLong(slot, (long) reserve(8) << 32);
            }
            return this;
        }
        writeValue(slot, type, value);
        return this;
    }

    public BinaryRow complete()
    {
        checkState(nextPosition == arity, "only %s of %s fields written", nextPosition, arity);
        return new BinaryRow(arity, Arrays.copyOf(buffer, cursor));
    }

    private void setNullBit(int position)
    {
        int bit = position + 8;
        buffer[bit >>> 3] |= (byte) (1 << (bit & 7));
    }

    // reserves a zeroed chunk of at least length bytes, rounded up to 8, and returns its offset
    private int reserve(int length)
    {
        int padded = roundTo8(length);
        ensureCapacity(cursor + padded);
        int offset = cursor;
        cursor += padded;
        return offset;
    }

    private void ensureCapacity(int size)
    {
        if (size > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(size, buffer.length * 2));
        }
    }

    private void writeLong(int offset, long value)
    {
        writeLong(buffer, offset, value);
    }

    // appends data in a zeroed chunk of reservedLength (at least the data length) bytes and returns its offset
    private int appendChunk(byte[] data, int reservedLength)
    {
        int offset = reserve(reservedLength);
        System.arraycopy(data, 0, buffer, offset, data.length);
        return offset;
    }

    // Writes a non-null value into the 8-byte slot at the given offset of this row (or array)
    private void writeValue(int slot, DataType type, Object value)
    {
        byte[] target = buffer;
        switch (type) {
            case DataType.BooleanType _ -> target[slot] = (byte) (((Boolean) value) ? 1 : 0);
            case DataType.TinyIntType _ -> target[slot] = (Byte) value;
            case DataType.SmallIntType _ -> writeShort(target, slot, (Short) value);
            case DataType.IntType _, DataType.DateType _, DataType.TimeType _ -> writeInt(target, slot, (Integer) value);
            case DataType.BigIntType _ -> writeLong(target, slot, (Long) value);
            case DataType.FloatType _ -> writeInt(target, slot, Float.floatToIntBits((Float) value));
            case DataType.DoubleType _ -> writeLong(target, slot, Double.doubleToLongBits((Double) value));
            case DataType.DecimalType decimal -> {
                BigInteger unscaled = unscaled((BigDecimal) value, decimal);
                if (BinaryRow.isCompactDecimal(decimal.precision())) {
                    writeLong(target, slot, unscaled.longValueExact());
                }
                else {
                    byte[] data = unscaled.toByteArray();
                    checkArgument(data.length <= 16, "decimal value too large: %s", value);
                    int offset = appendChunk(data, 16);
                    writeLong(buffer, slot, ((long) offset << 32) | data.length);
                }
            }
            case DataType.TimestampType timestamp -> writeTimestamp(slot, (Timestamp) value, timestamp.precision());
            case DataType.LocalZonedTimestampType timestamp -> writeTimestamp(slot, (Timestamp) value, timestamp.precision());
            case DataType.CharType _, DataType.VarCharType _ -> writeBinary(slot, ((String) value).getBytes(UTF_8));
            case DataType.BinaryType _, DataType.VarBinaryType _ -> writeBinary(slot, (byte[]) value);
            case DataType.ArrayType array -> {
                byte[] data = encodeArray(array.elementType(), (List<?>) value);
                int offset = appendChunk(data, data.length);
                writeLong(buffer, slot, ((long) offset << 32) | data.length);
            }
            default -> throw new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Values of type %s cannot be written to a binary row (partition, key or statistics)".formatted(type.asSqlString()));
        }
    }

    private void writeTimestamp(int slot, Timestamp value, int precision)
    {
        if (BinaryRow.isCompactTimestamp(precision)) {
            writeLong(buffer, slot, value.epochMillis());
            return;
        }
        byte[] millis = new byte[8];
        writeLong(millis, 0, value.epochMillis());
        int offset = appendChunk(millis, 8);
        writeLong(buffer, slot, ((long) offset << 32) | value.nanosOfMillisecond());
    }

    private void writeBinary(int slot, byte[] data)
    {
        if (data.length <= 7) {
            System.arraycopy(data, 0, buffer, slot, data.length);
            buffer[slot + 7] = (byte) (0x80 | data.length);
            return;
        }
        int offset = appendChunk(data, data.length);
        writeLong(buffer, slot, ((long) offset << 32) | data.length);
    }

    /** Encodes a BinaryArray: int32 size, null bits, fixed-width element slots padded to 8, then chunks. */
    private static byte[] encodeArray(DataType elementType, List<?> values)
    {
        int size = values.size();
        int width = arrayElementWidth(elementType);
        int fixedLength = roundTo8(arrayHeaderLength(size) + size * width);
        BinaryRowWriter nested = new BinaryRowWriter(0);
        nested.buffer = new byte[Math.max(fixedLength, 8)];
        nested.cursor = fixedLength;
        writeInt(nested.buffer, 0, size);
        int elementsStart = arrayHeaderLength(size);
        for (int i = 0; i < size; i++) {
            Object value = values.get(i);
            int slot = elementsStart + i * width;
            if (value == null) {
                nested.buffer[4 + (i >>> 3)] |= (byte) (1 << (i & 7));
                continue;
            }
            switch (width) {
                case 1 -> nested.buffer[slot] = value instanceof Boolean bool ? (byte) (bool ? 1 : 0) : (Byte) value;
                case 2 -> writeShort(nested.buffer, slot, (Short) value);
                case 4 -> writeInt(nested.buffer, slot, value instanceof Float real ? Float.floatToIntBits(real) : (Integer) value);
                default -> nested.writeValue(slot, elementType, value);
            }
        }
        return Arrays.copyOf(nested.buffer, nested.cursor);
    }

    static int arrayHeaderLength(int size)
    {
        return 4 + ((size + 31) / 32) * 4;
    }

    static int arrayElementWidth(DataType elementType)
    {
        return switch (elementType) {
            case DataType.BooleanType _, DataType.TinyIntType _ -> 1;
            case DataType.SmallIntType _ -> 2;
            case DataType.IntType _, DataType.FloatType _, DataType.DateType _, DataType.TimeType _ -> 4;
            default -> 8;
        };
    }

    private static BigInteger unscaled(BigDecimal value, DataType.DecimalType type)
    {
        BigDecimal scaled = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
        checkArgument(scaled.precision() <= type.precision(), "value %s does not fit %s", value, type.asSqlString());
        return scaled.unscaledValue();
    }

    private static boolean isNonCompactTimestamp(DataType type)
    {
        return switch (type) {
            case DataType.TimestampType timestamp -> !BinaryRow.isCompactTimestamp(timestamp.precision());
            case DataType.LocalZonedTimestampType timestamp -> !BinaryRow.isCompactTimestamp(timestamp.precision());
            default -> false;
        };
    }

    private static int roundTo8(int length)
    {
        return (length + 7) & ~7;
    }

    private static void writeShort(byte[] target, int offset, short value)
    {
        target[offset] = (byte) value;
        target[offset + 1] = (byte) (value >>> 8);
    }

    private static void writeInt(byte[] target, int offset, int value)
    {
        target[offset] = (byte) value;
        target[offset + 1] = (byte) (value >>> 8);
        target[offset + 2] = (byte) (value >>> 16);
        target[offset + 3] = (byte) (value >>> 24);
    }

    private static void writeLong(byte[] target, int offset, long value)
    {
        writeInt(target, offset, (int) value);
        writeInt(target, offset + 4, (int) (value >>> 32));
    }
}
