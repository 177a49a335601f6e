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
import io.trino.plugin.paimon.format.schema.DataType.ArrayType;
import io.trino.plugin.paimon.format.schema.DataType.BigIntType;
import io.trino.plugin.paimon.format.schema.DataType.BooleanType;
import io.trino.plugin.paimon.format.schema.DataType.DateType;
import io.trino.plugin.paimon.format.schema.DataType.DecimalType;
import io.trino.plugin.paimon.format.schema.DataType.DoubleType;
import io.trino.plugin.paimon.format.schema.DataType.FloatType;
import io.trino.plugin.paimon.format.schema.DataType.IntType;
import io.trino.plugin.paimon.format.schema.DataType.SmallIntType;
import io.trino.plugin.paimon.format.schema.DataType.TimestampType;
import io.trino.plugin.paimon.format.schema.DataType.TinyIntType;
import io.trino.plugin.paimon.format.schema.DataType.VarBinaryType;
import io.trino.plugin.paimon.format.schema.DataType.VarCharType;
import io.trino.plugin.paimon.table.BucketFunction;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test vectors of paimon-format.md §5.3, observed on rows Paimon 1.3.1 wrote: bytes, hash code and buckets.
 */
final class TestBinaryRow
{
    private static final DataType INT = new IntType(true);
    private static final DataType STRING = new VarCharType(true, Integer.MAX_VALUE);

    @Test
    void intValues()
    {
        assertVector(List.of(INT), Arrays.asList(1), "0000000000000000 0100000000000000", 1465514398, 0, 8);
        assertVector(List.of(INT), Arrays.asList(3), "0000000000000000 0300000000000000", -771300025, 1, 5);
        // no sign extension into the upper bytes
        assertVector(List.of(INT), Arrays.asList(-7), "0000000000000000 f9ffffff00000000", 1485184587, 1, 7);
        assertVector(List.of(new BigIntType(true)), Arrays.asList(1L), "0000000000000000 0100000000000000", 1465514398, 0, 8);
    }

    @Test
    void strings()
    {
        assertVector(List.of(STRING), Arrays.asList("abc"), "0000000000000000 6162630000000083", -101922419, 1, 9);
        assertVector(List.of(STRING), Arrays.asList("hello world"), "0000000000000000 0b00000010000000 68656c6c6f20776f726c640000000000", 161593394, 0, 4);
        assertVector(List.of(STRING), Arrays.asList((Object) null), "0001000000000000 0000000000000000", -1748325344, 0, 4);
        assertVector(List.of(INT, STRING), Arrays.asList(5, "k"), "0000000000000000 0500000000000000 6b00000000000081", -1569094072, 0, 2);
    }

    @Test
    void decimals()
    {
        assertVector(List.of(new DecimalType(true, 10, 2)), Arrays.asList(new BigDecimal("123.45")), "0000000000000000 3930000000000000", 767607022, 0, 2);
        assertVector(List.of(new DecimalType(true, 20, 2)), Arrays.asList(new BigDecimal("123.45")),
                "0000000000000000 0200000010000000 3039000000000000 0000000000000000", -118192725, 1, 5);
        // a null non-compact decimal still reserves its 16 bytes
        assertVector(List.of(new DecimalType(true, 20, 2)), Arrays.asList((Object) null),
                "0001000000000000 0000000010000000 0000000000000000 0000000000000000", -1380280760, 0, 0);
    }

    @Test
    void timestamps()
    {
        assertVector(List.of(new TimestampType(true, 3)), Arrays.asList(new Timestamp(1700000000123L, 0)), "0000000000000000 7b68e5cf8b010000", -1285420957, 1, 7);
        assertVector(List.of(new TimestampType(true, 6)), Arrays.asList(new Timestamp(1700000000123L, 456000)),
                "0000000000000000 40f5060010000000 7b68e5cf8b010000", 1196670069, 1, 9);
        assertVector(List.of(new TimestampType(true, 6)), Arrays.asList((Object) null),
                "0001000000000000 0000000010000000 0000000000000000", -340882661, 1, 1);
    }

    @Test
    void smallNumbersFloatingPointAndDates()
    {
        assertVector(List.of(new BooleanType(true), new TinyIntType(true), new SmallIntType(true)), Arrays.asList(true, (byte) 7, (short) -2),
                "0000000000000000 0100000000000000 0700000000000000 feff000000000000", 1826782178, 0, 8);
        assertVector(List.of(new DoubleType(true), new FloatType(true), new DateType(true)), Arrays.asList(1.5, 2.5f, 19000),
                "0000000000000000 000000000000f83f 0000204000000000 384a000000000000", 1170388369, 1, 9);
        assertVector(List.of(new VarBinaryType(true, Integer.MAX_VALUE)), Arrays.asList((Object) new byte[] {1, 2}), "0000000000000000 0102000000000082", -308248439, 1, 9);
    }

    @Test
    void arrays()
    {
        assertVector(List.of(new ArrayType(true, INT)), Arrays.asList(List.of(1, 2, 3)),
                "0000000000000000 1800000010000000 03000000 00000000 01000000 02000000 03000000 00000000", 1057545362, 0, 2);
        assertVector(List.of(new ArrayType(true, STRING)), Arrays.asList(Arrays.asList("a", null)),
                "0000000000000000 1800000010000000 02000000 02000000 6100000000000081 0000000000000000", 1753619775, 1, 5);
    }

    @Test
    void serializedFormHasBigEndianArityPrefix()
    {
        // the partition dt='2024-01-01' of paimon-format.md §5.4
        BinaryRow partition = BinaryRowWriter.toBinaryRow(List.of(STRING), List.of("2024-01-01"));
        assertThat(HexFormat.of().formatHex(partition.serialize()))
                .isEqualTo("00000001" + "0000000000000000" + "0a00000010000000" + "323032342d30312d3031000000000000");
        assertThat(BinaryRow.deserialize(partition.serialize())).isEqualTo(partition);
        assertThat(HexFormat.of().formatHex(BinaryRow.EMPTY.serialize())).isEqualTo("000000000000000000000000");
    }

    private static void assertVector(List<DataType> types, List<Object> values, String hex, int hashCode, int bucketOf2, int bucketOf10)
    {
        BinaryRow row = BinaryRowWriter.toBinaryRow(types, values);
        assertThat(HexFormat.of().formatHex(row.bytes())).isEqualTo(hex.replace(" ", ""));
        assertThat(row.paimonHashCode()).isEqualTo(hashCode);
        assertThat(BucketFunction.bucket(row, 2)).isEqualTo(bucketOf2);
        assertThat(BucketFunction.bucket(row, 10)).isEqualTo(bucketOf10);
        // and back
        List<Object> decoded = new BinaryRow(types.size(), row.bytes()).values(types);
        assertThat(decoded).hasSize(values.size());
        for (int i = 0; i < values.size(); i++) {
            assertThat(Objects.deepEquals(decoded.get(i), values.get(i))).as("field %s: %s", i, decoded.get(i)).isTrue();
        }
    }
}
