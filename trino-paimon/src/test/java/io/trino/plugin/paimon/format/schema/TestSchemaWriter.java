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
package io.trino.plugin.paimon.format.schema;

import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.TempWarehouse;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.Table;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table that exists only because our schema writer wrote {@code schema-0} is opened, written and read by
 * Paimon Java.
 */
final class TestSchemaWriter
{
    @Test
    void paimonJavaOpensWritesAndReadsATableWeCreated()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path root = temp.root();
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            TableSchema schema = new TableSchema(
                    TableSchema.CURRENT_VERSION,
                    0,
                    List.of(
                            new DataField(0, "dt", DataTypeParser.parse("STRING NOT NULL")),
                            new DataField(1, "id", DataTypeParser.parse("BIGINT NOT NULL"), Optional.of("the key"), Optional.empty()),
                            new DataField(2, "amount", DataTypeParser.parse("DECIMAL(20, 2)")),
                            new DataField(3, "tags", new DataType.ArrayType(true, DataTypeParser.parse("STRING"))),
                            new DataField(4, "point", new DataType.RowType(true, List.of(
                                    new DataField(5, "x", DataTypeParser.parse("DOUBLE")),
                                    new DataField(6, "y", DataTypeParser.parse("DOUBLE")))))),
                    6,
                    List.of("dt"),
                    List.of("dt", "id"),
                    Map.of("bucket", "2", "merge-engine", "deduplicate"),
                    Optional.of("created by the Trino connector"),
                    System.currentTimeMillis());
            assertThat(new SchemaFiles(new LocalFileSystem(root), Location.of("local:///warehouse/db.db/t")).createSchema(schema)).isTrue();

            Table table = paimon.getTable("db", "t");
            assertThat(table.primaryKeys()).containsExactly("dt", "id");
            assertThat(table.partitionKeys()).containsExactly("dt");
            assertThat(table.comment()).contains("created by the Trino connector");
            PaimonJavaCatalog.write(table, List.of(
                    GenericRow.of(BinaryString.fromString("2026-11-01"), 1L, Decimal.fromBigDecimal(new BigDecimal("12.50"), 20, 2),
                            new GenericArray(new Object[] {BinaryString.fromString("a")}), GenericRow.of(1.0, 2.0)),
                    GenericRow.of(BinaryString.fromString("2026-11-01"), 2L, null, null, null)));
            PaimonJavaCatalog.write(table, List.of(
                    GenericRow.of(BinaryString.fromString("2026-11-01"), 1L, Decimal.fromBigDecimal(new BigDecimal("13.00"), 20, 2), null, null)));
            assertThat(PaimonJavaCatalog.readRows(table)).hasSize(2)
                    .anySatisfy(row -> assertThat(row).startsWith("+I(2026-11-01, 1, 13.00"));
        }
    }
}
