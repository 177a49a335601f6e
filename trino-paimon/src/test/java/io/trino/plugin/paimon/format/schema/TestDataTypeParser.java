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

import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.schema.DataType.ArrayType;
import io.trino.plugin.paimon.format.schema.DataType.BigIntType;
import io.trino.plugin.paimon.format.schema.DataType.BinaryType;
import io.trino.plugin.paimon.format.schema.DataType.CharType;
import io.trino.plugin.paimon.format.schema.DataType.DecimalType;
import io.trino.plugin.paimon.format.schema.DataType.DoubleType;
import io.trino.plugin.paimon.format.schema.DataType.IntType;
import io.trino.plugin.paimon.format.schema.DataType.LocalZonedTimestampType;
import io.trino.plugin.paimon.format.schema.DataType.MapType;
import io.trino.plugin.paimon.format.schema.DataType.RowType;
import io.trino.plugin.paimon.format.schema.DataType.TimeType;
import io.trino.plugin.paimon.format.schema.DataType.TimestampType;
import io.trino.plugin.paimon.format.schema.DataType.VarBinaryType;
import io.trino.plugin.paimon.format.schema.DataType.VarCharType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Type strings as the format doc (§2.1) says Paimon writes and accepts them.
 */
final class TestDataTypeParser
{
    @Test
    void parsesTheStringsPaimonWrites()
    {
        assertParses("INT NOT NULL", new IntType(false));
        assertParses("STRING", new VarCharType(true, Integer.MAX_VALUE));
        assertParses("VARCHAR(10)", new VarCharType(true, 10));
        assertParses("CHAR(5)", new CharType(true, 5));
        assertParses("BYTES", new VarBinaryType(true, Integer.MAX_VALUE));
        assertParses("BINARY(16)", new BinaryType(true, 16));
        assertParses("DECIMAL(20, 2)", new DecimalType(true, 20, 2));
        assertParses("TIME(0)", new TimeType(true, 0));
        assertParses("TIMESTAMP(6)", new TimestampType(true, 6));
        assertParses("TIMESTAMP(3) WITH LOCAL TIME ZONE", new LocalZonedTimestampType(true, 3));
        assertParses("TIMESTAMP(9) WITH LOCAL TIME ZONE NOT NULL", new LocalZonedTimestampType(false, 9));
    }

    @Test
    void parsesAliasesAndDefaults()
    {
        assertThat(DataTypeParser.parse("integer")).isEqualTo(new IntType(true));
        assertThat(DataTypeParser.parse("DOUBLE PRECISION")).isEqualTo(new DoubleType(true));
        assertThat(DataTypeParser.parse("DEC")).isEqualTo(new DecimalType(true, 10, 0));
        assertThat(DataTypeParser.parse("NUMERIC(5)")).isEqualTo(new DecimalType(true, 5, 0));
        assertThat(DataTypeParser.parse("VARCHAR")).isEqualTo(new VarCharType(true, 1));
        assertThat(DataTypeParser.parse("CHAR")).isEqualTo(new CharType(true, 1));
        assertThat(DataTypeParser.parse("TIME")).isEqualTo(new TimeType(true, 0));
        assertThat(DataTypeParser.parse("TIMESTAMP")).isEqualTo(new TimestampType(true, 6));
        assertThat(DataTypeParser.parse("TIMESTAMP(3) WITHOUT TIME ZONE")).isEqualTo(new TimestampType(true, 3));
        assertThat(DataTypeParser.parse("TIMESTAMP_LTZ(3)")).isEqualTo(new LocalZonedTimestampType(true, 3));
        assertThat(DataTypeParser.parse("bigint null")).isEqualTo(new BigIntType(true));
    }

    @Test
    void parsesNestedStringForms()
    {
        assertThat(DataTypeParser.parse("ARRAY<INT NOT NULL> NOT NULL"))
                .isEqualTo(new ArrayType(false, new IntType(false)));
        assertThat(DataTypeParser.parse("MAP<STRING NOT NULL, ARRAY<BIGINT>>"))
                .isEqualTo(new MapType(true, new VarCharType(false, Integer.MAX_VALUE), new ArrayType(true, new BigIntType(true))));
        assertThat(DataTypeParser.parse("BLOB NOT NULL")).isEqualTo(new DataType.BlobType(false));
        assertThat(DataTypeParser.parse("VARIANT")).isEqualTo(new DataType.VariantType(true));
        assertThat(DataTypeParser.parse("VECTOR<FLOAT, 3>").asSqlString()).isEqualTo("VECTOR<FLOAT, 3>");
        assertThat(DataTypeParser.parse("ROW<`a b` INT COMMENT 'first', c STRING>"))
                .isEqualTo(new RowType(true, List.of(
                        new DataField(0, "a b", new IntType(true), Optional.of("first"), Optional.empty()),
                        new DataField(1, "c", new VarCharType(true, Integer.MAX_VALUE)))));
    }

    @Test
    void rejectsWhatIsNotAType()
    {
        assertThatThrownBy(() -> DataTypeParser.parse("GEOMETRY"))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessage("Invalid Paimon type 'GEOMETRY': unknown type 'GEOMETRY'");
        assertThatThrownBy(() -> DataTypeParser.parse("DECIMAL(40, 2)"))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessageContaining("Decimal precision must be between 1 and 38: 40");
        assertThatThrownBy(() -> DataTypeParser.parse("INT NOT"))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessage("Invalid Paimon type 'INT NOT': expected NULL");
        assertThatThrownBy(() -> DataTypeParser.parse("ARRAY<INT"))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessage("Invalid Paimon type 'ARRAY<INT': expected '>'");
        assertThatThrownBy(() -> DataTypeParser.parse("TIMESTAMP(12)"))
                .isInstanceOf(InvalidMetadataException.class)
                .hasMessageContaining("TIMESTAMP precision must be between 0 and 9: 12");
    }

    private static void assertParses(String text, DataType expected)
    {
        DataType parsed = DataTypeParser.parse(text);
        assertThat(parsed).isEqualTo(expected);
        // what we write back is what Paimon wrote
        assertThat(parsed.asSqlString()).isEqualTo(text);
    }
}
