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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkElementIndex;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Paimon's binary row: a header byte (the row kind), null bits, one 8-byte little-endian slot per field and a
 * variable-length part. Partitions, keys, bucket keys and statistics are stored and compared in this form, so the
 * bytes must be exactly Paimon's (see paimon-format.md §5). Values are exchanged as plain Java objects:
 * Boolean, Byte, Short, Integer (INT, DATE days, TIME millis), Long, Float, Double, BigDecimal, String,
 * byte[], {@link Timestamp} and List (ARRAY).
 */
public final class BinaryRow
{
    public static final BinaryRow EMPTY = new BinaryRow(0, new byte[8]);

    private final int arity;
    private final byte[] bytes;

    public BinaryRow(int arity, byte[] bytes)
    {
        checkArgument(arity >= 0, "arity is negative: %s", arity);
        requireNonNull(bytes, "bytes is null");
        checkArgument(bytes.length >= fixedLength(arity), "row of arity %s needs at least %s bytes, got %s", arity, fixedLength(arity), bytes.length);
        this.arity = arity;
        this.bytes = bytes;
    }

    /** Size of the null-bit region (which also holds the header byte). */
    public static int nullBitsLength(int arity)
    {
        return ((arity + 63 + 8) / 64) * 8;
    }

    public static int fixedLength(int arity)
    {
        return nullBitsLength(arity) + 8 * arity;
    }

    public int arity()
    {
        return arity;
    }

    /** The row bytes, header first, without the arity prefix. Do not modify. */
    public byte[] bytes()
    {
        return bytes;
    }

    /** The form stored in manifests: a big-endian int32 arity followed by the row bytes. */
    public byte[] serialize()
    {
        byte[] result = new byte[4 + bytes.length];
        result[0] = (byte) (arity >>> 24);
        result[1] = (byte) (arity >>> 16);
        result[2] = (byte) (arity >>> 8);
        result[3] = (byte) arity;
        System.arraycopy(bytes, 0, result, 4, bytes.length);
        return result;
    }

    /**
     * @throws IllegalArgumentException if the bytes are not a serialized row
     */
    public static BinaryRow deserialize(byte[] serialized)
    {
        return deserialize(serialized, 0, serialized.length);
    }

    /**
     * The row serialized in {@code serialized[offset, offset + length)}; the bytes are copied.
     *
     * @throws IllegalArgumentException if the bytes are not a serialized row
     */
    public static BinaryRow deserialize(byte[] serialized, int offset, int length)
    {
        checkArgument(length >= 4, "serialized row is shorter than its arity prefix: %s bytes", length);
        int arity = ((serialized[offset] & 0xFF) << 24) | ((serialized[offset + 1] & 0xFF) << 16) | ((serialized[offset + 2] & 0xFF) << 8) | (serialized[offset + 3] & 0xFF);
        checkArgument(arity >= 0 && arity < 1 << 16, "implausible row arity: %s", arity);
        return new BinaryRow(arity, Arrays.copyOfRange(serialized, offset + 4, offset + length));
    }

    /** Paimon's {@code BinaryRow.hashCode()}: MurmurHash3 x86_32 with seed 42 over the row bytes. */
    public int paimonHashCode()
    {
        return MurmurHash3.hashWords(bytes, 0, bytes.length, MurmurHash3.PAIMON_SEED);
    }

    public int rowKind()
    {
        return bytes[0];
    }

    public boolean isNullAt(int position)
    {
        checkElementIndex(position, arity);
        int bit = position + 8;
        return (bytes[bit >>> 3] & (1 << (bit & 7))) != 0;
    }

    /** The value of a field, or null; see the class comment for the Java types. */
    public Object get(int position, DataType type)
    {
        if (isNullAt(position)) {
            return null;
        }
        return readValue(bytes, 0, fieldOffset(position), type);
    }

    public List<Object> values(List<DataType> types)
    {
        checkArgument(types.size() == arity, "row has %s fields, %s types given", arity, types.size());
        List<Object> values = new ArrayList<>(arity);
        for (int i = 0; i < arity; i++) {
            values.add(get(i, types.get(i)));
        }
        return values;
    }

    private int fieldOffset(int position)
    {
        return nullBitsLength(arity) + 8 * position;
    }

