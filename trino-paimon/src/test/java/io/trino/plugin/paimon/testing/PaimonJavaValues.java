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

import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.CharType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DateType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimeType;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows as plain Java values both sides of a comparison agree on: Paimon Java's rows and Trino's materialized rows
 * become lists of strings (CHAR padded to its length), numbers (decimals as {@code BigDecimal}), booleans, hex
 * strings (binaries), {@code LocalDate}, {@code LocalTime}, {@code LocalDateTime} (timestamps), {@code Instant}
 * (timestamps with local time zone), lists (arrays and rows) and maps (maps and multisets).
 */
public final class PaimonJavaValues
{
    private PaimonJavaValues() {}

    /** Every row Paimon Java reads from the table's latest snapshot, as values, in read order. */
    public static List<List<Object>> readValues(Table table)
    {
        return readValues(table, true);
    }

    /**
     * Every row Paimon Java reads from the table's latest snapshot, as values, in read order, CHAR values exactly as
     * Paimon Java returns them (as stored), not padded here.
     */
    public static List<List<Object>> readStoredValues(Table table)
    {
        return readValues(table, false);
    }

    private static List<List<Object>> readValues(Table table, boolean padChars)
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        RowType rowType = table.rowType();
        List<List<Object>> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan())) {
            reader.forEachRemaining(row -> rows.add(fields(rowType, row, padChars)));
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to read " + table.name(), e);
        }
        return rows;
    }

    /** A Trino row's values in the same form. */
    public static List<Object> values(MaterializedRow row)
    {
        return row.getFields().stream().map(PaimonJavaValues::normalize).toList();
    }

    private static List<Object> fields(RowType rowType, InternalRow row, boolean padChars)
    {
        List<Object> fields = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            fields.add(value(rowType.getTypeAt(i), InternalRow.createFieldGetter(rowType.getTypeAt(i), i).getFieldOrNull(row), padChars));
        }
        return fields;
    }

    private static Object value(DataType type, Object value, boolean padChars)
    {
        return switch (value) {
            case null -> null;
            case BinaryString string when padChars && type instanceof CharType charType -> String.format("%-" + charType.getLength() + "s", string);
            case BinaryString string -> string.toString();
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            case Decimal decimal -> decimal.toBigDecimal();
            case Timestamp timestamp when type instanceof LocalZonedTimestampType -> timestamp.toInstant();
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case Integer days when type instanceof DateType -> LocalDate.ofEpochDay(days);
            case Integer millis when type instanceof TimeType -> LocalTime.ofNanoOfDay(millis * 1_000_000L);
            default -> nestedValue(type, value, padChars);
        };
    }

    // a Paimon value of a nested type, as the plain lists, maps and field lists the tests compare
    private static Object nestedValue(DataType type, Object value, boolean padChars)
    {
        return switch (type) {
            case ArrayType array -> {
                InternalArray elements = (InternalArray) value;
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < elements.size(); i++) {
                    list.add(value(array.getElementType(), InternalArray.createElementGetter(array.getElementType()).getElementOrNull(elements, i), padChars));
                }
                yield list;
            }
            case MapType map -> {
                InternalMap entries = (InternalMap) value;
                Map<Object, Object> result = new LinkedHashMap<>();
                for (int i = 0; i < entries.size(); i++) {
                    result.put(value(map.getKeyType(), InternalArray.createElementGetter(map.getKeyType()).getElementOrNull(entries.keyArray(), i), padChars),
                            value(map.getValueType(), InternalArray.createElementGetter(map.getValueType()).getElementOrNull(entries.valueArray(), i), padChars));
                }
                yield result;
            }
            case MultisetType multiset -> {
                // a multiset is a map of each element to its count, as Trino reads it
                InternalMap entries = (InternalMap) value;
                Map<Object, Object> result = new LinkedHashMap<>();
                for (int i = 0; i < entries.size(); i++) {
                    result.put(value(multiset.getElementType(), InternalArray.createElementGetter(multiset.getElementType()).getElementOrNull(entries.keyArray(), i), padChars),
                            entries.valueArray().getInt(i));
                }
                yield result;
            }
            case RowType row -> fields(row, (InternalRow) value, padChars);
            default -> value;
        };
    }

    private static Object normalize(Object value)
    {
        return switch (value) {
            case null -> null;
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            case ZonedDateTime zoned -> zoned.toInstant();
            case MaterializedRow row -> values(row);
            case List<?> list -> list.stream().map(PaimonJavaValues::normalize).toList();
            case Map<?, ?> map -> {
                Map<Object, Object> result = new LinkedHashMap<>();
                map.forEach((key, entry) -> result.put(normalize(key), normalize(entry)));
                yield result;
            }
            default -> value;
        };
    }
}
