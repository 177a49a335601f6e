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

import io.trino.orc.metadata.Footer;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.Fixed12Block;
import io.trino.spi.block.LongArrayBlock;
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

import static io.trino.orc.metadata.OrcMetadataWriter.PRESTO_WRITER_ID;
import static io.trino.orc.metadata.OrcMetadataWriter.TRINO_WRITER_ID;
import static io.trino.plugin.paimon.merge.BlockValues.appendValue;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.DateTimeEncoding.unpackZoneKey;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.createTimestampWithTimeZoneType;
import static io.trino.spi.type.Timestamps.MICROSECONDS_PER_SECOND;
import static io.trino.spi.type.Timestamps.MILLISECONDS_PER_SECOND;
import static io.trino.spi.type.Timestamps.NANOSECONDS_PER_MICROSECOND;
import static io.trino.spi.type.Timestamps.NANOSECONDS_PER_MILLISECOND;
import static io.trino.spi.type.Timestamps.NANOSECONDS_PER_SECOND;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_MICROSECOND;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_MILLISECOND;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_NANOSECOND;
import static io.trino.spi.type.Timestamps.round;
import static java.lang.Math.floorMod;
import static java.util.Objects.requireNonNull;

/**
 * A column of an ORC data file that Trino's ORC reader cannot return as the column's type: it is read as another type
 * and each block converted. TIME is an ORC int of milliseconds of the day; a timestamp is read in the precision of 3,
 * 6 or 9 that holds the column's (the only ones the reader returns) and rounded to the column's. And timestamps
 * before 1970 get back the second the reader wrongly takes from some of them, below.
 *
 * <p>ORC stores a timestamp as whole seconds and the nanoseconds of the second, the seconds truncated toward zero
 * instead of floored, so a reader takes a second off a time before 1970 whose seconds were truncated. Writers
 * truncate the timestamp cut to some unit first: ORC Java and C++ (which Paimon Java, Spark, Hive and Flink write
 * with) the milliseconds, so a time before 1970 has one second too many exactly when its fraction reaches a
 * millisecond, and their readers take the second off only then (ORC-306; every file of theirs is written so, no
 * writer version marks it). Trino's writer truncates microseconds for TIMESTAMP and milliseconds for TIMESTAMP WITH
 * TIME ZONE, but Trino's reader takes the second off whenever the fraction is not zero: from a file of ORC Java,
 * 1969-12-31 23:59:58.000001 (-2 seconds and 1,000 nanoseconds) would read as 23:59:57.000001. Values read so are
 * exactly those before 1970 whose fraction lies strictly between zero and the writer's unit, which the reader never
 * returns otherwise, and get the second back. Times within the second before 1970 are stored as zero seconds by
 * every writer and cannot be told from the times after it: they read, as in ORC Java, one second late.
 */
final class OrcColumnConversion
{
    private static final TypeOperators TYPE_OPERATORS = new TypeOperators();

    /** The unit to which a file's writer cut timestamps before truncating them to whole seconds. */
    enum SecondsTruncation
    {
        // ORC Java and C++
        MILLISECONDS(3, 3),
        // Trino's (and Presto's) writer: TIMESTAMP from its epoch microseconds, TIMESTAMP WITH TIME ZONE from its epoch milliseconds
        TRINO(6, 3);

        // the fractional digits of the unit, and the unit in nanoseconds
        private final int timestampDigits;
        private final long timestampUnitNanos;
        private final int instantDigits;
        private final long instantUnitNanos;

        SecondsTruncation(int timestampDigits, int instantDigits)
        {
            this.timestampDigits = timestampDigits;
            this.timestampUnitNanos = NANOSECONDS_PER_SECOND / (long) Math.pow(10, timestampDigits);
            this.instantDigits = instantDigits;
            this.instantUnitNanos = NANOSECONDS_PER_SECOND / (long) Math.pow(10, instantDigits);
        }

        static SecondsTruncation of(Footer footer)
        {
            return footer.getWriterId()
                    .filter(writer -> writer == TRINO_WRITER_ID || writer == PRESTO_WRITER_ID)
                    .map(_ -> TRINO)
                    .orElse(MILLISECONDS);
        }
    }

    private final Type type;
    private final Type readType;
    private final SecondsTruncation truncation;

    private OrcColumnConversion(Type type, Type readType, SecondsTruncation truncation)
    {
        this.type = requireNonNull(type, "type is null");
        this.readType = requireNonNull(readType, "readType is null");
        this.truncation = requireNonNull(truncation, "truncation is null");
    }

    /** The conversion a column of the type needs in a file written so, or none if the reader returns it as is. */
    static Optional<OrcColumnConversion> of(Type type, SecondsTruncation truncation)
    {
        Type readType = readType(type);
        if (readType.equals(type) && !readsFractionBelowUnit(readType, truncation)) {
            return Optional.empty();
        }
        return Optional.of(new OrcColumnConversion(type, readType, truncation));
    }

    /** The type the reader reads the column as. */
    Type readType()
    {
        return readType;
    }

