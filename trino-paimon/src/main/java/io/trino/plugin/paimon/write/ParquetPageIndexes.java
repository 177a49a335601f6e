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

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * Ends a Parquet file Trino's writer wrote with the page indexes Apache Parquet's writer (and so Paimon's) writes
 * and Trino's does not: after the data, the column indexes (each page's bounds and nulls, for the columns that have
 * {@link ColumnPageBounds}), then the offset indexes (where each data page lies and its first row) of every column
 * chunk, then the writer's footer pointing at them. A reader that is given a predicate on a column with a column
 * index then decodes only the pages that can hold its values.
 * <p>
 * The pages {@link ParquetPageLocator} found must lie exactly as the footer describes the column chunks, one after
 * the other up to where the held back footer starts, and every column's values must be its rows (no repeated
 * column); otherwise nothing is written and the file keeps the writer's own ending.
 */
final class ParquetPageIndexes
{
    private static final byte[] MAGIC = "PAR1".getBytes(US_ASCII);

    private ParquetPageIndexes() {}

    /**
     * Writes the indexes and the footer when the pages fit the footer, dropping the held back bytes.
     *
     * @param pieceStarts the first row in the file of each piece the bounds were taken of
     * @param bounds per leaf column (in footer order) that has them
     * @return whether the file was ended; if not, nothing was written
     */
    static boolean write(FileMetaData footer, ParquetPageLocator locator, long[] pieceStarts, Map<Integer, ColumnPageBounds> bounds)
            throws IOException
    {
        Optional<List<List<List<PageLocation>>>> located = locate(footer, locator.pages(), locator.heldFrom());
        if (located.isEmpty()) {
            return false;
        }
        List<RowGroup> rowGroups = footer.getRow_groups();
        List<List<Optional<ColumnIndex>>> columnIndexes = new ArrayList<>();
        long firstRow = 0;
        for (int group = 0; group < rowGroups.size(); group++) {
            List<List<PageLocation>> chunks = located.get().get(group);
            List<Optional<ColumnIndex>> indexes = new ArrayList<>();
            long end = firstRow + rowGroups.get(group).getNum_rows();
            for (int column = 0; column < chunks.size(); column++) {
                ColumnPageBounds columnBounds = bounds.get(column);
                if (columnBounds == null) {
                    indexes.add(Optional.empty());
                    continue;
                }
                List<PageLocation> pages = chunks.get(column);
                long[] pageStarts = new long[pages.size()];
                for (int page = 0; page < pageStarts.length; page++) {
                    pageStarts[page] = firstRow + pages.get(page).getFirst_row_index();
                }
                indexes.add(columnBounds.columnIndex(pieceStarts, pageStarts, end));
            }
            columnIndexes.add(indexes);
            firstRow = end;
        }

        locator.dropHeld();
        for (int group = 0; group < rowGroups.size(); group++) {
            List<ColumnChunk> columns = rowGroups.get(group).getColumns();
            for (int column = 0; column < columns.size(); column++) {
                Optional<ColumnIndex> index = columnIndexes.get(group).get(column);
                if (index.isPresent()) {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    Util.writeColumnIndex(index.get(), bytes);
                    columns.get(column).setColumn_index_offset(locator.position());
                    columns.get(column).setColumn_index_length(bytes.size());
                    locator.append(bytes.toByteArray());
                }
            }
        }
        for (int group = 0; group < rowGroups.size(); group++) {
            List<ColumnChunk> columns = rowGroups.get(group).getColumns();
            for (int column = 0; column < columns.size(); column++) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                Util.writeOffsetIndex(new OffsetIndex(located.get().get(group).get(column)), bytes);
                columns.get(column).setOffset_index_offset(locator.position());
                columns.get(column).setOffset_index_length(bytes.size());
                locator.append(bytes.toByteArray());
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Util.writeFileMetaData(footer, bytes);
        int footerLength = bytes.size();
        bytes.write(ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(footerLength).array());
        bytes.write(MAGIC);
        locator.append(bytes.toByteArray());
        return true;
    }

    // the data pages of each column chunk of each row group, with their first rows in the row group; empty when the
    // pages do not tile the column chunks exactly up to where the footer starts
    private static Optional<List<List<List<PageLocation>>>> locate(FileMetaData footer, List<ParquetPageLocator.Page> pages, long dataEnd)
    {
        if (dataEnd < 0 || pages.isEmpty()) {
            return Optional.empty();
        }
        List<List<List<PageLocation>>> rowGroups = new ArrayList<>();
        int next = 0;
        long at = pages.getFirst().offset();
        for (RowGroup rowGroup : footer.getRow_groups()) {
            List<List<PageLocation>> chunks = new ArrayList<>();
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                ColumnMetaData metadata = chunk.getMeta_data();
                long start = metadata.getData_page_offset();
                if (metadata.isSetDictionary_page_offset() && metadata.getDictionary_page_offset() > 0) {
                    start = Math.min(start, metadata.getDictionary_page_offset());
                }
                long end = start + metadata.getTotal_compressed_size();
                if (start != at) {
                    return Optional.empty();
                }
                List<PageLocation> locations = new ArrayList<>();
                long row = 0;
                while (at < end) {
                    if (next == pages.size()) {
                        return Optional.empty();
                    }
                    ParquetPageLocator.Page page = pages.get(next++);
                    if (page.offset() != at || (page.dictionary() && !locations.isEmpty())) {
                        return Optional.empty();
                    }
                    if (!page.dictionary()) {
                        locations.add(new PageLocation(page.offset(), page.size(), row));
                        row += page.values();
                    }
                    at += page.size();
                }
                if (at != end || row != rowGroup.getNum_rows()) {
                    return Optional.empty();
                }
                chunks.add(locations);
            }
            rowGroups.add(chunks);
        }
        if (next != pages.size() || at != dataEnd) {
            return Optional.empty();
        }
        return Optional.of(rowGroups);
    }
}
