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
package io.trino.plugin.paimon.read;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Int128;

import java.math.BigDecimal;
import java.math.BigInteger;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Converts values between the Java objects of a {@code BinaryRow} and Trino's native values, for the types whose
 * order is the same in Paimon and in Trino (integers, dates, decimals, booleans, strings and binaries compared
 * bytewise unsigned), so that partitions, buckets and key ranges can be judged against a query's domains. Other
 * types convert to nothing, and nothing is pruned on them.
 */
final class NativeValues
{
    private NativeValues() {}

    static boolean isConvertible(DataType type)
    {
        return switch (type) {
            case DataType.BooleanType _, DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _, DataType.BigIntType _, DataType.DateType _, DataType.DecimalType _, DataType.VarCharType _, DataType.BinaryType _, DataType.VarBinaryType _ -> true;
            default -> false;
        };
    }

    /** The Trino native value of a binary-row value of a convertible type (null stays null). */
    static Object toNative(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case DataType.BooleanType _ -> value;
            case DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _, DataType.BigIntType _, DataType.DateType _ -> ((Number) value).longValue();
            case DataType.DecimalType decimal -> decimal.precision() <= 18
                    ? ((BigDecimal) value).unscaledValue().longValueExact()
                    : Int128.valueOf(((BigDecimal) value).unscaledValue());
            case DataType.VarCharType _ -> Slices.utf8Slice((String) value);
            case DataType.BinaryType _, DataType.VarBinaryType _ -> Slices.wrappedBuffer((byte[]) value);
            default -> throw new TrinoException(PAIMON_INTERNAL_ERROR, "Not a type pruning converts: " + type);
        };
    }

    /** The binary-row value of a Trino native value of a convertible type. */
    static Object toBinaryRowValue(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case DataType.BooleanType _ -> value;
            case DataType.TinyIntType _ -> (byte) (long) value;
            case DataType.SmallIntType _ -> (short) (long) value;
            case DataType.IntType _, DataType.DateType _ -> (int) (long) value;
            case DataType.BigIntType _ -> value;
            case DataType.DecimalType decimal -> value instanceof Int128 int128
                    ? new BigDecimal(int128.toBigInteger(), decimal.scale())
                    : new BigDecimal(BigInteger.valueOf((long) value), decimal.scale());
            case DataType.VarCharType _ -> ((Slice) value).toString(UTF_8);
            case DataType.BinaryType _, DataType.VarBinaryType _ -> ((Slice) value).getBytes();
            default -> throw new TrinoException(PAIMON_INTERNAL_ERROR, "Not a type pruning converts: " + type);
        };
    }
}
