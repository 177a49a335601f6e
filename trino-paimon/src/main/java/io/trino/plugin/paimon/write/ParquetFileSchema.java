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
package io.trino.plugin.paimon.write;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;

/**
 * The Parquet schema Paimon's writer gives a data file (paimon-format.md §7.2): message {@code paimon_schema}, every
 * field with its Paimon field id, NOT NULL as {@code required}, TIME as int32 milliseconds, TIMESTAMP as int64
 * milliseconds or microseconds or int96 by precision, decimals as int32, int64 or the shortest fixed-length array,
 * three-level lists and {@code key_value} maps with Paimon's ids for elements, keys and values.
 * <p>
 * Trino's Parquet writer picks its value writer by Trino type, so each column is also given the Trino type its
 * values must have when written ({@link #storageType}), and {@link #toStorage} converts the blocks whose Trino
 * type differs (TIME as integer milliseconds, TIMESTAMP WITH TIME ZONE above microseconds as an int96 timestamp).
 */
public final class ParquetFileSchema
{
    public static final String MESSAGE_NAME = "paimon_schema";
    // Paimon's ids of nested list elements, map keys and map values: around Integer.MAX_VALUE / 4
    private static final int NESTED_ID_BASE = 536870911;
    private static final long PICOSECONDS_PER_MILLISECOND = 1_000_000_000L;

    private final MessageType messageType;
    private final Map<List<String>, Type> primitiveTypes;

    public ParquetFileSchema(List<DataFileColumn> columns)
    {
        ImmutableMap.Builder<List<String>, Type> primitives = ImmutableMap.builder();
        List<org.apache.parquet.schema.Type> fields = new ArrayList<>();
        for (DataFileColumn column : columns) {
            fields.add(parquetType(column.name(), column.fieldId(), column.type(), column.trinoType(), 1, ImmutableList.of(), primitives));
        }
        this.messageType = new MessageType(MESSAGE_NAME, fields);
        this.primitiveTypes = primitives.buildOrThrow();
    }

    public MessageType messageType()
    {
        return messageType;
    }

    /** The Trino type of each primitive column's values, by column path. */
    public Map<List<String>, Type> primitiveTypes()
    {
        return primitiveTypes;
    }

    /**
     * Fails when a column holds a type this writer cannot store as Paimon does: TIME, or TIMESTAMP WITH TIME ZONE
     * of precision above 6, inside an array, map or row.
     */
    public static void checkWritable(String tableName, DataField field)
    {
        if (isNested(field.type()) && containsConvertedType(field.type())) {
            throw new TrinoException(NOT_SUPPORTED, "Table %s: writing column '%s' of type %s is not supported yet (TIME or TIMESTAMP(p) WITH LOCAL TIME ZONE with p > 6 inside an ARRAY, MAP or ROW)"
                    .formatted(tableName, field.name(), field.type().asSqlString()));
        }
    }

    /** The Trino type in which values of the Paimon type are handed to Trino's Parquet writer. */
    public static Type storageType(DataType type, Type trinoType)
    {
        return switch (type) {
            case DataType.TimeType _ -> INTEGER;
            case DataType.TimestampType timestamp when timestamp.precision() <= 3 -> TIMESTAMP_MILLIS;
            case DataType.TimestampType timestamp when timestamp.precision() <= 6 -> TIMESTAMP_MICROS;
            case DataType.LocalZonedTimestampType timestamp when timestamp.precision() <= 3 -> TIMESTAMP_TZ_MILLIS;
            case DataType.LocalZonedTimestampType timestamp when timestamp.precision() <= 6 -> TIMESTAMP_TZ_MICROS;
            // the instant, written as an int96 timestamp in UTC
            case DataType.LocalZonedTimestampType timestamp -> createTimestampType(timestamp.precision());
            default -> trinoType;
        };
    }