    // base: start of the row or array that offsets in var-length slots are relative to
    static Object readValue(byte[] bytes, int base, int slot, DataType type)
    {
        return switch (type) {
            case DataType.BooleanType _ -> bytes[slot] != 0;
            case DataType.TinyIntType _ -> bytes[slot];
            case DataType.SmallIntType _ -> (short) ((bytes[slot] & 0xFF) | (bytes[slot + 1] << 8));
            case DataType.IntType _, DataType.DateType _, DataType.TimeType _ -> readInt(bytes, slot);
            case DataType.BigIntType _ -> readLong(bytes, slot);
            case DataType.FloatType _ -> Float.intBitsToFloat(readInt(bytes, slot));
            case DataType.DoubleType _ -> Double.longBitsToDouble(readLong(bytes, slot));
            case DataType.DecimalType decimal -> {
                if (isCompactDecimal(decimal.precision())) {
                    yield BigDecimal.valueOf(readLong(bytes, slot), decimal.scale());
                }
                long offsetAndLength = readLong(bytes, slot);
                int offset = base + (int) (offsetAndLength >>> 32);
                int length = (int) offsetAndLength;
                yield new BigDecimal(new BigInteger(Arrays.copyOfRange(bytes, offset, offset + length)), decimal.scale());
            }
            case DataType.TimestampType timestamp -> readTimestamp(bytes, base, slot, timestamp.precision());
            case DataType.LocalZonedTimestampType timestamp -> readTimestamp(bytes, base, slot, timestamp.precision());
            case DataType.CharType _, DataType.VarCharType _ -> new String(readBinary(bytes, base, slot), UTF_8);
            case DataType.BinaryType _, DataType.VarBinaryType _ -> readBinary(bytes, base, slot);
            case DataType.ArrayType array -> {
                long offsetAndSize = readLong(bytes, slot);
                yield readArray(bytes, base + (int) (offsetAndSize >>> 32), array.elementType());
            }
            default -> throw new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Values of type %s cannot be read from a binary row (partition, key or statistics)".formatted(type.asSqlString()));
        };
    }

    private static Timestamp readTimestamp(byte[] bytes, int base, int slot, int precision)
    {
        if (isCompactTimestamp(precision)) {
            return new Timestamp(readLong(bytes, slot), 0);
        }
        long offsetAndNanos = readLong(bytes, slot);
        return new Timestamp(readLong(bytes, base + (int) (offsetAndNanos >>> 32)), (int) offsetAndNanos);
    }

    private static byte[] readBinary(byte[] bytes, int base, int slot)
    {
        byte mark = bytes[slot + 7];
        if ((mark & 0x80) != 0) {
            // short values live inside the slot, their length in the low bits of the last byte
            return Arrays.copyOfRange(bytes, slot, slot + (mark & 0x7F));
        }
        long offsetAndLength = readLong(bytes, slot);
        int offset = base + (int) (offsetAndLength >>> 32);
        return Arrays.copyOfRange(bytes, offset, offset + (int) offsetAndLength);
    }

    private static List<Object> readArray(byte[] bytes, int start, DataType elementType)
    {
        int size = readInt(bytes, start);
        int elementsStart = start + BinaryRowWriter.arrayHeaderLength(size);
        int width = BinaryRowWriter.arrayElementWidth(elementType);
        List<Object> values = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            if ((bytes[start + 4 + (i >>> 3)] & (1 << (i & 7))) != 0) {
                values.add(null);
                continue;
            }
            int slot = elementsStart + i * width;
            values.add(switch (width) {
                case 1 -> elementType instanceof DataType.BooleanType ? (Object) (bytes[slot] != 0) : (Object) bytes[slot];
                case 2 -> (short) ((bytes[slot] & 0xFF) | (bytes[slot + 1] << 8));
                case 4 -> elementType instanceof DataType.FloatType ? (Object) Float.intBitsToFloat(readInt(bytes, slot)) : (Object) readInt(bytes, slot);
                default -> readValue(bytes, start, slot, elementType);
            });
        }
        return Collections.unmodifiableList(values);
    }

    static boolean isCompactDecimal(int precision)
    {
        return precision <= 18;
    }

    static boolean isCompactTimestamp(int precision)
    {
        return precision <= 3;
    }

    static int readInt(byte[] bytes, int offset)
    {
        return (bytes[offset] & 0xFF) | ((bytes[offset + 1] & 0xFF) << 8) | ((bytes[offset + 2] & 0xFF) << 16) | ((bytes[offset + 3] & 0xFF) << 24);
    }

    static long readLong(byte[] bytes, int offset)
    {
        return (readInt(bytes, offset) & 0xFFFF_FFFFL) | ((long) readInt(bytes, offset + 4) << 32);
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof BinaryRow other && arity == other.arity && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode()
    {
        return paimonHashCode();
    }

    @Override
    public String toString()
    {
        return "BinaryRow{arity=%s, bytes=%s}".formatted(arity, HexFormat.of().formatHex(bytes));
    }
}
