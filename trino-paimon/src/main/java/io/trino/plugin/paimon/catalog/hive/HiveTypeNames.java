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

import java.util.ArrayList;
import java.util.List;

import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * The Hive type a metastore entry gives a Paimon column, as Paimon's HiveCatalog mirrors columns into the metastore
 * (on Hive 3 and newer). Hive has no TIME, so it becomes a string; types longer than Hive's CHAR (255) or VARCHAR
 * (65535) become strings; every binary type is binary.
 */
final class HiveTypeNames
{
    private static final int HIVE_MAX_CHAR_LENGTH = 255;
    private static final int HIVE_MAX_VARCHAR_LENGTH = 65535;

    private HiveTypeNames() {}

    static String hiveTypeName(DataType type)
    {
        return switch (type) {
            case DataType.BooleanType _ -> "boolean";
            case DataType.TinyIntType _ -> "tinyint";
            case DataType.SmallIntType _ -> "smallint";
            case DataType.IntType _ -> "int";
            case DataType.BigIntType _ -> "bigint";
            case DataType.FloatType _ -> "float";
            case DataType.DoubleType _ -> "double";
            case DataType.DecimalType decimal -> "decimal(%s,%s)".formatted(decimal.precision(), decimal.scale());
            case DataType.CharType charType -> charType.length() > HIVE_MAX_CHAR_LENGTH ? "string" : "char(%s)".formatted(charType.length());
            case DataType.VarCharType varchar -> varchar.length() > HIVE_MAX_VARCHAR_LENGTH ? "string" : "varchar(%s)".formatted(varchar.length());
            case DataType.BinaryType _, DataType.VarBinaryType _, DataType.BlobType _ -> "binary";
            case DataType.DateType _ -> "date";
            case DataType.TimeType _ -> "string";
            case DataType.TimestampType _ -> "timestamp";
            case DataType.LocalZonedTimestampType _ -> "timestamp with local time zone";
            case DataType.VariantType _ -> "struct<value:binary,metadata:binary>";
            case DataType.VectorType vector -> "array<%s>".formatted(hiveTypeName(vector.elementType()));
            case DataType.ArrayType array -> "array<%s>".formatted(hiveTypeName(array.elementType()));
            // a multiset counts its elements
            case DataType.MultisetType multiset -> "map<%s,int>".formatted(hiveTypeName(multiset.elementType()));
            case DataType.MapType map -> "map<%s,%s>".formatted(hiveTypeName(map.keyType()), hiveTypeName(map.valueType()));
            case DataType.RowType row -> row.fields().stream()
                    .map(field -> field.name() + ":" + hiveTypeName(field.type()))
                    .collect(joining(",", "struct<", ">"));
        };
    }

    /**
     * Whether a column of this type reads back from its Hive type as a type Trino converts the column's values to:
     * TIME becomes a string, timestamps finer than microseconds lose digits, CHAR longer than Hive's becomes a string.
     */
    static boolean readsBack(DataType type)
    {
        return switch (type) {
            case DataType.TimeType _ -> false;
            case DataType.TimestampType timestamp -> timestamp.precision() <= 6;
            case DataType.LocalZonedTimestampType timestamp -> timestamp.precision() <= 6;
            case DataType.CharType charType -> charType.length() <= HIVE_MAX_CHAR_LENGTH;
            case DataType.ArrayType array -> readsBack(array.elementType());
            case DataType.MapType map -> readsBack(map.keyType()) && readsBack(map.valueType());
            case DataType.RowType row -> row.fields().stream().allMatch(field -> readsBack(field.type()));
            default -> true;
        };
    }

    static String hiveTypeName(DataField field)
    {
        return hiveTypeName(field.type());
    }

    /**
     * The Paimon type of a metastore column, as Paimon's HiveCatalog reads the columns of a view: the inverse of
     * {@link #hiveTypeName(DataType)} where one exists, strings and binaries unbounded, timestamps of precision 6.
     *
     * @throws IllegalArgumentException when the text is not a Hive type name this knows
     */
    static DataType paimonType(String hiveTypeName)
    {
        TypeNameParser parser = new TypeNameParser(hiveTypeName);
        DataType type = parser.type();
        parser.expectEnd();
        return type;
    }

    private static final class TypeNameParser
    {
        private static final String LOCAL_TIME_ZONE = " with local time zone";

