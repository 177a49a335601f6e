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

import com.google.common.collect.ImmutableList;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * A Paimon logical data type, as stored in {@code schema/schema-N}. Each type knows whether it is nullable and
 * how Paimon spells it ({@link #asSqlString()}), which is also how it is written back to a schema file.
 */
public sealed interface DataType
{
    int MAX_LENGTH = Integer.MAX_VALUE;

    boolean nullable();

    /** The type as Paimon writes it in a schema file, {@code NOT NULL} included. */
    default String asSqlString()
    {
        return nullable() ? typeName() : typeName() + " NOT NULL";
    }

    /** The type without its nullability suffix. */
    String typeName();

    DataType withNullable(boolean nullable);

    record BooleanType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "BOOLEAN";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new BooleanType(nullable);
        }
    }

    record TinyIntType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "TINYINT";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new TinyIntType(nullable);
        }
    }

    record SmallIntType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "SMALLINT";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new SmallIntType(nullable);
        }
    }

    record IntType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "INT";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new IntType(nullable);
        }
    }

    record BigIntType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "BIGINT";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new BigIntType(nullable);
        }
    }

    record FloatType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "FLOAT";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new FloatType(nullable);
        }
    }

    record DoubleType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "DOUBLE";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new DoubleType(nullable);
        }
    }

    record DecimalType(boolean nullable, int precision, int scale)
            implements DataType
    {
        public static final int MAX_PRECISION = 38;

        public DecimalType
        {
            checkArgument(precision >= 1 && precision <= MAX_PRECISION, "Decimal precision must be between 1 and %s: %s", MAX_PRECISION, precision);
            checkArgument(scale >= 0 && scale <= precision, "Decimal scale must be between 0 and the precision %s: %s", precision, scale);
        }

        @Override
        public String typeName()
        {
            return "DECIMAL(%s, %s)".formatted(precision, scale);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new DecimalType(nullable, precision, scale);
        }
    }

    record CharType(boolean nullable, int length)
            implements DataType
    {
        public CharType
        {
            checkArgument(length >= 1, "CHAR length must be at least 1: %s", length);
        }

        @Override
        public String typeName()
        {
            return "CHAR(%s)".formatted(length);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new CharType(nullable, length);
        }
    }

    record VarCharType(boolean nullable, int length)
            implements DataType
    {
        public VarCharType
        {
            checkArgument(length >= 1, "VARCHAR length must be at least 1: %s", length);
        }

        public boolean isUnbounded()
        {
            return length == MAX_LENGTH;
        }

        @Override
        public String typeName()
        {
            return isUnbounded() ? "STRING" : "VARCHAR(%s)".formatted(length);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new VarCharType(nullable, length);
        }
    }

    record BinaryType(boolean nullable, int length)
            implements DataType
    {
        public BinaryType
        {
            checkArgument(length >= 1, "BINARY length must be at least 1: %s", length);
        }

        @Override
        public String typeName()
        {
            return "BINARY(%s)".formatted(length);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new BinaryType(nullable, length);
        }
    }

    record VarBinaryType(boolean nullable, int length)
            implements DataType
    {
        public VarBinaryType
        {
            checkArgument(length >= 1, "VARBINARY length must be at least 1: %s", length);
        }

        @Override
        public String typeName()
        {
            return length == MAX_LENGTH ? "BYTES" : "VARBINARY(%s)".formatted(length);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new VarBinaryType(nullable, length);
        }
    }

    record DateType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "DATE";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new DateType(nullable);
        }
    }

    record TimeType(boolean nullable, int precision)
            implements DataType
    {
        public TimeType
        {
            checkPrecision("TIME", precision);
        }

        @Override
        public String typeName()
        {
            return "TIME(%s)".formatted(precision);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new TimeType(nullable, precision);
        }
    }

    record TimestampType(boolean nullable, int precision)
            implements DataType
    {
        public TimestampType
        {
            checkPrecision("TIMESTAMP", precision);
        }

        @Override
        public String typeName()
        {
            return "TIMESTAMP(%s)".formatted(precision);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new TimestampType(nullable, precision);
        }
    }

    /** {@code TIMESTAMP WITH LOCAL TIME ZONE}: an instant, shown in the session time zone. */
    record LocalZonedTimestampType(boolean nullable, int precision)
            implements DataType
    {
        public LocalZonedTimestampType
        {
            checkPrecision("TIMESTAMP WITH LOCAL TIME ZONE", precision);
        }

        @Override
        public String typeName()
        {
            return "TIMESTAMP(%s) WITH LOCAL TIME ZONE".formatted(precision);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new LocalZonedTimestampType(nullable, precision);
        }
    }

    /** Semi-structured VARIANT (Paimon 1.3+); the connector cannot represent it yet. */
    record VariantType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "VARIANT";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new VariantType(nullable);
        }
    }

    /** BLOB (Paimon 1.4 large objects stored beside the data files); the connector cannot represent it yet. */
    record BlobType(boolean nullable)
            implements DataType
    {
        @Override
        public String typeName()
        {
            return "BLOB";
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new BlobType(nullable);
        }
    }

    /** A fixed-length vector of numbers (Paimon 1.4, for vector search); the connector cannot represent it yet. */
    record VectorType(boolean nullable, DataType elementType, int length)
            implements DataType
    {
        public VectorType
        {
            requireNonNull(elementType, "elementType is null");
            checkArgument(length >= 1, "VECTOR length must be at least 1: %s", length);
        }

        @Override
        public String typeName()
        {
            return "VECTOR<%s, %s>".formatted(elementType.asSqlString(), length);
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new VectorType(nullable, elementType, length);
        }
    }

    record ArrayType(boolean nullable, DataType elementType)
            implements DataType
    {
        public ArrayType
        {
            requireNonNull(elementType, "elementType is null");
        }

        @Override
        public String typeName()
        {
            return "ARRAY<%s>".formatted(elementType.asSqlString());
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new ArrayType(nullable, elementType);
        }
    }

    /** A multiset of elements; Paimon stores it as a map from element to its count (INT NOT NULL). */
    record MultisetType(boolean nullable, DataType elementType)
            implements DataType
    {
        public MultisetType
        {
            requireNonNull(elementType, "elementType is null");
        }

        @Override
        public String typeName()
        {
            return "MULTISET<%s>".formatted(elementType.asSqlString());
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new MultisetType(nullable, elementType);
        }
    }

    record MapType(boolean nullable, DataType keyType, DataType valueType)
            implements DataType
    {
        public MapType
        {
            requireNonNull(keyType, "keyType is null");
            requireNonNull(valueType, "valueType is null");
        }

        @Override
        public String typeName()
        {
            return "MAP<%s, %s>".formatted(keyType.asSqlString(), valueType.asSqlString());
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new MapType(nullable, keyType, valueType);
        }
    }

    record RowType(boolean nullable, List<DataField> fields)
            implements DataType
    {
        public RowType
        {
            fields = ImmutableList.copyOf(requireNonNull(fields, "fields is null"));
        }

        @Override
        public String typeName()
        {
            return fields.stream()
                    .map(field -> "`%s` %s%s".formatted(
                            field.name().replace("`", "``"),
                            field.type().asSqlString(),
                            field.description().map(description -> " COMMENT '%s'".formatted(description.replace("'", "''"))).orElse("")))
                    .collect(joining(", ", "ROW<", ">"));
        }

        @Override
        public DataType withNullable(boolean nullable)
        {
            return new RowType(nullable, fields);
        }
    }

    private static void checkPrecision(String type, int precision)
    {
        checkArgument(precision >= 0 && precision <= 9, "%s precision must be between 0 and 9: %s", type, precision);
    }
}
