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
package io.trino.plugin.paimon.read;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.filesystem.Location;
import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.spi.type.Chars.truncateToLengthAndTrimSpaces;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static java.lang.Math.floorDiv;
import static java.lang.Math.floorMod;
import static java.util.Objects.requireNonNull;

/**
 * Decodes each record of an Avro data file straight into block builders, one per read column, with no object per
 * record: a tree of value decoders is built once from the file's writer schema (paimon-format.md §4.2: nullable
 * values are unions with null first, decimals are big-endian unscaled bytes, timestamps are longs whose logical type
 * tells millis or micros, maps with other than string keys are arrays of key/value records). Top-level fields are
 * matched by name, nested record fields by name too; fields nobody reads are skipped.
 */
final class AvroRecordDecoder
        implements DatumReader<Void>
{
    private static final long PICOSECONDS_PER_MILLISECOND = 1_000_000_000L;

    private final Location location;
    private final Map<String, Type> readColumns;
    private final Map<String, Integer> readChannels;
    private BlockBuilder[] builders;
    private FieldDecoder[] fieldDecoders;

    /**
     * @param readNames the top-level fields to read, by name in the file; the i-th is decoded into builder i
     * @param readTypes the type each is read as
     */
    AvroRecordDecoder(Location location, List<String> readNames, List<Type> readTypes)
    {
        this.location = requireNonNull(location, "location is null");
        this.readColumns = new HashMap<>();
        this.readChannels = new HashMap<>();
        for (int i = 0; i < readNames.size(); i++) {
            readColumns.put(readNames.get(i), readTypes.get(i));
            readChannels.put(readNames.get(i), i);
        }
    }

    /** The builders the following records are decoded into. */
    void setBuilders(BlockBuilder[] builders)
    {
        this.builders = requireNonNull(builders, "builders is null");
    }

    /** Whether the file has a top-level field of this name. */
    boolean hasField(String name)
    {
        for (FieldDecoder decoder : fieldDecoders) {
            if (decoder.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void setSchema(Schema writerSchema)
    {
        if (writerSchema.getType() != Schema.Type.RECORD) {
            throw DataFilePageReader.badData(location, "Avro schema is not a record: " + writerSchema);
        }
        List<Schema.Field> fields = writerSchema.getFields();
        fieldDecoders = new FieldDecoder[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            Schema.Field field = fields.get(i);
            Type type = readColumns.get(field.name());
            fieldDecoders[i] = new FieldDecoder(
                    field.name(),
                    type == null ? -1 : readChannels.get(field.name()),
                    field.schema(),
                    type == null ? Optional.empty() : Optional.of(valueDecoder(field.schema(), type, field.name())));
        }
    }

    @Override
    public Void read(Void reuse, Decoder in)
            throws IOException
    {
        for (FieldDecoder field : fieldDecoders) {
            if (field.decoder().isEmpty()) {
                GenericDatumReader.skip(field.schema(), in);
            }
            else {
                field.decoder().get().decode(in, builders[field.channel()]);
            }
        }
        return null;
    }

    private record FieldDecoder(String name, int channel, Schema schema, Optional<ValueDecoder> decoder) {}

    private interface ValueDecoder
    {
        void decode(Decoder in, BlockBuilder out)
                throws IOException;
    }

    private ValueDecoder valueDecoder(Schema schema, Type type, String path)
    {
        if (schema.getType() == Schema.Type.UNION) {
            List<Schema> branches = schema.getTypes();
            ValueDecoder[] decoders = new ValueDecoder[branches.size()];
            for (int i = 0; i < decoders.length; i++) {
                Schema branch = branches.get(i);
                decoders[i] = branch.getType() == Schema.Type.NULL ? (_, out) -> out.appendNull() : valueDecoder(branch, type, path);
            }
            return (in, out) -> decoders[in.readIndex()].decode(in, out);
        }
        return switch (schema.getType()) {
            case BOOLEAN -> {
                check(type instanceof BooleanType, schema, type, path);
                yield (in, out) -> BooleanType.BOOLEAN.writeBoolean(out, in.readBoolean());
            }
            case INT -> intDecoder(schema, type, path);
            case LONG -> longDecoder(schema, type, path);
            case FLOAT -> floatDecoder(schema, type, path);
            case DOUBLE -> {
                check(type instanceof DoubleType, schema, type, path);
                yield (in, out) -> type.writeDouble(out, in.readDouble());
            }
            case STRING -> stringDecoder(schema, type, path);
            case BYTES, FIXED -> bytesDecoder(schema, type, path);
            case ARRAY -> {
                Schema itemSchema = schema.getElementType();
                if (type instanceof MapType map && itemSchema.getType() == Schema.Type.RECORD) {
                    // a map whose keys are not strings: an array of {key, value} records
                    ValueDecoder key = valueDecoder(itemSchema.getField("key").schema(), map.getKeyType(), path + ".key");
                    ValueDecoder value = valueDecoder(itemSchema.getField("value").schema(), map.getValueType(), path + ".value");
                    yield (in, out) -> ((MapBlockBuilder) out).buildEntry((keyBuilder, valueBuilder) -> {
                        for (long count = in.readArrayStart(); count != 0; count = in.arrayNext()) {
                            for (long i = 0; i < count; i++) {
                                key.decode(in, keyBuilder);
                                value.decode(in, valueBuilder);
                            }
                        }
                    });
                }
                if (!(type instanceof ArrayType array)) {
                    throw mismatch(schema, type, path);
                }
                ValueDecoder element = valueDecoder(itemSchema, array.getElementType(), path + "[]");
                yield (in, out) -> ((ArrayBlockBuilder) out).buildEntry(elementBuilder -> {
                    for (long count = in.readArrayStart(); count != 0; count = in.arrayNext()) {
                        for (long i = 0; i < count; i++) {
                            element.decode(in, elementBuilder);
                        }
                    }
                });
            }
            case MAP -> {
                if (!(type instanceof MapType map)) {
                    throw mismatch(schema, type, path);
                }
                ValueDecoder key = valueDecoder(Schema.create(Schema.Type.STRING), map.getKeyType(), path + ".key");
                ValueDecoder value = valueDecoder(schema.getValueType(), map.getValueType(), path + ".value");
                yield (in, out) -> ((MapBlockBuilder) out).buildEntry((keyBuilder, valueBuilder) -> {
                    for (long count = in.readMapStart(); count != 0; count = in.mapNext()) {
                        for (long i = 0; i < count; i++) {
                            key.decode(in, keyBuilder);
                            value.decode(in, valueBuilder);
                        }
                    }
                });
            }
            case RECORD -> {
                if (!(type instanceof RowType row)) {
                    throw mismatch(schema, type, path);
                }
                yield rowDecoder(schema, row, path);
            }
            default -> throw mismatch(schema, type, path);
        };
    }

    private ValueDecoder intDecoder(Schema schema, Type type, String path)
    {
        return switch (type) {
            case TinyintType _, SmallintType _, IntegerType _, BigintType _, DateType _ -> (in, out) -> type.writeLong(out, in.readInt());
            case TimeType _ -> (in, out) -> type.writeLong(out, in.readInt() * PICOSECONDS_PER_MILLISECOND);
            default -> throw mismatch(schema, type, path);
        };
    }

    // TIMESTAMP and TIMESTAMP_LTZ alike: the logical type says whether the long counts millis or micros
    private ValueDecoder longDecoder(Schema schema, Type type, String path)
    {
        LogicalType logicalType = schema.getLogicalType();
        long microsPerUnit = logicalType != null && logicalType.getName().endsWith("-millis") ? 1000 : 1;
        return switch (type) {
            case BigintType _ -> (in, out) -> type.writeLong(out, in.readLong());
            case TimestampType timestamp -> (in, out) -> writeTimestampMicros(timestamp, out, Math.multiplyExact(in.readLong(), microsPerUnit));
            case TimestampWithTimeZoneType timestamp -> (in, out) -> writeInstantMicros(timestamp, out, Math.multiplyExact(in.readLong(), microsPerUnit));
            default -> throw mismatch(schema, type, path);
        };
    }

    private ValueDecoder floatDecoder(Schema schema, Type type, String path)
    {
        return switch (type) {
            case RealType real -> (in, out) -> real.writeFloat(out, in.readFloat());
            case DoubleType _ -> (in, out) -> type.writeDouble(out, in.readFloat());
            default -> throw mismatch(schema, type, path);
        };
    }

    private ValueDecoder stringDecoder(Schema schema, Type type, String path)
    {
        return switch (type) {
            case VarcharType _ -> (in, out) -> type.writeSlice(out, readSlice(in));
            case CharType charType -> (in, out) -> type.writeSlice(out, truncateToLengthAndTrimSpaces(readSlice(in), charType));
            default -> throw mismatch(schema, type, path);
        };
    }

    private ValueDecoder bytesDecoder(Schema schema, Type type, String path)
    {
        boolean fixed = schema.getType() == Schema.Type.FIXED;
        int fixedSize = fixed ? schema.getFixedSize() : 0;
        return switch (type) {
            case VarbinaryType _ -> (in, out) -> type.writeSlice(out, Slices.wrappedBuffer(readBytes(in, fixed, fixedSize)));
            case DecimalType decimal when decimal.isShort() -> (in, out) -> type.writeLong(out, shortDecimal(readBytes(in, fixed, fixedSize)));
            case DecimalType _ -> (in, out) -> type.writeObject(out, Int128.fromBigEndian(readBytes(in, fixed, fixedSize)));
            default -> throw mismatch(schema, type, path);
        };
    }

    // nested fields by name; a row field the file lacks reads as null, a file field the row lacks is skipped
    private ValueDecoder rowDecoder(Schema schema, RowType row, String path)
    {
        List<Schema.Field> fileFields = schema.getFields();
        int[] targets = new int[fileFields.size()];
        ValueDecoder[] decoders = new ValueDecoder[fileFields.size()];
        boolean[] present = new boolean[row.getFields().size()];
        for (int i = 0; i < fileFields.size(); i++) {
            targets[i] = -1;
            for (int j = 0; j < row.getFields().size(); j++) {
                RowType.Field field = row.getFields().get(j);
                if (field.getName().isPresent() && field.getName().get().equals(fileFields.get(i).name())) {
                    targets[i] = j;
                    present[j] = true;
                    decoders[i] = valueDecoder(fileFields.get(i).schema(), field.getType(), path + "." + field.getName().get());
                }
            }
        }
        List<Integer> absent = new ArrayList<>();
        for (int j = 0; j < present.length; j++) {
            if (!present[j]) {
                absent.add(j);
            }
        }
        return (in, out) -> ((RowBlockBuilder) out).buildEntry(fieldBuilders -> {
            for (int i = 0; i < targets.length; i++) {
                if (targets[i] < 0) {
                    GenericDatumReader.skip(fileFields.get(i).schema(), in);
                }
                else {
                    decoders[i].decode(in, fieldBuilders.get(targets[i]));
                }
            }
            for (int j : absent) {
                fieldBuilders.get(j).appendNull();
            }
        });
    }

    private static void writeTimestampMicros(TimestampType type, BlockBuilder out, long epochMicros)
    {
        if (type.isShort()) {
            type.writeLong(out, epochMicros);
        }
        else {
            type.writeObject(out, new LongTimestamp(epochMicros, 0));
        }
    }

    private static void writeInstantMicros(TimestampWithTimeZoneType type, BlockBuilder out, long epochMicros)
    {
        long epochMillis = floorDiv(epochMicros, 1000);
        if (type.isShort()) {
            type.writeLong(out, packDateTimeWithZone(epochMillis, UTC_KEY));
        }
        else {
            type.writeObject(out, LongTimestampWithTimeZone.fromEpochMillisAndFraction(epochMillis, floorMod(epochMicros, 1000) * 1_000_000, UTC_KEY));
        }
    }

    private static Slice readSlice(Decoder in)
            throws IOException
    {
        Utf8 text = in.readString(null);
        return Slices.wrappedBuffer(text.getBytes(), 0, text.getByteLength());
    }

    private static byte[] readBytes(Decoder in, boolean fixed, int fixedSize)
            throws IOException
    {
        if (fixed) {
            byte[] bytes = new byte[fixedSize];
            in.readFixed(bytes);
            return bytes;
        }
        ByteBuffer buffer = in.readBytes(null);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    // a big-endian two's-complement unscaled value of at most 8 bytes
    private static long shortDecimal(byte[] bytes)
    {
        long value = bytes.length > 0 && bytes[0] < 0 ? -1 : 0;
        for (byte b : bytes) {
            value = (value << 8) | (b & 0xFF);
        }
        return value;
    }

    private void check(boolean matches, Schema schema, Type type, String path)
    {
        if (!matches) {
            throw mismatch(schema, type, path);
        }
    }

    private TrinoException mismatch(Schema schema, Type type, String path)
    {
        return new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: column %s of Avro type %s cannot be read as %s".formatted(location, path, schema, type));
    }
}
