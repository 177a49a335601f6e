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

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.TempWarehouse;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.trino.plugin.paimon.format.row.PartitionPath.DEFAULT_PARTITION_NAME;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partition folders we compute equal the folders Paimon Java writes, for the same partition values.
 */
final class TestPartitionPath
{
    private static final List<DataField> FIELDS = List.of(
            new DataField(0, "s", DataTypeParser.parse("STRING")),
            new DataField(1, "i", DataTypeParser.parse("INT")),
            new DataField(2, "d", DataTypeParser.parse("DATE")),
            new DataField(3, "ts", DataTypeParser.parse("TIMESTAMP(3)")),
            new DataField(4, "ts6", DataTypeParser.parse("TIMESTAMP(6)")),
            new DataField(5, "amt", DataTypeParser.parse("DECIMAL(5, 2)")),
            new DataField(6, "flag", DataTypeParser.parse("BOOLEAN")));

    private static final List<List<Object>> PARTITIONS = List.of(
            Arrays.asList("plain", 1, 19000, millis("2023-11-14T22:13:20.123"), micros("2023-11-14T22:13:20.123456"), new BigDecimal("123.45"), true),
            Arrays.asList("a/b=c%d", -5, 0, millis("2023-11-14T22:13:00"), micros("2023-11-14T22:13:20.100"), new BigDecimal("-0.50"), false),
            Arrays.asList("with space é?#*", 0, -1, millis("1969-12-31T23:59:59.999"), micros("2000-01-01T00:00"), new BigDecimal("0.00"), true),
            Arrays.asList("", null, null, null, null, null, null),
            Arrays.asList("   ", 7, 20000, millis("2026-01-01T00:00:00"), micros("2026-01-01T00:00:01"), new BigDecimal("1.00"), false),
            Arrays.asList(null, 8, 1, millis("2026-02-03T04:05:06.007"), micros("2026-02-03T04:05:06.000007"), new BigDecimal("999.99"), null),
            Arrays.asList("tab\there:[x]{y}^'\"\\", 9, 2, millis("2026-02-03T04:05:06.7"), micros("2026-02-03T04:05:06.7"), new BigDecimal("2.10"), true));

    @Test
    void legacyNamesEqualPaimonFolders()
            throws Exception
    {
        assertFoldersMatch(true);
    }

    @Test
    void castNamesEqualPaimonFolders()
            throws Exception
    {
        assertFoldersMatch(false);
    }

    @Test
    void escapesAsPaimonDocuments()
    {
        assertThat(PartitionPath.escape("a/b=c%d:e")).isEqualTo("a%2Fb%3Dc%25d%3Ae");
        assertThat(PartitionPath.escape("a b é")).isEqualTo("a b é");
    }

    private static void assertFoldersMatch(boolean legacyName)
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path warehouse = temp.warehouse();
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            Table table = paimon.createTable("db", "t", Schema.newBuilder()
                    .column("s", DataTypes.STRING())
                    .column("i", DataTypes.INT())
                    .column("d", DataTypes.DATE())
                    .column("ts", DataTypes.TIMESTAMP(3))
                    .column("ts6", DataTypes.TIMESTAMP(6))
                    .column("amt", DataTypes.DECIMAL(5, 2))
                    .column("flag", DataTypes.BOOLEAN())
                    .column("v", DataTypes.STRING())
                    .partitionKeys("s", "i", "d", "ts", "ts6", "amt", "flag")
                    .option("bucket", "-1")
                    .option("partition.legacy-name", String.valueOf(legacyName))
                    .build());
            List<GenericRow> rows = new ArrayList<>();
            for (List<Object> partition : PARTITIONS) {
                Object[] values = new Object[8];
                values[0] = partition.get(0) == null ? null : BinaryString.fromString((String) partition.get(0));
                values[1] = partition.get(1);
                values[2] = partition.get(2);
                values[3] = toPaimonTimestamp((Timestamp) partition.get(3));
                values[4] = toPaimonTimestamp((Timestamp) partition.get(4));
                values[5] = partition.get(5) == null ? null : Decimal.fromBigDecimal((BigDecimal) partition.get(5), 5, 2);
                values[6] = partition.get(6);
                values[7] = BinaryString.fromString("x");
                rows.add(GenericRow.of(values));
            }
            PaimonJavaCatalog.write(table, rows);

            Path tableFolder = warehouse.resolve("db.db/t");
            Set<String> paimonFolders;
            try (Stream<Path> files = Files.walk(tableFolder)) {
                paimonFolders = files
                        .filter(path -> path.getFileName().toString().startsWith("bucket-"))
                        .map(path -> tableFolder.relativize(path.getParent()) + "/")
                        .collect(Collectors.toSet());
            }
            List<DataType> types = FIELDS.stream().map(DataField::type).toList();
            Set<String> ourFolders = PARTITIONS.stream()
                    .map(values -> PartitionPath.partitionPath(FIELDS, BinaryRowWriter.toBinaryRow(types, values), legacyName, DEFAULT_PARTITION_NAME))
                    .collect(Collectors.toSet());
            assertThat(ourFolders).isEqualTo(paimonFolders);
        }
    }

    private static Timestamp millis(String dateTime)
    {
        return new Timestamp(LocalDateTime.parse(dateTime).toInstant(ZoneOffset.UTC).toEpochMilli(), 0);
    }

    private static Timestamp micros(String dateTime)
    {
        LocalDateTime value = LocalDateTime.parse(dateTime);
        long millis = value.toInstant(ZoneOffset.UTC).toEpochMilli();
        return new Timestamp(millis, value.getNano() % 1_000_000);
    }

    private static org.apache.paimon.data.Timestamp toPaimonTimestamp(Timestamp timestamp)
    {
        return timestamp == null ? null : org.apache.paimon.data.Timestamp.fromEpochMillis(timestamp.epochMillis(), timestamp.nanosOfMillisecond());
    }
}
