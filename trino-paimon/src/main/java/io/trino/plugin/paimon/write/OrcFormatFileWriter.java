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

import com.google.common.collect.ImmutableMap;
import io.airlift.slice.OutputStreamSliceOutput;
import io.airlift.units.DataSize;
import io.trino.orc.OrcDataSink;
import io.trino.orc.OrcWriteValidation.OrcWriteValidationMode;
import io.trino.orc.OrcWriter;
import io.trino.orc.OrcWriterOptions;
import io.trino.orc.OrcWriterStats;
import io.trino.orc.metadata.ColumnMetadata;
import io.trino.orc.metadata.CompressionKind;
import io.trino.orc.metadata.OrcColumnId;
import io.trino.orc.metadata.OrcType;
import io.trino.orc.stream.OrcDataOutput;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_NANOS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_NANOS;
import static java.util.Objects.requireNonNull;

/**
 * An ORC data file written by Trino's ORC writer with the schema Paimon's {@code OrcTypeUtil} gives it: the columns by
 * name in file order, every type carrying its Paimon field id as the {@code paimon.id} attribute (list elements, map
 * keys and values the ids Paimon derives from their column's id and depth), TIME as an int of milliseconds of the day,
 * TIMESTAMP as an ORC timestamp (the wall clock in UTC) and TIMESTAMP WITH LOCAL TIME ZONE as a timestamp instant.
 */