    /**
     * The block in the form {@link #storageType} says. Timestamps of precision up to 6 are stored in one form for every
     * precision (epoch microseconds, or packed epoch milliseconds with a zone), so their blocks are written as they are.
     */
    public static Block toStorage(DataType type, Type trinoType, Block block)
    {
        return switch (type) {
            case DataType.TimeType _ -> {
                BlockBuilder builder = INTEGER.createFixedSizeBlockBuilder(block.getPositionCount());
                for (int position = 0; position < block.getPositionCount(); position++) {
                    if (block.isNull(position)) {
                        builder.appendNull();
                    }
                    else {
                        INTEGER.writeLong(builder, trinoType.getLong(block, position) / PICOSECONDS_PER_MILLISECOND);
                    }
                }
                yield builder.build();
            }
            case DataType.LocalZonedTimestampType timestamp when timestamp.precision() > 6 -> {
                TimestampType storage = createTimestampType(timestamp.precision());
                BlockBuilder builder = storage.createBlockBuilder(null, block.getPositionCount());
                for (int position = 0; position < block.getPositionCount(); position++) {
                    if (block.isNull(position)) {
                        builder.appendNull();
                        continue;
                    }
                    LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) trinoType.getObject(block, position);
                    long epochMicros = value.getEpochMillis() * 1000 + value.getPicosOfMilli() / 1_000_000;
                    storage.writeObject(builder, new LongTimestamp(epochMicros, value.getPicosOfMilli() % 1_000_000));
                }
                yield builder.build();
            }
            default -> block;
        };
    }

    private static org.apache.parquet.schema.Type parquetType(String name, int id, DataType type, Type trinoType, int depth, List<String> parent, ImmutableMap.Builder<List<String>, Type> primitives)
    {
        Repetition repetition = type.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
        List<String> path = ImmutableList.<String>builder().addAll(parent).add(name).build();
        switch (type) {
            case DataType.ArrayType array -> {
                ArrayType arrayType = (ArrayType) trinoType;
                List<String> listPath = ImmutableList.<String>builder().addAll(path).add("list").build();
                org.apache.parquet.schema.Type element = parquetType("element", NESTED_ID_BASE + id * 1024 + depth, array.elementType(), arrayType.getElementType(), depth + 1, listPath, primitives);
                return Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType())
                        .addField(Types.repeatedGroup().addField(element).named("list"))
                        .id(id)
                        .named(name);
            }
            case DataType.MapType map -> {
                return mapType(name, id, repetition, map.keyType(), map.valueType(), (MapType) trinoType, depth, path, primitives);
            }
            case DataType.MultisetType multiset -> {
                return mapType(name, id, repetition, multiset.elementType(), new DataType.IntType(false), (MapType) trinoType, depth, path, primitives);
            }
            case DataType.RowType row -> {
                RowType rowType = (RowType) trinoType;
                Types.GroupBuilder<org.apache.parquet.schema.GroupType> group = Types.buildGroup(repetition);
                for (int i = 0; i < row.fields().size(); i++) {
                    DataField field = row.fields().get(i);
                    group.addField(parquetType(field.name(), field.id(), field.type(), rowType.getFields().get(i).getType(), depth + 1, path, primitives));
                }
                return group.id(id).named(name);
            }
            default -> {
                primitives.put(path, storageType(type, trinoType));
                return primitiveType(type, repetition).id(id).named(name);
            }
        }
    }

    private static org.apache.parquet.schema.Type mapType(String name, int id, Repetition repetition, DataType keyType, DataType valueType, MapType trinoType, int depth, List<String> path, ImmutableMap.Builder<List<String>, Type> primitives)
    {
        List<String> keyValuePath = ImmutableList.<String>builder().addAll(path).add("key_value").build();
        // Paimon forces map keys to be required
        org.apache.parquet.schema.Type key = parquetType("key", NESTED_ID_BASE - id * 1024 - depth, keyType.withNullable(false), trinoType.getKeyType(), depth + 1, keyValuePath, primitives);
        org.apache.parquet.schema.Type value = parquetType("value", NESTED_ID_BASE + id * 1024 + depth, valueType, trinoType.getValueType(), depth + 1, keyValuePath, primitives);
        return Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType())
                .addField(Types.repeatedGroup().as(LogicalTypeAnnotation.MapKeyValueTypeAnnotation.getInstance()).addField(key).addField(value).named("key_value"))
                .id(id)
                .named(name);
    }

    private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> primitiveType(DataType type, Repetition repetition)
    {
        return switch (type) {
            case DataType.BooleanType _ -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition);
            case DataType.TinyIntType _ -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.intType(8, true));
            case DataType.SmallIntType _ -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.intType(16, true));
            case DataType.IntType _ -> Types.primitive(PrimitiveTypeName.INT32, repetition);
            case DataType.BigIntType _ -> Types.primitive(PrimitiveTypeName.INT64, repetition);
            case DataType.FloatType _ -> Types.primitive(PrimitiveTypeName.FLOAT, repetition);
            case DataType.DoubleType _ -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition);
            case DataType.DecimalType decimal when decimal.precision() <= 9 -> Types.primitive(PrimitiveTypeName.INT32, repetition)
                    .as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision()));
            case DataType.DecimalType decimal when decimal.precision() <= 18 -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                    .as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision()));
            case DataType.DecimalType decimal -> Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                    .length(minimumBytes(decimal.precision()))
                    .as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision()));
            case DataType.CharType _, DataType.VarCharType _ -> Types.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.stringType());
            case DataType.BinaryType _, DataType.VarBinaryType _ -> Types.primitive(PrimitiveTypeName.BINARY, repetition);
            case DataType.DateType _ -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.dateType());
            case DataType.TimeType _ -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.timeType(true, TimeUnit.MILLIS));
            case DataType.TimestampType timestamp -> timestampType(timestamp.precision(), false, repetition);
            case DataType.LocalZonedTimestampType timestamp -> timestampType(timestamp.precision(), true, repetition);
            default -> throw new TrinoException(NOT_SUPPORTED, "Writing Paimon type %s to Parquet is not supported".formatted(type.asSqlString()));
        };
    }

    private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> timestampType(int precision, boolean adjustedToUtc, Repetition repetition)
    {
        if (precision <= 3) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timestampType(adjustedToUtc, TimeUnit.MILLIS));
        }
        if (precision <= 6) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition).as(LogicalTypeAnnotation.timestampType(adjustedToUtc, TimeUnit.MICROS));
        }
        return Types.primitive(PrimitiveTypeName.INT96, repetition);
    }

    // the fewest bytes whose two's complement holds every unscaled value of the precision
    static int minimumBytes(int precision)
    {
        int bytes = 1;
        while (Math.pow(2.0, 8.0 * bytes - 1) < Math.pow(10.0, precision)) {
            bytes++;
        }
        return bytes;
    }

    private static boolean isNested(DataType type)
    {
        return type instanceof DataType.ArrayType || type instanceof DataType.MapType || type instanceof DataType.MultisetType || type instanceof DataType.RowType;
    }

    private static boolean containsConvertedType(DataType type)
    {
        return switch (type) {
            case DataType.TimeType _ -> true;
            case DataType.LocalZonedTimestampType timestamp -> timestamp.precision() > 6;
            case DataType.ArrayType array -> containsConvertedType(array.elementType());
            case DataType.MultisetType multiset -> containsConvertedType(multiset.elementType());
            case DataType.MapType map -> containsConvertedType(map.keyType()) || containsConvertedType(map.valueType());
            case DataType.RowType row -> row.fields().stream().anyMatch(field -> containsConvertedType(field.type()));
            default -> false;
        };
    }
}
