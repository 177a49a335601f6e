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

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.schema.DataType.ArrayType;
import io.trino.plugin.paimon.format.schema.DataType.DecimalType;
import io.trino.plugin.paimon.format.schema.DataType.IntType;
import io.trino.plugin.paimon.format.schema.DataType.TimestampType;
import io.trino.plugin.paimon.format.schema.DataType.VarCharType;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.TempWarehouse;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestTableSchemaJson
{
    @Test
    void readsTheSchemaFileOfTheFormatDoc()
    {
        // the observed example of paimon-format.md §2
        TableSchema schema = TableSchemaJson.parse("""
                { "version" : 3, "id" : 0,
                  "fields" : [ { "id" : 0, "name" : "dt",  "type" : "STRING NOT NULL" },
                               { "id" : 1, "name" : "id",  "type" : "INT NOT NULL" },
                               { "id" : 2, "name" : "name","type" : "STRING" },
                               { "id" : 3, "name" : "amt", "type" : "DECIMAL(20, 2)" },
                               { "id" : 4, "name" : "ts",  "type" : "TIMESTAMP(6)" },
                               { "id" : 5, "name" : "arr", "type" : { "type" : "ARRAY", "element" : "INT" } } ],
                  "highestFieldId" : 5, "partitionKeys" : [ "dt" ], "primaryKeys" : [ "dt", "id" ],
                  "options" : { "bucket" : "2", "file.format" : "parquet" }, "timeMillis" : 1795950355551 }
                """.getBytes(UTF_8));
        assertThat(schema).isEqualTo(new TableSchema(
                3,
                0,
                List.of(
                        new DataField(0, "dt", new VarCharType(false, Integer.MAX_VALUE)),
                        new DataField(1, "id", new IntType(false)),
                        new DataField(2, "name", new VarCharType(true, Integer.MAX_VALUE)),
                        new DataField(3, "amt", new DecimalType(true, 20, 2)),
                        new DataField(4, "ts", new TimestampType(true, 6)),
                        new DataField(5, "arr", new ArrayType(true, new IntType(true)))),
                5,
                List.of("dt"),
                List.of("dt", "id"),
                Map.of("bucket", "2", "file.format", "parquet"),
                Optional.empty(),
                1795950355551L));
    }

    @Test
    void appliesDefaultsOfOldSchemaVersions()
    {
        TableSchema version1 = TableSchemaJson.parse("""
                {"id": 0, "fields": [{"id": 0, "name": "a", "type": "INT"}], "partitionKeys": [], "primaryKeys": [], "options": {}}
                """.getBytes(UTF_8));
        assertThat(version1.version()).isEqualTo(1);
        assertThat(version1.options()).isEqualTo(Map.of("bucket", "1", "file.format", "orc"));
        TableSchema version2 = TableSchemaJson.parse("""
                {"version": 2, "id": 4, "fields": [], "options": {"file.format": "parquet"}}
                """.getBytes(UTF_8));
        assertThat(version2.options()).isEqualTo(Map.of("file.format", "parquet"));
    }

    @Test
    void everyTypePaimonJavaWritesReadsBackToPaimonsOwnSpelling()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path warehouse = temp.warehouse();
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            Schema.Builder builder = Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("c_boolean", DataTypes.BOOLEAN())
                    .column("c_tinyint", DataTypes.TINYINT())
                    .column("c_smallint", DataTypes.SMALLINT())
                    .column("c_int", DataTypes.INT().notNull())
                    .column("c_float", DataTypes.FLOAT())
                    .column("c_double", DataTypes.DOUBLE())
                    .column("c_decimal", DataTypes.DECIMAL(38, 18))
                    .column("c_char", DataTypes.CHAR(3))
                    .column("c_varchar", DataTypes.VARCHAR(7))
                    .column("c_string", DataTypes.STRING())
                    .column("c_binary", DataTypes.BINARY(4))
                    .column("c_varbinary", DataTypes.VARBINARY(9))
                    .column("c_bytes", DataTypes.BYTES())
                    .column("c_date", DataTypes.DATE())
                    .column("c_time", DataTypes.TIME(6))
                    .column("c_timestamp", DataTypes.TIMESTAMP(9))
                    .column("c_ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(0))
                    .column("c_array", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT().notNull())))
                    .column("c_map", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ROW(DataTypes.FIELD(50, "k", DataTypes.STRING(), "a comment"))))
                    .column("c_multiset", DataTypes.MULTISET(DataTypes.DOUBLE()))
                    .column("c_row", DataTypes.ROW(DataTypes.FIELD(51, "x", DataTypes.INT().notNull()), DataTypes.FIELD(52, "y", DataTypes.ARRAY(DataTypes.STRING()))).notNull())
                    .column("c_variant", DataTypes.VARIANT())
                    .primaryKey("id")
                    .comment("every type");
            FileStoreTable table = (FileStoreTable) paimon.createTable("db", "t", builder.build());

            byte[] json = Files.readAllBytes(warehouse.resolve("db.db/t/schema/schema-0"));
            TableSchema schema = TableSchemaJson.parse(json);

            org.apache.paimon.schema.TableSchema expected = table.schema();
            assertThat(schema.id()).isEqualTo(expected.id());
            assertThat(schema.highestFieldId()).isEqualTo(expected.highestFieldId());
            assertThat(schema.primaryKeys()).isEqualTo(expected.primaryKeys());
            assertThat(schema.partitionKeys()).isEqualTo(expected.partitionKeys());
            // the catalog adds the table's "path" in memory; it is not part of the file
            Map<String, String> expectedOptions = new java.util.HashMap<>(expected.options());
            expectedOptions.remove("path");
            assertThat(schema.options()).isEqualTo(expectedOptions);
            assertThat(schema.comment()).isEqualTo(Optional.ofNullable(expected.comment()));
            assertThat(schema.timeMillis()).isEqualTo(expected.timeMillis());
            assertThat(schema.fields()).hasSize(expected.fields().size());
            for (int i = 0; i < expected.fields().size(); i++) {
                org.apache.paimon.types.DataField expectedField = expected.fields().get(i);
                DataField field = schema.fields().get(i);
                assertThat(field.id()).isEqualTo(expectedField.id());
                assertThat(field.name()).isEqualTo(expectedField.name());
                assertThat(field.type().asSqlString())
                        .as("type of %s", field.name())
                        .isEqualTo(expectedField.type().asSQLString());
                assertThat(field.type().nullable()).isEqualTo(expectedField.type().isNullable());
            }
        }
    }

    @Test
    void readsVectorTypeAsPaimonSerializesIt()
            throws Exception
    {
        // what Paimon 1.4.2's JsonSerdeUtil writes for DataTypes.VECTOR(3, DataTypes.FLOAT()); tables with it need a vector-capable file format
        DataType type = TableSchemaJson.parseType(new ObjectMapper().readTree("""
                {"type": "VECTOR", "element": "FLOAT", "length": 3}
                """));
        assertThat(type.asSqlString()).isEqualTo(DataTypes.VECTOR(3, DataTypes.FLOAT()).asSQLString());
    }

    @Test
    void rejectsWhatIsNotASchema()
    {
        assertThatThrownBy(() -> TableSchemaJson.parse("[1, 2]".getBytes(UTF_8)))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessage("expected a JSON object");
        assertThatThrownBy(() -> TableSchemaJson.parse("{\"id\": 0}".getBytes(UTF_8)))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessage("missing array 'fields'");
        assertThatThrownBy(() -> TableSchemaJson.parse("{\"id\": 0, \"fields\": [{\"id\": 0, \"name\": \"a\", \"type\": \"INTEGRAL\"}]}".getBytes(UTF_8)))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessage("field 'a': Invalid Paimon type 'INTEGRAL': unknown type 'INTEGRAL'");
        assertThatThrownBy(() -> TableSchemaJson.parse("{\"id\": 0, \"fields\": [".getBytes(UTF_8)))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessageStartingWith("not valid JSON");
    }
}
