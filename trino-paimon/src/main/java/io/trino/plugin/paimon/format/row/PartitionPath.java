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

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;

import static com.google.common.base.Preconditions.checkArgument;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The folder of a partition inside the table folder, {@code k1=v1/k2=v2/}, exactly as Paimon names it
 * (paimon-format.md §1.1): keys and values escaped, null or blank values replaced by the default partition name,
 * and values rendered as Paimon's internal {@code toString()} (legacy names, the default) or as a SQL cast to
 * string. Readers never parse these names; writers must reproduce them or Paimon Java will not find the files.
 */
public final class PartitionPath
{
    public static final String DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__";

    private static final String ESCAPED_CHARACTERS = "\"#%'*/:=?\\\u007F{}[]^";
    private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();

    private PartitionPath() {}

    /**
     * @param legacyName the table option {@code partition.legacy-name} (default true)
     * @param defaultName the table option {@code partition.default-name}
     */
    public static String partitionPath(List<DataField> partitionFields, BinaryRow partition, boolean legacyName, String defaultName)
    {
        List<String> values = partitionValues(partitionFields, partition, legacyName, defaultName);
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < partitionFields.size(); i++) {
            path.append(escape(partitionFields.get(i).name())).append('=').append(escape(values.get(i))).append('/');
        }
        return path.toString();
    }

    /**
     * The partition's values as the texts of its folder name, unescaped: what Paimon's HiveCatalog registers as a
     * metastore partition's values.
     */
    public static List<String> partitionValues(List<DataField> partitionFields, BinaryRow partition, boolean legacyName, String defaultName)
    {
        checkArgument(partitionFields.size() == partition.arity(), "partition has %s fields, %s partition keys", partition.arity(), partitionFields.size());
        List<String> values = new ArrayList<>(partitionFields.size());
        for (int i = 0; i < partitionFields.size(); i++) {
            DataField field = partitionFields.get(i);
            Object value = partition.get(i, field.type());
            String text = value == null ? null : valueText(field.type(), value, legacyName);
            values.add(text == null || text.isBlank() ? defaultName : text);
        }
        return values;
    }

    /**
     * The partition's values as Paimon's internal {@code toString()} renders them (a DATE as its day number), null
     * where a value is null: the texts Paimon's partition expiry reads a partition's time from.
     */
    public static List<String> internalValueTexts(List<DataField> partitionFields, BinaryRow partition)
    {
        checkArgument(partitionFields.size() == partition.arity(), "partition has %s fields, %s partition keys", partition.arity(), partitionFields.size());
        List<String> values = new ArrayList<>(partitionFields.size());
        for (int i = 0; i < partitionFields.size(); i++) {
            DataType type = partitionFields.get(i).type();
            Object value = partition.get(i, type);
            values.add(value == null ? null : valueText(type, value, true));
        }
        return values;
    }

    /** The partition as Paimon's system tables show one: {@code {v1, v2}}, each value cast to a string, NULL as {@code null}. */
    public static String rowText(List<DataField> partitionFields, BinaryRow partition)
    {
        checkArgument(partitionFields.size() == partition.arity(), "partition has %s fields, %s partition keys", partition.arity(), partitionFields.size());
        StringJoiner text = new StringJoiner(", ", "{", "}");
        for (int i = 0; i < partitionFields.size(); i++) {
            DataType type = partitionFields.get(i).type();
            Object value = partition.get(i, type);
            text.add(value == null ? "null" : valueText(type, value, false));
        }
        return text.toString();
    }

    static String valueText(DataType type, Object value, boolean legacyName)
    {
        return switch (type) {
            case DataType.DateType _ -> legacyName ? value.toString() : LocalDate.ofEpochDay((Integer) value).toString();
            case DataType.TimestampType timestamp -> timestampText((Timestamp) value, timestamp.precision(), legacyName);
            case DataType.LocalZonedTimestampType timestamp -> timestampText((Timestamp) value, timestamp.precision(), legacyName);
            case DataType.DecimalType _ -> ((BigDecimal) value).toPlainString();
            case DataType.BinaryType _, DataType.VarBinaryType _ -> new String((byte[]) value, UTF_8);
            default -> value.toString();
        };
    }

    private static String timestampText(Timestamp timestamp, int precision, boolean legacyName)
    {
        LocalDateTime dateTime = LocalDateTime.ofEpochSecond(
                Math.floorDiv(timestamp.epochMillis(), 1000),
                (int) Math.floorMod(timestamp.epochMillis(), 1000) * 1_000_000 + timestamp.nanosOfMillisecond(),
                ZoneOffset.UTC);
        if (legacyName) {
            return dateTime.toString();
        }
        // SQL cast to STRING: "yyyy-MM-dd HH:mm:ss" and the fraction with the type's precision
        String text = dateTime.toLocalDate() + " " + "%02d:%02d:%02d".formatted(dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond());
        if (precision > 0) {
            text += "." + "%09d".formatted(dateTime.getNano()).substring(0, precision);
        }
        return text;
    }

    static String escape(String text)
    {
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || ESCAPED_CHARACTERS.indexOf(c) >= 0) {
                if (escaped == null) {
                    escaped = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                escaped.append('%').append(UPPER_HEX.toHexDigits((byte) c));
            }
            else if (escaped != null) {
                escaped.append(c);
            }
        }
        return escaped == null ? text : escaped.toString();
    }
}
