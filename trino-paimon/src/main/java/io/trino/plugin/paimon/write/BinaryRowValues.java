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

import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.row.Timestamp;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.Type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.spi.type.Chars.padSpaces;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Turns Trino values at block positions into the Java objects of a {@link BinaryRow} (see its class comment), so that
 * partitions, keys, bucket keys and statistics of written files are encoded exactly as Paimon encodes them.
 * Defined for the atomic types; nested values have no binary-row form in these places.
 */
public final class BinaryRowValues
{
    private static final long PICOSECONDS_PER_MILLISECOND = 1_000_000_000L;

    private BinaryRowValues() {}

    /** The binary-row value at the position (null for a null value). */
    public static Object value(DataType type, Type trinoType, Block block, int position)
    {
        if (block.isNull(position)) {
            return null;
        }
        return switch (type) {
            case DataType.BooleanType _ -> trinoType.getBoolean(block, position);
            case DataType.TinyIntType _ -> (byte) trinoType.getLong(block, position);
            case DataType.SmallIntType _ -> (short) trinoType.getLong(block, position);
            case DataType.IntType _, DataType.DateType _ -> (int) trinoType.getLong(block, position);
            case DataType.BigIntType _ -> trinoType.getLong(block, position);
            case DataType.FloatType _ -> Float.intBitsToFloat((int) trinoType.getLong(block, position));
            case DataType.DoubleType _ -> trinoType.getDouble(block, position);
            case DataType.DecimalType decimal -> decimal.precision() <= 18
                    ? new BigDecimal(BigInteger.valueOf(trinoType.getLong(block, position)), decimal.scale())
                    : new BigDecimal(((Int128) trinoType.getObject(block, position)).toBigInteger(), decimal.scale());
            // padded, as Paimon stores CHAR values (see CharPadding)
            case DataType.CharType charType -> padSpaces(trinoType.getSlice(block, position), charType.length()).toString(UTF_8);
            case DataType.VarCharType _ -> trinoType.getSlice(block, position).toString(UTF_8);
            case DataType.BinaryType _, DataType.VarBinaryType _ -> trinoType.getSlice(block, position).getBytes();
            // Trino keeps TIME as picoseconds of the day, Paimon as milliseconds
            case DataType.TimeType _ -> (int) (trinoType.getLong(block, position) / PICOSECONDS_PER_MILLISECOND);
            case DataType.TimestampType timestamp -> timestamp.precision() <= 6
                    ? Timestamp.ofEpochMicros(trinoType.getLong(block, position))
                    : longTimestamp((LongTimestamp) trinoType.getObject(block, position));
            case DataType.LocalZonedTimestampType timestamp -> timestamp.precision() <= 3
                    ? new Timestamp(unpackMillisUtc(trinoType.getLong(block, position)), 0)
                    : longTimestampWithTimeZone((LongTimestampWithTimeZone) trinoType.getObject(block, position));
            default -> throw new TrinoException(PAIMON_INTERNAL_ERROR, "Type has no binary-row value here: " + type.asSqlString());
        };
    }

    /** A binary row of the values at one position of the blocks. */
    public static BinaryRow row(List<DataType> types, List<Type> trinoTypes, Block[] blocks, int position)
    {
        BinaryRowWriter writer = new BinaryRowWriter(types.size());
        for (int i = 0; i < types.size(); i++) {
            writer.write(i, types.get(i), value(types.get(i), trinoTypes.get(i), blocks[i], position));
        }
        return writer.complete();
    }

    private static Timestamp longTimestamp(LongTimestamp value)
    {
        long epochMicros = value.getEpochMicros();
        int nanos = Math.floorMod(epochMicros, 1000) * 1000 + value.getPicosOfMicro() / 1000;
        return new Timestamp(Math.floorDiv(epochMicros, 1000), nanos);
    }

    private static Timestamp longTimestampWithTimeZone(LongTimestampWithTimeZone value)
    {
        return new Timestamp(value.getEpochMillis(), value.getPicosOfMilli() / 1000);
    }
}
