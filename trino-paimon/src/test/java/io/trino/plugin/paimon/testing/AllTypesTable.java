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
package io.trino.plugin.paimon.testing;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Random;

/**
 * A table with a column of each Paimon type the connector maps, and random rows for it, written by Paimon Java: the
 * one type table of the read tests. Callers add the keys and options.
 */
public final class AllTypesTable
{
    private AllTypesTable() {}

    /** {@code id BIGINT} and one {@code c_<type>} column per type, in a fixed order. */
    public static Schema.Builder schema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal_short", DataTypes.DECIMAL(10, 2))
                .column("c_decimal_long", DataTypes.DECIMAL(38, 10))
                .column("c_char", DataTypes.CHAR(5))
                .column("c_varchar", DataTypes.VARCHAR(20))
                .column("c_string", DataTypes.STRING())
                .column("c_binary", DataTypes.BINARY(4))
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME(3))
                .column("c_ts0", DataTypes.TIMESTAMP(0))
                .column("c_ts3", DataTypes.TIMESTAMP(3))
                .column("c_ts6", DataTypes.TIMESTAMP(6))
                .column("c_ts9", DataTypes.TIMESTAMP(9))
                .column("c_ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("c_ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .column("c_array", DataTypes.ARRAY(DataTypes.INT()))
                .column("c_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("c_row", DataTypes.ROW(DataTypes.FIELD(100, "a", DataTypes.INT()), DataTypes.FIELD(101, "b", DataTypes.STRING())));
    }

    /** A row of {@link #schema()}: every value set, but for a null in about one of five {@code c_string}. */
    public static GenericRow randomRow(Random random, long id)
    {
        long millis = Math.floorMod(random.nextLong(), 4_000_000_000_000L);
        return GenericRow.of(
                id,
                random.nextBoolean(),
                (byte) random.nextInt(),
                (short) random.nextInt(),
                random.nextInt(),
                random.nextFloat(),
                random.nextDouble(),
                Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextInt(1_000_000), 2), 10, 2),
                Decimal.fromBigDecimal(new BigDecimal(new BigInteger(90, random), 10), 38, 10),
                BinaryString.fromString("ab" + random.nextInt(10)),
                BinaryString.fromString("v" + random.nextInt(1000)),
                random.nextInt(5) == 0 ? null : BinaryString.fromString("string-é-" + random.nextInt()),
                new byte[] {(byte) random.nextInt(), 1, 2, 3},
                randomBytes(random),
                random.nextInt(40_000),
                random.nextInt(86_400_000),
                Timestamp.fromEpochMillis(millis / 1000 * 1000),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, random.nextInt(1000) * 1000),
                Timestamp.fromEpochMillis(millis, random.nextInt(1_000_000)),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, random.nextInt(1000) * 1000),
                new GenericArray(new Object[] {random.nextInt(), null, 3}),
                new GenericMap(Map.of(BinaryString.fromString("k" + random.nextInt(10)), random.nextLong())),
                GenericRow.of(random.nextInt(), BinaryString.fromString("nested")));
    }

    private static byte[] randomBytes(Random random)
    {
        byte[] bytes = new byte[random.nextInt(12)];
        random.nextBytes(bytes);
        return bytes;
    }
}
