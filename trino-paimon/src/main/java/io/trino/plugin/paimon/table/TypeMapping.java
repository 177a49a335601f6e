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
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;
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
 * Maps Paimon types to Trino types. Nullability does not change the Trino type; it becomes the column's
 * NOT NULL constraint instead.
 */
public final class TypeMapping
{
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
                    .collect(ImmutableList.toImmutableList()));
            case DataType.VariantType _, DataType.BlobType _, DataType.VectorType _ -> throw unsupported(type, "not supported by the Paimon connector");
        };
    }

    public Type toTrinoType(DataField field)
    {
        return toTrinoType(field.type());
    }

    private static TrinoException unsupported(DataType type, String reason)
    {
        return new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Paimon type %s: %s".formatted(type.asSqlString(), reason));
    }
}
