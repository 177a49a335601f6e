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

import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Rows in the notation of the merge-semantics vectors: {@code (1,a,N)}, with N for null, arrays as {@code [1,2]},
 * maps as {@code {1:a,2:b}} (entries ordered by their text, since neither Paimon nor Trino promise an order) and
 * rows as {@code (1,a)}. With {@code unorderedArrays}, array elements are ordered by their text too, for the
 * aggregates whose element order is unspecified (collect with distinct, nested_update with a key).
 */
public final class RowText
{
    private RowText() {}

    /** Every row of a query result, formatted and sorted: a split's rows carry no order. */
    public static List<String> rows(MaterializedResult result)
    {
        return rows(result, false);
    }

    public static List<String> rows(MaterializedResult result, boolean unorderedArrays)
    {
        return result.getMaterializedRows().stream()
                .map(row -> row(result.getTypes(), row, unorderedArrays))
                .sorted()
                .toList();
    }

    /**
     * A query result's rows in the text form of Paimon Java's rows ({@link PaimonJavaCatalog#readRows}) without the
     * row kind, sorted: {@code (1, a, null)}, each value as {@link String#valueOf} prints it.
     */
    public static List<String> paimonText(MaterializedResult result)
    {
        return result.getMaterializedRows().stream()
                .map(RowText::paimonText)
                .sorted()
                .toList();
    }

    public static String paimonText(MaterializedRow row)
    {
        StringJoiner text = new StringJoiner(", ", "(", ")");
        row.getFields().forEach(value -> text.add(String.valueOf(value)));
        return text.toString();
    }

    /** Paimon Java's rows of a table ({@link PaimonJavaCatalog#readRows}) without their row kind, sorted. */
    public static List<String> paimonText(Table table)
    {
        return PaimonJavaCatalog.readRows(table).stream()
                .map(row -> row.substring(row.indexOf('(')))
                .sorted()
                .toList();
    }

    public static String row(List<Type> types, MaterializedRow row, boolean unorderedArrays)
    {
        return row(types, row.getFields(), unorderedArrays);
    }

    public static String row(List<Type> types, List<?> values, boolean unorderedArrays)
    {
        StringJoiner text = new StringJoiner(",", "(", ")");
        for (int i = 0; i < types.size(); i++) {
            text.add(value(types.get(i), values.get(i), unorderedArrays));
        }
        return text.toString();
    }

    /** A value as Trino returns it ({@link Type#getObjectValue} or a materialized row's field). */
    public static String value(Type type, Object value, boolean unorderedArrays)
    {
        if (value == null) {
            return "N";
        }
        return switch (type) {
            case ArrayType array -> {
                List<String> elements = new ArrayList<>();
                for (Object element : (List<?>) value) {
                    elements.add(value(array.getElementType(), element, unorderedArrays));
                }
                if (unorderedArrays) {
                    elements.sort(null);
                }
                yield "[" + String.join(",", elements) + "]";
            }
            case MapType map -> {
                List<String> entries = new ArrayList<>();
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                    entries.add(value(map.getKeyType(), entry.getKey(), unorderedArrays) + ":" + value(map.getValueType(), entry.getValue(), unorderedArrays));
                }
                entries.sort(null);
                yield "{" + String.join(",", entries) + "}";
            }
            case RowType row -> {
                List<?> fields = value instanceof MaterializedRow materialized ? materialized.getFields() : (List<?>) value;
                yield row(row.getTypeParameters(), fields, unorderedArrays);
            }
            default -> value.toString();
        };
    }
}
