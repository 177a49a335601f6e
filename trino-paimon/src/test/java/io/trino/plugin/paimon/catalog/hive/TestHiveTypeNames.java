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
package io.trino.plugin.paimon.catalog.hive;

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.trino.plugin.paimon.catalog.hive.HiveTypeNames.hiveTypeName;
import static io.trino.plugin.paimon.catalog.hive.HiveTypeNames.paimonType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestHiveTypeNames
{
    @Test
    void metastoreColumnTypesReadBackAsTheTypesTheyMirror()
    {
        List<DataType> types = List.of(
                new DataType.BooleanType(true),
                new DataType.TinyIntType(true),
                new DataType.SmallIntType(true),
                new DataType.IntType(true),
                new DataType.BigIntType(true),
                new DataType.FloatType(true),
                new DataType.DoubleType(true),
                new DataType.DecimalType(true, 38, 9),
                new DataType.CharType(true, 12),
                new DataType.VarCharType(true, 200),
                new DataType.VarCharType(true, DataType.MAX_LENGTH),
                new DataType.VarBinaryType(true, DataType.MAX_LENGTH),
                new DataType.DateType(true),
                new DataType.TimestampType(true, 6),
                new DataType.LocalZonedTimestampType(true, 6),
                new DataType.ArrayType(true, new DataType.IntType(true)),
                new DataType.MapType(true, new DataType.VarCharType(false, DataType.MAX_LENGTH), new DataType.DoubleType(true)),
                new DataType.RowType(true, List.of(
                        new DataField(0, "Name", new DataType.VarCharType(true, DataType.MAX_LENGTH)),
                        new DataField(1, "tags", new DataType.ArrayType(true, new DataType.DecimalType(true, 5, 2))))));
        for (DataType type : types) {
            assertThat(paimonType(hiveTypeName(type))).as(hiveTypeName(type)).isEqualTo(type);
        }
    }

    @Test
    void hiveSpellingsPaimonReads()
    {
        // Hive's decimal without arguments is decimal(10,0); type names are case-insensitive, field names keep their case
        assertThat(paimonType("DECIMAL")).isEqualTo(new DataType.DecimalType(true, 10, 0));
        assertThat(paimonType("decimal(7)")).isEqualTo(new DataType.DecimalType(true, 7, 0));
        assertThat(paimonType("Struct< Id : INTEGER >")).isEqualTo(new DataType.RowType(true, List.of(new DataField(0, "Id", new DataType.IntType(true)))));
        assertThatThrownBy(() -> paimonType("uniontype<int,string>")).hasMessageContaining("unknown Hive type 'uniontype'");
        assertThatThrownBy(() -> paimonType("array<int")).hasMessageContaining("'>' is expected");
    }
}