        private final String text;
        private int position;

        private TypeNameParser(String text)
        {
            this.text = requireNonNull(text, "text is null");
        }

        private DataType type()
        {
            String name = word().toLowerCase(ENGLISH);
            return switch (name) {
                case "boolean" -> new DataType.BooleanType(true);
                case "tinyint" -> new DataType.TinyIntType(true);
                case "smallint" -> new DataType.SmallIntType(true);
                case "int", "integer" -> new DataType.IntType(true);
                case "bigint" -> new DataType.BigIntType(true);
                case "float" -> new DataType.FloatType(true);
                case "double" -> new DataType.DoubleType(true);
                case "decimal" -> {
                    // Hive's decimal is decimal(10,0), decimal(p) is decimal(p,0)
                    List<Integer> arguments = numbers();
                    int precision = arguments.isEmpty() ? 10 : arguments.get(0);
                    int scale = arguments.size() < 2 ? 0 : arguments.get(1);
                    yield new DataType.DecimalType(true, precision, scale);
                }
                case "char" -> new DataType.CharType(true, single(numbers()));
                case "varchar" -> new DataType.VarCharType(true, single(numbers()));
                case "string" -> new DataType.VarCharType(true, DataType.MAX_LENGTH);
                case "binary" -> new DataType.VarBinaryType(true, DataType.MAX_LENGTH);
                case "date" -> new DataType.DateType(true);
                case "timestamp" -> {
                    if (text.regionMatches(true, position, LOCAL_TIME_ZONE, 0, LOCAL_TIME_ZONE.length())) {
                        position += LOCAL_TIME_ZONE.length();
                        yield new DataType.LocalZonedTimestampType(true, 6);
                    }
                    yield new DataType.TimestampType(true, 6);
                }
                case "array" -> {
                    expect('<');
                    DataType element = type();
                    expect('>');
                    yield new DataType.ArrayType(true, element);
                }
                case "map" -> {
                    expect('<');
                    DataType key = type();
                    expect(',');
                    DataType value = type();
                    expect('>');
                    yield new DataType.MapType(true, key.withNullable(false), value);
                }
                case "struct" -> {
                    expect('<');
                    List<DataField> fields = new ArrayList<>();
                    while (fields.isEmpty() || peek() == ',') {
                        if (!fields.isEmpty()) {
                            expect(',');
                        }
                        String fieldName = word();
                        expect(':');
                        fields.add(new DataField(fields.size(), fieldName, type()));
                    }
                    expect('>');
                    yield new DataType.RowType(true, fields);
                }
                default -> throw new IllegalArgumentException("unknown Hive type '%s' in '%s'".formatted(name, text));
            };
        }

        private List<Integer> numbers()
        {
            List<Integer> numbers = new ArrayList<>();
            if (peek() != '(') {
                return numbers;
            }
            expect('(');
            do {
                if (!numbers.isEmpty()) {
                    expect(',');
                }
                numbers.add(Integer.parseInt(word()));
            }
            while (peek() == ',');
            expect(')');
            return numbers;
        }

        private int single(List<Integer> numbers)
        {
            if (numbers.size() != 1) {
                throw new IllegalArgumentException("a length is expected in Hive type '%s'".formatted(text));
            }
            return numbers.getFirst();
        }

        private String word()
        {
            skipSpaces();
            int start = position;
            while (position < text.length() && (Character.isLetterOrDigit(text.charAt(position)) || text.charAt(position) == '_')) {
                position++;
            }
            if (start == position) {
                throw new IllegalArgumentException("a name is expected at %s in Hive type '%s'".formatted(start, text));
            }
            return text.substring(start, position);
        }

        private char peek()
        {
            skipSpaces();
            return position < text.length() ? text.charAt(position) : 0;
        }

        private void expect(char expected)
        {
            if (peek() != expected) {
                throw new IllegalArgumentException("'%s' is expected at %s in Hive type '%s'".formatted(expected, position, text));
            }
            position++;
        }

        private void expectEnd()
        {
            if (peek() != 0) {
                throw new IllegalArgumentException("unexpected text at %s in Hive type '%s'".formatted(position, text));
            }
        }

        private void skipSpaces()
        {
            while (position < text.length() && text.charAt(position) == ' ') {
                position++;
            }
        }
    }
}
