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
package io.trino.plugin.paimon.table;

import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.row.Timestamp;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.TempWarehouse;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our binary rows and bucket function against Paimon Java's, for seeded random keys of every type a key can have.
 */
final class TestBucketFunction
{
    private static final long SEED = 20261129L;
    private static final int KEYS_PER_TYPE = 500;

    // Paimon's spelling of each key type; our parser turns it into our type
    private static final List<String> KEY_TYPES = List.of(
            "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
            "DECIMAL(10, 2)", "DECIMAL(18, 4)", "DECIMAL(20, 2)", "DECIMAL(38, 10)",
            "CHAR(5)", "VARCHAR(40)", "STRING", "BINARY(4)", "VARBINARY(20)", "BYTES",
            "DATE", "TIME(3)", "TIMESTAMP(0)", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)",
            "TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE");

    @Test
    void binaryRowsAndHashesEqualPaimonsForEveryKeyType()
    {
        Random random = new Random(SEED);
        for (String typeName : KEY_TYPES) {
            DataType ourType = DataTypeParser.parse(typeName);
            org.apache.paimon.types.DataType paimonType = DataTypeJsonParser.parseAtomicTypeSQLString(typeName);
            InternalRowSerializer serializer = new InternalRowSerializer(RowType.of(paimonType, DataTypes.INT()));
            for (int i = 0; i < KEYS_PER_TYPE; i++) {
                Object value = random.nextInt(50) == 0 ? null : randomValue(random, ourType);
                int second = random.nextInt();
                BinaryRow ours = BinaryRowWriter.toBinaryRow(List.of(ourType, new DataType.IntType(true)), Arrays.asList(value, second));
                org.apache.paimon.data.BinaryRow theirs = serializer.toBinaryRow(GenericRow.of(toPaimonValue(value, ourType), second)).copy();
                assertThat(ours.bytes()).as("%s value %s", typeName, value).isEqualTo(theirs.toBytes());
                assertThat(ours.paimonHashCode()).as("%s value %s", typeName, value).isEqualTo(theirs.hashCode());
            }
        }
    }

    @Test
    void bucketsEqualTheFoldersPaimonJavaWritesTo()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            Table table = paimon.createTable("db", "t", Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING())
                    .column("amount", DataTypes.DECIMAL(20, 2))
                    .column("ts", DataTypes.TIMESTAMP(6))
                    .column("payload", DataTypes.STRING())
                    .primaryKey("id", "name", "amount", "ts")
                    .option("bucket", "7")
                    .build());
            Random random = new Random(SEED);
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                rows.add(GenericRow.of(
                        random.nextInt(),
                        BinaryString.fromString(randomString(random)),
                        Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextLong() % 100_000_000_000L, 2), 20, 2),
                        // TIMESTAMP(6): whole microseconds, or the stored value would differ from the hashed one
                        org.apache.paimon.data.Timestamp.fromEpochMillis(Math.floorMod(random.nextLong(), 4_000_000_000_000L), random.nextInt(1000) * 1000),
                        BinaryString.fromString("x")));
            }
            PaimonJavaCatalog.write(table, rows);

            List<DataType> keyTypes = List.of(
                    DataTypeParser.parse("INT NOT NULL"),
                    DataTypeParser.parse("STRING NOT NULL"),
                    DataTypeParser.parse("DECIMAL(20, 2) NOT NULL"),
                    DataTypeParser.parse("TIMESTAMP(6) NOT NULL"));
            Map<Integer, Integer> checkedPerBucket = new HashMap<>();
            for (Map.Entry<InternalRow, Integer> entry : rowsWithBuckets(table).entrySet()) {
                InternalRow row = entry.getKey();
                org.apache.paimon.data.Timestamp ts = row.getTimestamp(3, 6);
                BinaryRow key = BinaryRowWriter.toBinaryRow(keyTypes, List.of(
                        row.getInt(0),
                        row.getString(1).toString(),
                        row.getDecimal(2, 20, 2).toBigDecimal(),
                        new Timestamp(ts.getMillisecond(), ts.getNanoOfMillisecond())));
                org.apache.paimon.data.BinaryRow paimonKey = new InternalRowSerializer(RowType.of(DataTypes.INT().notNull(), DataTypes.STRING().notNull(), DataTypes.DECIMAL(20, 2).notNull(), DataTypes.TIMESTAMP(6).notNull()))
                        .toBinaryRow(GenericRow.of(row.getInt(0), row.getString(1), row.getDecimal(2, 20, 2), row.getTimestamp(3, 6))).copy();
                assertThat(key.bytes()).isEqualTo(paimonKey.toBytes());
                assertThat(BucketFunction.bucket(key, 7)).isEqualTo(entry.getValue());
                checkedPerBucket.merge(entry.getValue(), 1, Integer::sum);
            }
            assertThat(checkedPerBucket.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2000);
            assertThat(checkedPerBucket).hasSize(7);
        }
    }

    @Test
    void modBucketFunctionEqualsPaimon()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            Table table = paimon.createTable("db", "t", Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "5")
                    .option("bucket-function.type", "mod")
                    .build());
            Random random = new Random(SEED);
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                rows.add(GenericRow.of(random.nextLong(), BinaryString.fromString("v")));
            }
            PaimonJavaCatalog.write(table, rows);
            Map<InternalRow, Integer> buckets = rowsWithBuckets(table);
            assertThat(buckets).hasSize(500);
            buckets.forEach((row, bucket) -> assertThat(BucketFunction.modBucket(row.getLong(0), 5)).isEqualTo(bucket));
        }
    }

    private static Map<InternalRow, Integer> rowsWithBuckets(Table table)
            throws Exception
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        Map<InternalRow, Integer> result = new HashMap<>();
        // the reader reuses its row objects: keep copies
        InternalRowSerializer serializer = new InternalRowSerializer(table.rowType());
        for (Split split : readBuilder.newScan().plan().splits()) {
            int bucket = ((DataSplit) split).bucket();
            try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(split)) {
                reader.forEachRemaining(row -> result.put(serializer.toBinaryRow(row).copy(), bucket));
            }
        }
        return result;
    }

    private static Object randomValue(Random random, DataType type)
    {
        return switch (type) {
            case DataType.BooleanType _ -> random.nextBoolean();
            case DataType.TinyIntType _ -> (byte) random.nextInt();
            case DataType.SmallIntType _ -> (short) random.nextInt();
            case DataType.IntType _ -> random.nextInt();
            case DataType.BigIntType _ -> random.nextLong();
            case DataType.FloatType _ -> random.nextFloat() * 1000 - 500;
            case DataType.DoubleType _ -> random.nextDouble() * 1e6 - 5e5;
            case DataType.DecimalType decimal -> new BigDecimal(new BigInteger(Math.min(120, decimal.precision() * 3), random)
                    .mod(BigInteger.TEN.pow(decimal.precision()))
                    .multiply(random.nextBoolean() ? BigInteger.ONE : BigInteger.ONE.negate()), decimal.scale());
            case DataType.CharType charType -> String.valueOf((char) ('a' + random.nextInt(26))).repeat(charType.length());
            case DataType.VarCharType _ -> randomString(random);
            case DataType.BinaryType binary -> randomBytes(random, binary.length());
            case DataType.VarBinaryType _ -> randomBytes(random, random.nextInt(20));
            case DataType.DateType _ -> random.nextInt(100_000) - 20_000;
            case DataType.TimeType _ -> random.nextInt(86_400_000);
            case DataType.TimestampType timestamp -> randomTimestamp(random, timestamp.precision());
            case DataType.LocalZonedTimestampType timestamp -> randomTimestamp(random, timestamp.precision());
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    private static Timestamp randomTimestamp(Random random, int precision)
    {
        long millis = random.nextLong() % 5_000_000_000_000L;
        int nanos = random.nextInt(1_000_000);
        if (precision == 0) {
            return new Timestamp(Math.floorDiv(millis, 1000) * 1000, 0);
        }
        if (precision <= 3) {
            return new Timestamp(millis, 0);
        }
        if (precision <= 6) {
            return new Timestamp(millis, nanos / 1000 * 1000);
        }
        return new Timestamp(millis, nanos);
    }

    private static String randomString(Random random)
    {
        int length = random.nextInt(30);
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < length; i++) {
            // ASCII plus a few multi-byte characters
            value.append(random.nextInt(10) == 0 ? (char) (0x00e0 + random.nextInt(20)) : (char) ('a' + random.nextInt(26)));
        }
        return value.toString();
    }

    private static byte[] randomBytes(Random random, int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static Object toPaimonValue(Object value, DataType type)
    {
        return switch (value) {
            case null -> null;
            case String string -> BinaryString.fromBytes(string.getBytes(UTF_8));
            case BigDecimal decimal -> Decimal.fromBigDecimal(decimal, ((DataType.DecimalType) type).precision(), decimal.scale());
            case Timestamp timestamp -> org.apache.paimon.data.Timestamp.fromEpochMillis(timestamp.epochMillis(), timestamp.nanosOfMillisecond());
            default -> value;
        };
    }
}
