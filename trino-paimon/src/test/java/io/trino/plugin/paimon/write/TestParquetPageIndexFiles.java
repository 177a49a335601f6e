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

import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.spi.Page;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.ArrayType;
import org.apache.parquet.format.BoundaryOrder;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.plugin.paimon.testing.ParquetFooters.footer;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.apache.parquet.format.CompressionCodec.ZSTD;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page indexes of the Parquet files Trino's writer writes for us, read back from the bytes: an offset index for
 * every column chunk whose pages lie where the index says, and column indexes whose bounds are each page's lowest
 * and highest value, computed here from the rows written.
 */
final class TestParquetPageIndexFiles
{
    private static final int ROWS = 20_000;
    private static final int PAGE_ROWS = 500;

    @Test
    void everyRowGroupGetsIndexesOfItsPages()
            throws IOException
    {
        // row groups of 16 kB and pages of 2 kB: several row groups, and name's pages end by size before 500 rows
        byte[] file = writeIdsAndNames(new ParquetLayout(16384, 2048, PAGE_ROWS));
        assertThat(footer(file).getRow_groups()).hasSizeGreaterThan(1);
        assertEveryRowGroupIndexed(file, PAGE_ROWS);
    }

    @Test
    void rowGroupsSmallerThanTheWritersBufferGetIndexes()
            throws IOException
    {
        // row groups of 1 kB, smaller than the 4 kB Trino's writer buffers before the file: where a release's writer
        // does not tell a row group's end, one of them may go unseen, and the next row group's pages then hold up to
        // a piece of rows (at most 1,024) more than the limit; every page is still indexed where it lies
        byte[] file = writeIdsAndNames(new ParquetLayout(1024, 256, PAGE_ROWS));
        assertThat(footer(file).getRow_groups()).hasSizeGreaterThan(100);
        assertEveryRowGroupIndexed(file, PAGE_ROWS + 1023);
    }

    @Test
    void filesWithRepeatedColumnsKeepTheWritersEnding()
            throws IOException
    {
        ArrayType arrayType = new ArrayType(BIGINT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<DataFileColumn> columns = List.of(
                new DataFileColumn("id", 0, DataTypeParser.parse("BIGINT NOT NULL"), BIGINT),
                new DataFileColumn("values", 1, DataTypeParser.parse("ARRAY<BIGINT>"), arrayType));
        ParquetFormatFileWriter writer = new ParquetFormatFileWriter(bytes, columns, ZSTD, new ParquetLayout(65536, 2048, PAGE_ROWS));
        BlockBuilder ids = BIGINT.createFixedSizeBlockBuilder(1000);
        ArrayBlockBuilder values = arrayType.createBlockBuilder(null, 1000);
        for (int id = 0; id < 1000; id++) {
            BIGINT.writeLong(ids, id);
            int value = id;
            values.buildEntry(element -> BIGINT.writeLong(element, value));
        }
        writer.write(new Page(ids.build(), values.build()));
        writer.close();
        FileMetaData footer = footer(bytes.toByteArray());
        assertThat(footer.getNum_rows()).isEqualTo(1000);
        assertThat(footer.getRow_groups().getFirst().getColumns()).allSatisfy(chunk -> assertThat(chunk.isSetOffset_index_offset()).isFalse());
    }

    // ROWS rows: id is the row's number in the file, name a scattered string, null in every third row
    private static byte[] writeIdsAndNames(ParquetLayout layout)
            throws IOException
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<DataFileColumn> columns = List.of(
                new DataFileColumn("id", 0, DataTypeParser.parse("BIGINT NOT NULL"), BIGINT),
                new DataFileColumn("name", 1, DataTypeParser.parse("STRING"), VARCHAR));
        ParquetFormatFileWriter writer = new ParquetFormatFileWriter(bytes, columns, ZSTD, layout);
        for (int start = 0; start < ROWS; start += 1000) {
            BlockBuilder ids = BIGINT.createFixedSizeBlockBuilder(1000);
            BlockBuilder names = VARCHAR.createBlockBuilder(null, 1000);
            for (int id = start; id < start + 1000; id++) {
                BIGINT.writeLong(ids, id);
                if (id % 3 == 0) {
                    names.appendNull();
                }
                else {
                    VARCHAR.writeSlice(names, utf8Slice(name(id)));
                }
            }
            writer.write(new Page(ids.build(), names.build()));
        }
        writer.close();
        return bytes.toByteArray();
    }

