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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;

/**
 * Paimon's order of values of one type (paimon-format.md §10): signed numbers, false before true, strings and
 * binaries bytewise unsigned then shorter first, timestamps by millisecond then nanosecond, nulls first. Compares
 * decoded values (Java objects): the min/max statistics of data files, their key ranges among them; the merge
 * compares values in blocks with {@code merge.BlockValueComparator}, in the same order (NaN equals everything).
 */
public final class StatsValueComparator
{
    private StatsValueComparator() {}

    @SuppressWarnings("unchecked")
    public static int compare(DataType type, Object left, Object right)
    {
        if (left == null || right == null) {
            return left == null ? (right == null ? 0 : -1) : 1;
        }
        return switch (type) {
            case DataType.FloatType _ -> compareFloating((Float) left, (Float) right);
            case DataType.DoubleType _ -> compareFloating((Double) left, (Double) right);
            case DataType.BooleanType _, DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _, DataType.BigIntType _, DataType.DateType _, DataType.TimeType _ ->
                    ((Comparable<Object>) left).compareTo(right);
            case DataType.DecimalType _ -> ((BigDecimal) left).compareTo((BigDecimal) right);
            case DataType.CharType _, DataType.VarCharType _ -> Arrays.compareUnsigned(
                    ((String) left).getBytes(StandardCharsets.UTF_8),
                    ((String) right).getBytes(StandardCharsets.UTF_8));
            case DataType.BinaryType _, DataType.VarBinaryType _ -> Arrays.compareUnsigned((byte[]) left, (byte[]) right);
            case DataType.TimestampType _, DataType.LocalZonedTimestampType _ -> compareTimestamps((Timestamp) left, (Timestamp) right);
            case DataType.ArrayType array -> compareLists(array.elementType(), (List<Object>) left, (List<Object>) right);
            default -> throw new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Values of type %s have no order in Paimon statistics".formatted(type.asSqlString()));
        };
    }

    public static boolean isOrdered(DataType type)
    {
        return !(type instanceof DataType.MapType || type instanceof DataType.MultisetType || type instanceof DataType.RowType
                || type instanceof DataType.VariantType || type instanceof DataType.BlobType || type instanceof DataType.VectorType);
    }

    // Paimon's generated comparator: a > b ? 1 : a < b ? -1 : 0, so NaN equals everything
    private static int compareFloating(double left, double right)
    {
        if (left > right) {
            return 1;
        }
        return left < right ? -1 : 0;
    }

    private static int compareTimestamps(Timestamp left, Timestamp right)
    {
        int result = Long.compare(left.epochMillis(), right.epochMillis());
        return result != 0 ? result : Integer.compare(left.nanosOfMillisecond(), right.nanosOfMillisecond());
    }

    private static int compareLists(DataType elementType, List<Object> left, List<Object> right)
    {
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            int result = compare(elementType, left.get(i), right.get(i));
            if (result != 0) {
                return result;
            }
        }
        return Integer.compare(left.size(), right.size());
    }
}
