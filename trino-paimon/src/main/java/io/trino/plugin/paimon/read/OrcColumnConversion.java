package io.trino.plugin.paimon.read;

import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;

import java.util.Optional;

import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.DateTimeEncoding.unpackZoneKey;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.createTimestampWithTimeZoneType;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_MICROSECOND;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_MILLISECOND;
import static io.trino.spi.type.Timestamps.round;
import static java.util.Objects.requireNonNull;

/**
 * A column of an ORC data file that Trino's ORC reader cannot return as the column's type: it is read as another type
 * and each block converted. TIME is an ORC int of milliseconds of the day; a timestamp is read in the precision of 3,
 * 6 or 9 that holds the column's (the only ones the reader returns) and rounded to the column's.
 */
final class OrcColumnConversion
{
    private static final TypeOperators TYPE_OPERATORS = new TypeOperators();

    private final Type type;
    private final Type readType;

    private OrcColumnConversion(Type type, Type readType)
    {
        this.type = requireNonNull(type, "type is null");
        this.readType = requireNonNull(readType, "readType is null");
    }

    /** The conversion a column of the type needs, or none if the reader returns it as is. */
    static Optional<OrcColumnConversion> of(Type type)
    {
        Type readType = readType(type);
        if (readType.equals(type)) {
            return Optional.empty();
        }
        return Optional.of(new OrcColumnConversion(type, readType));
    }

    /** The type the reader reads the column as. */
    Type readType()
    {
        return readType;
    }

    Block convert(Block read)
    {
        int positions = read.getPositionCount();
        BlockBuilder builder = type.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            append(type, readType, read, position, builder);
        }
        return builder.build();
    }

    private static void append(Type type, Type readType, Block read, int position, BlockBuilder out)
    {
        if (read.isNull(position)) {
            out.appendNull();
            return;
        }
        switch (type) {
            case TimeType time -> time.writeLong(out, INTEGER.getInt(read, position) * (long) PICOSECONDS_PER_MILLISECOND);
            case TimestampType timestamp when timestamp.isShort() -> {
                timestamp.writeLong(out, round(readType.getLong(read, position), 6 - timestamp.getPrecision()));
            }
            case TimestampType timestamp -> {
                LongTimestamp value = (LongTimestamp) readType.getObject(read, position);
                long micros = value.getEpochMicros();
                long picos = round(value.getPicosOfMicro(), 12 - timestamp.getPrecision());
                if (picos == PICOSECONDS_PER_MICROSECOND) {
                    micros++;
                    picos = 0;
                }
                timestamp.writeObject(out, new LongTimestamp(micros, (int) picos));
            }
            case TimestampWithTimeZoneType timestamp when timestamp.isShort() -> {
                long packed = readType.getLong(read, position);
                timestamp.writeLong(out, packDateTimeWithZone(round(unpackMillisUtc(packed), 3 - timestamp.getPrecision()), unpackZoneKey(packed)));
            }
            case TimestampWithTimeZoneType timestamp -> {
                LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) readType.getObject(read, position);
                long millis = value.getEpochMillis();
                long picos = round(value.getPicosOfMilli(), 12 - timestamp.getPrecision());
                if (picos == PICOSECONDS_PER_MILLISECOND) {
                    millis++;
                    picos = 0;
                }
                timestamp.writeObject(out, LongTimestampWithTimeZone.fromEpochMillisAndFraction(millis, (int) picos, value.getTimeZoneKey()));
            }
            case ArrayType array -> {
                Type readElement = ((ArrayType) readType).getElementType();
                Block elements = ((ArrayType) readType).getObject(read, position);
                ((ArrayBlockBuilder) out).buildEntry(elementBuilder -> {
                    for (int i = 0; i < elements.getPositionCount(); i++) {
                        append(array.getElementType(), readElement, elements, i, elementBuilder);
                    }
                });
            }
            case MapType map -> {
                MapType readMap = (MapType) readType;
                SqlMap entries = readMap.getObject(read, position);
                int offset = entries.getRawOffset();
                ((MapBlockBuilder) out).buildEntry((keyBuilder, valueBuilder) -> {
                    for (int i = 0; i < entries.getSize(); i++) {
                        append(map.getKeyType(), readMap.getKeyType(), entries.getRawKeyBlock(), offset + i, keyBuilder);
                        append(map.getValueType(), readMap.getValueType(), entries.getRawValueBlock(), offset + i, valueBuilder);
                    }
                });
            }
            case RowType row -> {
                RowType readRow = (RowType) readType;
                SqlRow fields = readRow.getObject(read, position);
                int index = fields.getRawIndex();
                ((RowBlockBuilder) out).buildEntry(fieldBuilders -> {
                    for (int i = 0; i < fields.getFieldCount(); i++) {
                        append(row.getFields().get(i).getType(), readRow.getFields().get(i).getType(), fields.getRawFieldBlock(i), index, fieldBuilders.get(i));
                    }
                });
            }
            default -> type.appendTo(read, position, out);
        }
    }

    // the type with each TIME replaced by INTEGER and each timestamp by the one of precision 3, 6 or 9 that holds it
    private static Type readType(Type type)
    {
        return switch (type) {
            case TimeType _ -> INTEGER;
            case TimestampType timestamp -> createTimestampType(readPrecision(timestamp.getPrecision()));
            case TimestampWithTimeZoneType timestamp -> createTimestampWithTimeZoneType(readPrecision(timestamp.getPrecision()));
            case ArrayType array -> new ArrayType(readType(array.getElementType()));
            case MapType map -> new MapType(readType(map.getKeyType()), readType(map.getValueType()), TYPE_OPERATORS);
            case RowType row -> RowType.from(row.getFields().stream()
                    .map(field -> new RowType.Field(field.getName(), readType(field.getType())))
                    .toList());
            default -> type;
        };
    }

    private static int readPrecision(int precision)
    {
        return precision <= 3 ? 3 : precision <= 6 ? 6 : 9;
    }
}
