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
package io.trino.plugin.paimon.benchmark;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.Page;
import io.trino.spi.PageBuilder;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;

import java.util.List;
import java.util.function.Consumer;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;

/**
 * The reference reader: Paimon Java's merging batch reader over one bucket, each row's fields fetched through
 * Paimon's field getters and appended one by one into Trino block builders, which is how Trino connectors built
 * on Paimon Java (paimon-trino and others) turn its rows into pages.
 */
final class PaimonJavaPageReader
{
    private PaimonJavaPageReader() {}

    /** Hands the pages of the bucket's merged rows to the consumer; types are the Trino types of the table's columns. */
    static long read(Table table, int bucket, List<Type> types, Consumer<Page> consumer)
            throws Exception
    {
        ReadBuilder readBuilder = table.newReadBuilder().withBucket(bucket);
        RowType rowType = table.rowType();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[types.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = InternalRow.createFieldGetter(rowType.getTypeAt(i), i);
        }
        PageBuilder pageBuilder = new PageBuilder(types);
        long rows = 0;
        List<Split> splits = readBuilder.newScan().plan().splits();
        for (Split split : splits) {
            try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(split)) {
                RecordReader.RecordIterator<InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        pageBuilder.declarePosition();
                        for (int i = 0; i < getters.length; i++) {
                            append(types.get(i), getters[i].getFieldOrNull(row), pageBuilder.getBlockBuilder(i));
                        }
                        rows++;
                        if (pageBuilder.isFull()) {
                            consumer.accept(pageBuilder.build());
                            pageBuilder.reset();
                        }
                    }
                    batch.releaseBatch();
                }
            }
        }
        if (!pageBuilder.isEmpty()) {
            consumer.accept(pageBuilder.build());
        }
        return rows;
    }

    private static void append(Type type, Object value, BlockBuilder output)
    {
        if (value == null) {
            output.appendNull();
        }
        else if (type.equals(BIGINT)) {
            BIGINT.writeLong(output, (Long) value);
        }
        else if (type.equals(INTEGER) || type.equals(DATE)) {
            type.writeLong(output, (Integer) value);
        }
        else if (type.equals(DOUBLE)) {
            DOUBLE.writeDouble(output, (Double) value);
        }
        else if (type.equals(BOOLEAN)) {
            BOOLEAN.writeBoolean(output, (Boolean) value);
        }
        else if (type instanceof DecimalType decimal && decimal.isShort()) {
            decimal.writeLong(output, ((Decimal) value).toUnscaledLong());
        }
        else if (type.getJavaType() == Slice.class) {
            type.writeSlice(output, Slices.wrappedBuffer(((BinaryString) value).toBytes()));
        }
        else {
            throw new IllegalArgumentException("type not used by the benchmark: " + type);
        }
    }
}
