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

    static String hiveTypeName(DataField field)
    {
        return hiveTypeName(field.type());
    }
}