    Block convert(Block read)
    {
        if (type.equals(readType) && !anySecondTaken(read)) {
            return read;
        }
        int positions = read.getPositionCount();
        BlockBuilder builder = type.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            append(type, readType, read, position, builder);
        }
        return builder.build();
    }

    // whether a flat timestamp block holds a value the reader took a second from (most values are after 1970 and
    // leave at the first test); nested blocks are always rebuilt
    private boolean anySecondTaken(Block read)
    {
        int positions = read.getPositionCount();
        switch (read.getUnderlyingValueBlock()) {
            case LongArrayBlock values when readType instanceof TimestampType -> {
                // epoch microseconds
                for (int position = 0; position < positions; position++) {
                    int at = read.getUnderlyingValuePosition(position);
                    long micros = values.getLong(at);
                    if (micros < 0 && timestampSecondTaken(micros, 0) && !values.isNull(at)) {
                        return true;
                    }
                }
                return false;
            }
            case Fixed12Block values when readType instanceof TimestampType -> {
                // epoch microseconds and picoseconds of the microsecond, without a LongTimestamp per value
                for (int position = 0; position < positions; position++) {
                    int at = read.getUnderlyingValuePosition(position);
                    long micros = values.getFixed12First(at);
                    if (micros < 0 && timestampSecondTaken(micros, values.getFixed12Second(at)) && !values.isNull(at)) {
                        return true;
                    }
                }
                return false;
            }
            case Fixed12Block values when readType instanceof TimestampWithTimeZoneType -> {
                // packed epoch milliseconds and picoseconds of the millisecond
                for (int position = 0; position < positions; position++) {
                    int at = read.getUnderlyingValuePosition(position);
                    long millis = unpackMillisUtc(values.getFixed12First(at));
                    if (millis < 0 && instantSecondTaken(millis, values.getFixed12Second(at)) && !values.isNull(at)) {
                        return true;
                    }
                }
                return false;
            }
            default -> {
                return true;
            }
        }
    }

    private void append(Type type, Type readType, Block read, int position, BlockBuilder out)
    {
        if (read.isNull(position)) {
            out.appendNull();
            return;
        }
        switch (type) {
            case TimeType time -> time.writeLong(out, INTEGER.getInt(read, position) * (long) PICOSECONDS_PER_MILLISECOND);
            case TimestampType timestamp when timestamp.isShort() -> {
                long micros = readType.getLong(read, position);
                if (timestampSecondTaken(micros, 0)) {
                    micros += MICROSECONDS_PER_SECOND;
                }
                timestamp.writeLong(out, round(micros, 6 - timestamp.getPrecision()));
            }
            case TimestampType timestamp -> {
                LongTimestamp value = (LongTimestamp) readType.getObject(read, position);
                long micros = value.getEpochMicros();
                if (timestampSecondTaken(micros, value.getPicosOfMicro())) {
                    micros += MICROSECONDS_PER_SECOND;
                }
                long picos = round(value.getPicosOfMicro(), 12 - timestamp.getPrecision());
                if (picos == PICOSECONDS_PER_MICROSECOND) {
                    micros++;
                    picos = 0;
                }
                timestamp.writeObject(out, new LongTimestamp(micros, (int) picos));
            }
            case TimestampWithTimeZoneType timestamp when timestamp.isShort() -> {
                // read with milliseconds: no fraction below a millisecond to correct
                long packed = readType.getLong(read, position);
                timestamp.writeLong(out, packDateTimeWithZone(round(unpackMillisUtc(packed), 3 - timestamp.getPrecision()), unpackZoneKey(packed)));
            }
            case TimestampWithTimeZoneType timestamp -> {
                LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) readType.getObject(read, position);
                long millis = value.getEpochMillis();
                if (instantSecondTaken(millis, value.getPicosOfMilli())) {
                    millis += MILLISECONDS_PER_SECOND;
                }
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
            default -> appendValue(read, position, out);
        }
    }

    // whether the reader took from a TIMESTAMP (epoch microseconds and picoseconds of the microsecond) a second the writer did not add
    private boolean timestampSecondTaken(long epochMicros, int picosOfMicro)
    {
        long fractionNanos = floorMod(epochMicros, MICROSECONDS_PER_SECOND) * NANOSECONDS_PER_MICROSECOND + picosOfMicro / PICOSECONDS_PER_NANOSECOND;
        return epochMicros < 0 && fractionNanos > 0 && fractionNanos < truncation.timestampUnitNanos;
    }

    // whether the reader took from a TIMESTAMP WITH TIME ZONE (epoch milliseconds and picoseconds of the millisecond) a second the writer did not add
    private boolean instantSecondTaken(long epochMillis, int picosOfMilli)
    {
        long fractionNanos = floorMod(epochMillis, MILLISECONDS_PER_SECOND) * (long) NANOSECONDS_PER_MILLISECOND + picosOfMilli / PICOSECONDS_PER_NANOSECOND;
        return epochMillis < 0 && fractionNanos > 0 && fractionNanos < truncation.instantUnitNanos;
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

    // whether the type holds a timestamp read with a fraction finer than the unit its writer truncated
    private static boolean readsFractionBelowUnit(Type type, SecondsTruncation truncation)
    {
        return switch (type) {
            case TimestampType timestamp -> timestamp.getPrecision() > truncation.timestampDigits;
            case TimestampWithTimeZoneType timestamp -> timestamp.getPrecision() > truncation.instantDigits;
            case ArrayType array -> readsFractionBelowUnit(array.getElementType(), truncation);
            case MapType map -> readsFractionBelowUnit(map.getKeyType(), truncation) || readsFractionBelowUnit(map.getValueType(), truncation);
            case RowType row -> row.getFields().stream().anyMatch(field -> readsFractionBelowUnit(field.getType(), truncation));
            default -> false;
        };
    }
}
