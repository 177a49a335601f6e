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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.AllTypesTable;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.BinaryType;
import org.apache.paimon.types.CharType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DateType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimeType;
import org.apache.paimon.types.TimestampType;
import org.apache.paimon.types.VarBinaryType;
import org.apache.paimon.types.VarCharType;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Paimon type comes back as Paimon Java reads it, through both the merge and the pass-through paths: the
 * table is written in several commits that update overlapping keys.
 */
final class TestPaimonReadTypes
        extends AbstractPaimonJavaQueryTest
{
    private Table table;

    TestPaimonReadTypes()
    {
        super("db");
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        table = paimon.createTable("db", "all_types", AllTypesTable.schema()
                .primaryKey("id")
                .option("bucket", "2")
                .option("write-only", "true")
                .build());
        Random random = new Random(3);
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                rows.add(AllTypesTable.randomRow(random, commit * 40 + i));
            }
            PaimonJavaCatalog.write(table, rows);
        }
    }

    @Test
    void everyTypeReadsAsPaimonJavaReadsIt()
            throws Exception
    {
        List<String> expected = new ArrayList<>();
        RowType rowType = table.rowType();
        ReadBuilder readBuilder = table.newReadBuilder();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan())) {
            reader.forEachRemaining(row -> {
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < rowType.getFieldCount(); i++) {
                    values.add(expectedValue(rowType.getTypeAt(i), InternalRow.createFieldGetter(rowType.getTypeAt(i), i).getFieldOrNull(row)));
                }
                expected.add(render(values));
            });
        }
        expected.sort(null);
        assertThat(expected).hasSize(140);
        List<String> actual = computeActual("SELECT * FROM all_types").getMaterializedRows().stream()
                .map(MaterializedRow::getFields)
                .map(TestPaimonReadTypes::render)
                .sorted()
                .toList();
        assertThat(actual).isEqualTo(expected);
    }

    // what Trino's test framework materializes for the Trino type that a Paimon type maps to
    private static Object expectedValue(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case DecimalType _ -> ((Decimal) value).toBigDecimal();
            case CharType charType -> String.format("%-" + charType.getLength() + "s", value.toString());
            case VarCharType _ -> value.toString();
            case BinaryType _, VarBinaryType _ -> HexFormat.of().formatHex((byte[]) value);
            case DateType _ -> LocalDate.ofEpochDay((Integer) value);
            case TimeType _ -> LocalTime.ofNanoOfDay((Integer) value * 1_000_000L);
            case TimestampType _ -> ((Timestamp) value).toLocalDateTime();
            case LocalZonedTimestampType _ -> ((Timestamp) value).toInstant().atZone(ZoneOffset.UTC).toInstant();
            case ArrayType array -> {
                InternalArray elements = (InternalArray) value;
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < elements.size(); i++) {
                    list.add(expectedValue(array.getElementType(), InternalArray.createElementGetter(array.getElementType()).getElementOrNull(elements, i)));
                }
                yield list;
            }
            case MapType map -> {
                InternalMap entries = (InternalMap) value;
                Map<Object, Object> result = new LinkedHashMap<>();
                for (int i = 0; i < entries.size(); i++) {
                    result.put(expectedValue(map.getKeyType(), InternalArray.createElementGetter(map.getKeyType()).getElementOrNull(entries.keyArray(), i)),
                            expectedValue(map.getValueType(), InternalArray.createElementGetter(map.getValueType()).getElementOrNull(entries.valueArray(), i)));
                }
                yield result;
            }
            case RowType row -> {
                InternalRow nested = (InternalRow) value;
                List<Object> fields = new ArrayList<>();
                for (int i = 0; i < row.getFieldCount(); i++) {
                    fields.add(expectedValue(row.getTypeAt(i), InternalRow.createFieldGetter(row.getTypeAt(i), i).getFieldOrNull(nested)));
                }
                yield fields;
            }
            default -> value;
        };
    }

    // a text form both sides agree on: byte arrays as hex, zoned timestamps as instants, rows as lists
    private static String render(List<Object> values)
    {
        List<Object> normalized = new ArrayList<>();
        for (Object value : values) {
            normalized.add(normalize(value));
        }
        return normalized.toString();
    }

    private static Object normalize(Object value)
    {
        return switch (value) {
            case null -> null;
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            case java.time.ZonedDateTime zoned -> zoned.toInstant();
            case MaterializedRow row -> row.getFields().stream().map(TestPaimonReadTypes::normalize).toList();
            case List<?> list -> list.stream().map(TestPaimonReadTypes::normalize).toList();
            case Map<?, ?> map -> {
                Map<Object, Object> result = new java.util.TreeMap<>();
                map.forEach((key, entry) -> result.put(normalize(key), normalize(entry)));
                yield result;
            }
            default -> value;
        };
    }
}
