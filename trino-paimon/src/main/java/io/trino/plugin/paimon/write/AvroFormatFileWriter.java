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

import io.airlift.slice.Slice;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.math.BigInteger;
import java.util.List;

import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static java.util.Objects.requireNonNull;

/**
 * An Avro data file in the shape Paimon's {@code AvroSchemaConverter} gives it: one record
 * {@code org.apache.paimon.avro.generated.record} with a field per column, nullable types as the union
 * {@code [null, type]} defaulting to null, TINYINT and SMALLINT as int, DECIMAL as bytes of the unscaled value,
 * TIME as {@code time-millis}, TIMESTAMP as {@code timestamp-millis}/{@code -micros} and TIMESTAMP WITH LOCAL TIME ZONE
 * as {@code local-timestamp-millis}/{@code -micros} of the instant, maps with string keys as Avro maps and other maps
 * (and multisets) as arrays of {@code key}/{@code value} records with the logical type {@code map}. Values are encoded straight from the blocks.
 */
final class AvroFormatFileWriter
        implements FormatFileWriter
{
    static final String RECORD_NAME = "org.apache.paimon.avro.generated.record";
    private static final long PICOSECONDS_PER_MILLISECOND = 1_000_000_000L;

    private final CountingOutputStream output;
    private final DataFileWriter<PagePosition> writer;
    private final PagePosition row = new PagePosition();

    AvroFormatFileWriter(CountingOutputStream output, List<DataFileColumn> columns, CodecFactory codec)
            throws IOException
    {
        this.output = requireNonNull(output, "output is null");
        Schema schema = schema(columns);
        this.writer = new DataFileWriter<>(new RowWriter(columns));
        writer.setCodec(codec);
        writer.setFlushOnEveryBlock(false);
        writer.create(schema, output);
    }

    /** Paimon's record schema of the columns; fails with Avro's exception on a name Avro does not allow. */
    static Schema schema(List<DataFileColumn> columns)
    {
        SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.builder().record(RECORD_NAME).fields();
        for (DataFileColumn column : columns) {
            fields = field(fields, column.name(), column.type(), RECORD_NAME);
        }
        return fields.endRecord();
    }

    @Override
    public void write(Page page)
            throws IOException
    {
        row.page = page;
        for (int position = 0; position < page.getPositionCount(); position++) {
            row.position = position;
            writer.append(row);
        }
        row.page = null;
    }

    @Override
    public long writtenBytes()
    {
        return output.count();
    }

    /** The bytes written so far, as Paimon measures an Avro file (the position of its output stream). */
    @Override
    public long estimatedSize()
    {
        return output.count();
    }

    @Override
    public long retainedBytes()
    {
        // one block of at most Avro's sync interval is buffered
        return 64 * 1024;
    }

    @Override
    public void close()
            throws IOException
    {
        writer.close();
    }

    private static SchemaBuilder.FieldAssembler<Schema> field(SchemaBuilder.FieldAssembler<Schema> fields, String name, DataType type, String rowName)
    {
        SchemaBuilder.GenericDefault<Schema> field = fields.name(name).type(schema(type, rowName + "_" + name));
        return type.nullable() ? field.withDefault(null) : field.noDefault();
    }

    private static Schema schema(DataType type, String rowName)
    {
        Schema schema = switch (type) {
            case DataType.BooleanType _ -> Schema.create(Schema.Type.BOOLEAN);
            case DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _ -> Schema.create(Schema.Type.INT);
            case DataType.BigIntType _ -> Schema.create(Schema.Type.LONG);
            case DataType.FloatType _ -> Schema.create(Schema.Type.FLOAT);
            case DataType.DoubleType _ -> Schema.create(Schema.Type.DOUBLE);
            case DataType.CharType _, DataType.VarCharType _ -> Schema.create(Schema.Type.STRING);
            case DataType.BinaryType _, DataType.VarBinaryType _ -> Schema.create(Schema.Type.BYTES);
            case DataType.DateType _ -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
            case DataType.TimeType _ -> LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
            case DataType.TimestampType timestamp -> (timestamp.precision() <= 3 ? LogicalTypes.timestampMillis() : LogicalTypes.timestampMicros())
                    .addToSchema(Schema.create(Schema.Type.LONG));
            case DataType.LocalZonedTimestampType timestamp -> (timestamp.precision() <= 3 ? LogicalTypes.localTimestampMillis() : LogicalTypes.localTimestampMicros())
                    .addToSchema(Schema.create(Schema.Type.LONG));
            case DataType.DecimalType decimal -> LogicalTypes.decimal(decimal.precision(), decimal.scale()).addToSchema(Schema.create(Schema.Type.BYTES));
            case DataType.RowType row -> {
                SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.builder().record(rowName).fields();
                for (DataField field : row.fields()) {
                    fields = field(fields, field.name(), field.type(), rowName);
                }
                yield fields.endRecord();
            }
            case DataType.ArrayType array -> Schema.createArray(schema(array.elementType(), rowName));
            case DataType.MapType map -> mapSchema(map.keyType(), map.valueType(), rowName);
            case DataType.MultisetType multiset -> mapSchema(multiset.elementType(), new DataType.IntType(true), rowName);
            default -> throw new IllegalArgumentException("Avro data files cannot hold " + type.asSqlString());
        };
        return type.nullable() ? Schema.createUnion(Schema.create(Schema.Type.NULL), schema) : schema;
    }

    private static Schema mapSchema(DataType keyType, DataType valueType, String rowName)
    {
        if (hasStringKeys(keyType)) {
            return Schema.createMap(schema(valueType, rowName));
        }
        // Avro maps have string keys only: other maps are arrays of key/value records
        SchemaBuilder.FieldAssembler<Schema> entry = SchemaBuilder.builder().record(rowName).fields()
                .name("key").type(schema(keyType, rowName + "_key")).noDefault();
        SchemaBuilder.GenericDefault<Schema> value = entry.name("value").type(schema(valueType, rowName + "_value"));
        entry = valueType.nullable() ? value.withDefault(null) : value.noDefault();
        // marked as a map as Paimon (and Iceberg) mark such arrays
        return new LogicalType("map").addToSchema(Schema.createArray(entry.endRecord()));
    }

    private static boolean hasStringKeys(DataType keyType)
    {
        return keyType instanceof DataType.CharType || keyType instanceof DataType.VarCharType;
    }

    /** The row being appended: a position of a page, reused for every row. */
    private static final class PagePosition
    {
        private Page page;
        private int position;
    }

    private interface ValueWriter
    {
        void write(Block block, int position, Encoder encoder)
                throws IOException;
    }

    private static final class RowWriter
            implements DatumWriter<PagePosition>
    {
        private final ValueWriter[] writers;

        RowWriter(List<DataFileColumn> columns)
        {
            this.writers = new ValueWriter[columns.size()];
            for (int i = 0; i < writers.length; i++) {
                writers[i] = valueWriter(columns.get(i).type(), columns.get(i).trinoType());
            }
        }

        @Override
        public void setSchema(Schema schema) {}

        @Override
        public void write(PagePosition row, Encoder encoder)
                throws IOException
        {
            for (int i = 0; i < writers.length; i++) {
                writers[i].write(row.page.getBlock(i), row.position, encoder);
            }
        }
    }

    private static ValueWriter valueWriter(DataType type, Type trinoType)
    {
        ValueWriter writer = nonNullWriter(type, trinoType);
        if (!type.nullable()) {
            return (block, position, encoder) -> {
                if (block.isNull(position)) {
                    throw new IllegalArgumentException("null value in a NOT NULL field of type " + type.asSqlString());
                }
                writer.write(block, position, encoder);
            };
        }
        return (block, position, encoder) -> {
            if (block.isNull(position)) {
                encoder.writeIndex(0);
            }
            else {
                encoder.writeIndex(1);
                writer.write(block, position, encoder);
            }
        };
    }

    private static ValueWriter nonNullWriter(DataType type, Type trinoType)
    {
        return switch (type) {
            case DataType.BooleanType _ -> (block, position, encoder) -> encoder.writeBoolean(BOOLEAN.getBoolean(block, position));
            case DataType.TinyIntType _, DataType.SmallIntType _, DataType.IntType _, DataType.DateType _ ->
                    (block, position, encoder) -> encoder.writeInt((int) trinoType.getLong(block, position));
            case DataType.BigIntType _ -> (block, position, encoder) -> encoder.writeLong(trinoType.getLong(block, position));
            case DataType.FloatType _ -> (block, position, encoder) -> encoder.writeFloat(Float.intBitsToFloat((int) trinoType.getLong(block, position)));
            case DataType.DoubleType _ -> (block, position, encoder) -> encoder.writeDouble(DOUBLE.getDouble(block, position));
            case DataType.CharType _, DataType.VarCharType _, DataType.BinaryType _, DataType.VarBinaryType _ -> (block, position, encoder) -> {
                // strings and bytes have the same binary encoding: the length, then the bytes
                Slice slice = trinoType.getSlice(block, position);
                encoder.writeBytes(slice.byteArray(), slice.byteArrayOffset(), slice.length());
            };
            case DataType.TimeType _ -> (block, position, encoder) -> encoder.writeInt((int) (trinoType.getLong(block, position) / PICOSECONDS_PER_MILLISECOND));
            // short timestamps are epoch microseconds of the wall clock
            case DataType.TimestampType timestamp when timestamp.precision() <= 3 ->
                    (block, position, encoder) -> encoder.writeLong(Math.floorDiv(trinoType.getLong(block, position), 1000));
            case DataType.TimestampType _ -> (block, position, encoder) -> encoder.writeLong(trinoType.getLong(block, position));
            case DataType.LocalZonedTimestampType timestamp when timestamp.precision() <= 3 ->
                    (block, position, encoder) -> encoder.writeLong(unpackMillisUtc(trinoType.getLong(block, position)));
            case DataType.LocalZonedTimestampType _ -> (block, position, encoder) -> {
                LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) trinoType.getObject(block, position);
                encoder.writeLong(value.getEpochMillis() * 1000 + value.getPicosOfMilli() / 1_000_000);
            };
            case DataType.DecimalType _ -> decimalWriter((DecimalType) trinoType);
            case DataType.ArrayType array -> arrayWriter((ArrayType) trinoType, valueWriter(array.elementType(), ((ArrayType) trinoType).getElementType()));
            case DataType.MapType map -> mapWriter(map.keyType(), map.valueType(), (MapType) trinoType);
            case DataType.MultisetType multiset -> mapWriter(multiset.elementType(), new DataType.IntType(true), (MapType) trinoType);
            case DataType.RowType row -> {
                RowType rowType = (RowType) trinoType;
                ValueWriter[] fields = new ValueWriter[row.fields().size()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = valueWriter(row.fields().get(i).type(), rowType.getFields().get(i).getType());
                }
                yield (block, position, encoder) -> {
                    SqlRow value = rowType.getObject(block, position);
                    for (int i = 0; i < fields.length; i++) {
                        fields[i].write(value.getRawFieldBlock(i), value.getRawIndex(), encoder);
                    }
                };
            }
            default -> throw new IllegalArgumentException("Avro data files cannot hold " + type.asSqlString());
        };
    }

    // the unscaled value's big-endian two's complement in the fewest bytes, as BigInteger and Paimon's Decimal give it
    private static ValueWriter decimalWriter(DecimalType type)
    {
        if (type.isShort()) {
            return (block, position, encoder) -> encoder.writeBytes(BigInteger.valueOf(type.getLong(block, position)).toByteArray());
        }
        return (block, position, encoder) -> encoder.writeBytes(((Int128) type.getObject(block, position)).toBigInteger().toByteArray());
    }

    private static ValueWriter arrayWriter(ArrayType arrayType, ValueWriter elementWriter)
    {
        return (block, position, encoder) -> {
            Block elements = arrayType.getObject(block, position);
            encoder.writeArrayStart();
            encoder.setItemCount(elements.getPositionCount());
            for (int i = 0; i < elements.getPositionCount(); i++) {
                encoder.startItem();
                elementWriter.write(elements, i, encoder);
            }
            encoder.writeArrayEnd();
        };
    }

    private static ValueWriter mapWriter(DataType keyType, DataType valueType, MapType mapType)
    {
        boolean stringKeys = hasStringKeys(keyType);
        // the keys of an Avro map are plain strings; those of key/value records follow the key type
        ValueWriter keyWriter = stringKeys ? nonNullWriter(keyType, mapType.getKeyType()) : valueWriter(keyType, mapType.getKeyType());
        ValueWriter valueWriter = valueWriter(valueType, mapType.getValueType());
        return (block, position, encoder) -> {
            SqlMap map = mapType.getObject(block, position);
            int offset = map.getRawOffset();
            int size = map.getSize();
            if (stringKeys) {
                encoder.writeMapStart();
            }
            else {
                encoder.writeArrayStart();
            }
            encoder.setItemCount(size);
            for (int i = 0; i < size; i++) {
                encoder.startItem();
                keyWriter.write(map.getRawKeyBlock(), offset + i, encoder);
                valueWriter.write(map.getRawValueBlock(), offset + i, encoder);
            }
            if (stringKeys) {
                encoder.writeMapEnd();
            }
            else {
                encoder.writeArrayEnd();
            }
        };
    }
}