    private static void assertEveryRowGroupIndexed(byte[] file, long maxPageRows)
            throws IOException
    {
        FileMetaData footer = footer(file);
        long firstRow = 0;
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (int column = 0; column < 2; column++) {
                ColumnChunk chunk = rowGroup.getColumns().get(column);
                OffsetIndex offsets = Util.readOffsetIndex(new ByteArrayInputStream(file, (int) chunk.getOffset_index_offset(), chunk.getOffset_index_length()));
                ColumnIndex index = Util.readColumnIndex(new ByteArrayInputStream(file, (int) chunk.getColumn_index_offset(), chunk.getColumn_index_length()));
                List<PageLocation> pages = offsets.getPage_locations();
                assertThat(pages.getFirst().getFirst_row_index()).isZero();
                assertThat(index.getMin_values()).hasSameSizeAs(pages);
                for (int page = 0; page < pages.size(); page++) {
                    PageLocation location = pages.get(page);
                    long pageStart = firstRow + location.getFirst_row_index();
                    long pageEnd = firstRow + (page + 1 < pages.size() ? pages.get(page + 1).getFirst_row_index() : rowGroup.getNum_rows());
                    assertThat(pageEnd - pageStart).isBetween(1L, maxPageRows);
                    // each page lies right after the previous one
                    if (page + 1 < pages.size()) {
                        assertThat(pages.get(page + 1).getOffset()).isEqualTo(location.getOffset() + location.getCompressed_page_size());
                    }
                    if (column == 0) {
                        // ids are the rows' numbers in the file
                        assertThat(littleEndianLong(index.getMin_values().get(page))).isEqualTo(pageStart);
                        assertThat(littleEndianLong(index.getMax_values().get(page))).isEqualTo(pageEnd - 1);
                        assertThat(index.getNull_counts().get(page)).isZero();
                    }
                    else {
                        assertThat(utf8(index.getMin_values().get(page))).isEqualTo(lowestName(pageStart, pageEnd));
                        assertThat(utf8(index.getMax_values().get(page))).isEqualTo(highestName(pageStart, pageEnd));
                        assertThat(index.getNull_counts().get(page)).isEqualTo(nulls(pageStart, pageEnd));
                    }
                }
                if (column == 0) {
                    assertThat(index.getBoundary_order()).isEqualTo(BoundaryOrder.ASCENDING);
                }
                else {
                    // the names are scattered: an order the index claims must hold for its pages
                    List<String> lows = index.getMin_values().stream().map(TestParquetPageIndexFiles::utf8).toList();
                    List<String> highs = index.getMax_values().stream().map(TestParquetPageIndexFiles::utf8).toList();
                    switch (index.getBoundary_order()) {
                        case ASCENDING -> {
                            assertThat(lows).isSorted();
                            assertThat(highs).isSorted();
                        }
                        case DESCENDING -> {
                            assertThat(lows.reversed()).isSorted();
                            assertThat(highs.reversed()).isSorted();
                        }
                        case UNORDERED -> {}
                    }
                }
            }
            firstRow += rowGroup.getNum_rows();
        }
        assertThat(firstRow).isEqualTo(ROWS);
    }

    private static String name(long id)
    {
        return "n" + Long.toHexString(id * 7919 % 100_003);
    }

    private static String lowestName(long from, long to)
    {
        String lowest = null;
        for (long id = from; id < to; id++) {
            if (id % 3 != 0 && (lowest == null || name(id).compareTo(lowest) < 0)) {
                lowest = name(id);
            }
        }
        return lowest;
    }

    private static String highestName(long from, long to)
    {
        String highest = null;
        for (long id = from; id < to; id++) {
            if (id % 3 != 0 && (highest == null || name(id).compareTo(highest) > 0)) {
                highest = name(id);
            }
        }
        return highest;
    }

    private static long nulls(long from, long to)
    {
        long nulls = 0;
        for (long id = from; id < to; id++) {
            nulls += id % 3 == 0 ? 1 : 0;
        }
        return nulls;
    }

    private static long littleEndianLong(ByteBuffer buffer)
    {
        return buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private static String utf8(ByteBuffer buffer)
    {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