final class OrcFormatFileWriter
        implements FormatFileWriter
{
    static final String FIELD_ID_ATTRIBUTE = "paimon.id";
    // Paimon's ids of nested list elements, map keys and map values: around Integer.MAX_VALUE / 4
    private static final int NESTED_ID_BASE = 536870911;
    private static final long PICOSECONDS_PER_MILLISECOND = 1_000_000_000L;
    private static final TypeOperators TYPE_OPERATORS = new TypeOperators();

    private final List<DataFileColumn> columns;
    private final OrcWriter writer;

    OrcFormatFileWriter(OutputStream output, List<DataFileColumn> columns, CompressionKind compression, OrcLayout layout)
    {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        List<String> names = columns.stream().map(DataFileColumn::name).toList();
        List<Type> types = columns.stream().map(column -> storageType(column.type(), column.trinoType())).toList();
        ColumnMetadata<OrcType> orcTypes = withFieldIds(OrcType.createRootOrcType(names, types), columns);
        this.writer = new OrcWriter(
                new StreamDataSink(output),
                names,
                types,
                orcTypes,
                compression,
                stripeOptions(layout),
                ImmutableMap.of(),
                false,
                OrcWriteValidationMode.BOTH,
                new OrcWriterStats());
    }

    // a stripe is written out once its buffered columns reach the stripe size (or, with large dictionaries, from the
    // minimum size on): both are held within the table's stripe size, and so are the dictionaries
    private static OrcWriterOptions stripeOptions(OrcLayout layout)
    {
        OrcWriterOptions defaults = new OrcWriterOptions();
        long stripeSize = layout.stripeSize();
        return defaults
                .withStripeMaxSize(DataSize.ofBytes(stripeSize))
                .withStripeMinSize(DataSize.ofBytes(Math.min(defaults.getStripeMinSize().toBytes(), Math.max(1, stripeSize / 2))))
                .withDictionaryMaxMemory(DataSize.ofBytes(Math.min(defaults.getDictionaryMaxMemory().toBytes(), stripeSize)));
    }

    @Override
    public void write(Page page)
            throws IOException
    {
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < blocks.length; i++) {
            DataFileColumn column = columns.get(i);
            blocks[i] = column.type() instanceof DataType.TimeType ? millisOfDay(column.trinoType(), page.getBlock(i)) : page.getBlock(i);
        }
        writer.write(new Page(page.getPositionCount(), blocks));
    }

    @Override
    public long writtenBytes()
    {
        return writer.getWrittenBytes();
    }

    /** Stripes written plus the rows buffered for the next stripe. */
    @Override
    public long estimatedSize()
    {
        return writer.getWrittenBytes() + writer.getBufferedBytes();
    }

    @Override
    public long retainedBytes()
    {
        return writer.getRetainedBytes();
    }

    @Override
    public void close()
            throws IOException
    {
        writer.close();
    }

    /**
     * The Trino type in which Trino's ORC writer takes the values: TIME as integer milliseconds; timestamps in the
     * precision the writer knows (3, 6 or 9) that holds them, which has the same block form.
     */
    private static Type storageType(DataType type, Type trinoType)
    {
        return switch (type) {
            case DataType.TimeType _ -> INTEGER;
            case DataType.TimestampType timestamp -> timestamp.precision() <= 3 ? TIMESTAMP_MILLIS : timestamp.precision() <= 6 ? TIMESTAMP_MICROS : TIMESTAMP_NANOS;
            case DataType.LocalZonedTimestampType timestamp -> timestamp.precision() <= 3 ? TIMESTAMP_TZ_MILLIS : timestamp.precision() <= 6 ? TIMESTAMP_TZ_MICROS : TIMESTAMP_TZ_NANOS;
            case DataType.ArrayType array -> new ArrayType(storageType(array.elementType(), ((ArrayType) trinoType).getElementType()));
            case DataType.MapType map -> new MapType(
                    storageType(map.keyType(), ((MapType) trinoType).getKeyType()),
                    storageType(map.valueType(), ((MapType) trinoType).getValueType()),
                    TYPE_OPERATORS);
            case DataType.MultisetType multiset -> new MapType(storageType(multiset.elementType(), ((MapType) trinoType).getKeyType()), INTEGER, TYPE_OPERATORS);
            case DataType.RowType row -> {
                List<RowType.Field> fields = new ArrayList<>();
                for (int i = 0; i < row.fields().size(); i++) {
                    RowType.Field field = ((RowType) trinoType).getFields().get(i);
                    fields.add(new RowType.Field(field.getName(), storageType(row.fields().get(i).type(), field.getType())));
                }
                yield RowType.from(fields);
            }
            default -> trinoType;
        };
    }

    private static Block millisOfDay(Type trinoType, Block block)
    {
        BlockBuilder builder = INTEGER.createFixedSizeBlockBuilder(block.getPositionCount());
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                builder.appendNull();
            }
            else {
                INTEGER.writeLong(builder, trinoType.getLong(block, position) / PICOSECONDS_PER_MILLISECOND);
            }
        }
        return builder.build();
    }

    // Trino's ORC types of the columns, each with the Paimon field id as OrcTypeUtil assigns it
    private static ColumnMetadata<OrcType> withFieldIds(ColumnMetadata<OrcType> types, List<DataFileColumn> columns)
    {
        List<OrcType> result = new ArrayList<>(types.stream().toList());
        OrcType root = types.get(OrcColumnId.ROOT_COLUMN);
        for (int i = 0; i < columns.size(); i++) {
            DataFileColumn column = columns.get(i);
            assignIds(types, result, root.getFieldTypeIndex(i), column.type(), column.fieldId(), column.fieldId(), 0);
        }
        return new ColumnMetadata<>(result);
    }

    // id: the id of this type; fieldId and depth: the column the nested ids derive from, as Paimon passes them down
    private static void assignIds(ColumnMetadata<OrcType> types, List<OrcType> result, OrcColumnId column, DataType type, int id, int fieldId, int depth)
    {
        OrcType orcType = types.get(column);
        result.set(column.getId(), new OrcType(
                orcType.getOrcTypeKind(),
                orcType.getFieldTypeIndexes(),
                orcType.getFieldNames(),
                orcType.getLength(),
                orcType.getPrecision(),
                orcType.getScale(),
                ImmutableMap.of(FIELD_ID_ATTRIBUTE, String.valueOf(id))));
        switch (type) {
            case DataType.ArrayType array ->
                    assignIds(types, result, orcType.getFieldTypeIndex(0), array.elementType(), NESTED_ID_BASE + fieldId * 1024 + depth + 1, fieldId, depth + 1);
            case DataType.MapType map -> {
                assignIds(types, result, orcType.getFieldTypeIndex(0), map.keyType(), NESTED_ID_BASE - fieldId * 1024 - depth - 1, fieldId, depth + 1);
                assignIds(types, result, orcType.getFieldTypeIndex(1), map.valueType(), NESTED_ID_BASE + fieldId * 1024 + depth + 1, fieldId, depth + 1);
            }
            case DataType.MultisetType multiset -> {
                assignIds(types, result, orcType.getFieldTypeIndex(0), multiset.elementType(), NESTED_ID_BASE - fieldId * 1024 - depth - 1, fieldId, depth + 1);
                assignIds(types, result, orcType.getFieldTypeIndex(1), new DataType.IntType(false), NESTED_ID_BASE + fieldId * 1024 + depth + 1, fieldId, depth + 1);
            }
            case DataType.RowType row -> {
                for (int i = 0; i < row.fields().size(); i++) {
                    DataField field = row.fields().get(i);
                    assignIds(types, result, orcType.getFieldTypeIndex(i), field.type(), field.id(), field.id(), 0);
                }
            }
            default -> {}
        }
    }

    private static final class StreamDataSink
            implements OrcDataSink
    {
        private final OutputStreamSliceOutput output;

        StreamDataSink(OutputStream output)
        {
            this.output = new OutputStreamSliceOutput(output);
        }

        @Override
        public long size()
        {
            return output.longSize();
        }

        @Override
        public long getRetainedSizeInBytes()
        {
            return output.getRetainedSize();
        }

        @Override
        public void write(List<OrcDataOutput> outputs)
        {
            for (OrcDataOutput data : outputs) {
                data.writeData(output);
            }
        }

        @Override
        public void close()
                throws IOException
        {
            output.close();
        }
    }
}
