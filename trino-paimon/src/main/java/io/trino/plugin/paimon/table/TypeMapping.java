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
package io.trino.plugin.paimon.table;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import io.trino.spi.type.VarcharType;

import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.CharType.createCharType;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.createTimeType;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.createTimestampWithTimeZoneType;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.MAX_LENGTH;
import static io.trino.spi.type.VarcharType.createUnboundedVarcharType;
import static io.trino.spi.type.VarcharType.createVarcharType;
import static java.util.Objects.requireNonNull;

/**
 * Maps Paimon types to Trino types, and Trino types of new columns to Paimon types. Nullability does not change the Trino type; it becomes the column's
 * NOT NULL constraint instead.
 */
public final class TypeMapping
{
    private static final int MAX_PAIMON_PRECISION = 9;

    private final TypeOperators typeOperators;

    public TypeMapping(TypeOperators typeOperators)
    {
        this.typeOperators = requireNonNull(typeOperators, "typeOperators is null");
    }

    /**
     * @throws TrinoException with {@code PAIMON_UNSUPPORTED_TYPE} when Trino has no counterpart of the type
     */
    public Type toTrinoType(DataType type)
    {
        return switch (type) {
            case DataType.BooleanType _ -> BOOLEAN;
            case DataType.TinyIntType _ -> TINYINT;
            case DataType.SmallIntType _ -> SMALLINT;
            case DataType.IntType _ -> INTEGER;
            case DataType.BigIntType _ -> BIGINT;
            case DataType.FloatType _ -> REAL;
            case DataType.DoubleType _ -> DOUBLE;
            case DataType.DecimalType decimal -> DecimalType.createDecimalType(decimal.precision(), decimal.scale());
            case DataType.CharType charType -> {
                if (charType.length() > CharType.MAX_LENGTH) {
                    throw unsupported(type, "Trino CHAR is limited to %s characters".formatted(CharType.MAX_LENGTH));
                }
                yield createCharType(charType.length());
            }
            case DataType.VarCharType varchar -> varchar.length() > MAX_LENGTH ? createUnboundedVarcharType() : createVarcharType(varchar.length());
            case DataType.BinaryType _, DataType.VarBinaryType _ -> VARBINARY;
            case DataType.DateType _ -> DATE;
            case DataType.TimeType time -> createTimeType(time.precision());
            case DataType.TimestampType timestamp -> createTimestampType(timestamp.precision());
            case DataType.LocalZonedTimestampType timestamp -> createTimestampWithTimeZoneType(timestamp.precision());
            case DataType.ArrayType array -> new ArrayType(toTrinoType(array.elementType()));
            // Paimon keeps a multiset as a map from element to its number of occurrences
            case DataType.MultisetType multiset -> new MapType(toTrinoType(multiset.elementType()), INTEGER, typeOperators);
            case DataType.MapType map -> new MapType(toTrinoType(map.keyType()), toTrinoType(map.valueType()), typeOperators);
            case DataType.RowType row -> RowType.from(row.fields().stream()
                    .map(field -> RowType.field(field.name(), toTrinoType(field.type())))
                    .collect(toImmutableList()));
            case DataType.VariantType _, DataType.BlobType _, DataType.VectorType _ -> throw unsupported(type, "not supported by the Paimon connector");
        };
    }

    public Type toTrinoType(DataField field)
    {
        return toTrinoType(field.type());
    }

    /**
     * The Paimon type a new column of this Trino type is stored as: the inverse of {@link #toTrinoType(DataType)},
     * with unbounded varchar as STRING and varbinary as BYTES. Nested ROW fields take the next field ids as Paimon's
     * schema builder numbers them (a row field after the fields nested in its own type); nested types are nullable,
     * since Trino cannot declare NOT NULL inside a type.
     *
     * @param highestFieldId the highest field id assigned so far; advanced for every nested ROW field
     * @throws TrinoException with {@code NOT_SUPPORTED} when Paimon cannot store the type
     */
    public static DataType toPaimonType(Type type, boolean nullable, AtomicInteger highestFieldId)
    {
        if (type.equals(BOOLEAN)) {
            return new DataType.BooleanType(nullable);
        }
        if (type.equals(TINYINT)) {
            return new DataType.TinyIntType(nullable);
        }
        if (type.equals(SMALLINT)) {
            return new DataType.SmallIntType(nullable);
        }
        if (type.equals(INTEGER)) {
            return new DataType.IntType(nullable);
        }
        if (type.equals(BIGINT)) {
            return new DataType.BigIntType(nullable);
        }
        if (type.equals(REAL)) {
            return new DataType.FloatType(nullable);
        }
        if (type.equals(DOUBLE)) {
            return new DataType.DoubleType(nullable);
        }
        if (type.equals(DATE)) {
            return new DataType.DateType(nullable);
        }
        if (type.equals(VARBINARY)) {
            return new DataType.VarBinaryType(nullable, DataType.MAX_LENGTH);
        }
        return switch (type) {
            case DecimalType decimal -> new DataType.DecimalType(nullable, decimal.getPrecision(), decimal.getScale());
            case CharType charType -> new DataType.CharType(nullable, charType.getLength());
            case VarcharType varchar -> new DataType.VarCharType(nullable, varchar.getLength().orElse(DataType.MAX_LENGTH));
            case TimeType time -> new DataType.TimeType(nullable, checkPrecision(type, time.getPrecision()));
            case TimestampType timestamp -> new DataType.TimestampType(nullable, checkPrecision(type, timestamp.getPrecision()));
            case TimestampWithTimeZoneType timestamp -> new DataType.LocalZonedTimestampType(nullable, checkPrecision(type, timestamp.getPrecision()));
            case ArrayType array -> new DataType.ArrayType(nullable, toPaimonType(array.getElementType(), true, highestFieldId));
            case MapType map -> new DataType.MapType(nullable, toPaimonType(map.getKeyType(), true, highestFieldId), toPaimonType(map.getValueType(), true, highestFieldId));
            case RowType row -> {
                ImmutableList.Builder<DataField> fields = ImmutableList.builder();
                for (RowType.Field field : row.getFields()) {
                    String name = field.getName().orElseThrow(() -> new TrinoException(NOT_SUPPORTED, "Paimon cannot store type %s: every row field needs a name".formatted(type.getDisplayName())));
                    // as Paimon's ReassignFieldId: the fields inside a field's type are numbered before the field
                    DataType fieldType = toPaimonType(field.getType(), true, highestFieldId);
                    fields.add(new DataField(highestFieldId.incrementAndGet(), name, fieldType));
                }
                yield new DataType.RowType(nullable, fields.build());
            }
            default -> throw new TrinoException(NOT_SUPPORTED, "Paimon cannot store type " + type.getDisplayName());
        };
    }

    // Paimon's TIME, TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE stop at nanoseconds; Trino goes to picoseconds
    private static int checkPrecision(Type type, int precision)
    {
        if (precision > MAX_PAIMON_PRECISION) {
            throw new TrinoException(NOT_SUPPORTED, "Paimon cannot store type %s: the precision is at most %s".formatted(type.getDisplayName(), MAX_PAIMON_PRECISION));
        }
        return precision;
    }

    private static TrinoException unsupported(DataType type, String reason)
    {
        return new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Paimon type %s: %s".formatted(type.asSqlString(), reason));
    }
}
