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

import com.google.common.collect.ArrayListMultimap;
import com.google.common.collect.ListMultimap;
import io.airlift.slice.Slice;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.DiskRange;
import io.trino.parquet.Field;
import io.trino.parquet.GroupField;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetMetadataConverter;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.IndexReference;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.parquet.reader.ColumnChunk;
import io.trino.parquet.reader.ColumnReader;
import io.trino.parquet.reader.ColumnReaderFactory;
import io.trino.parquet.reader.FilteredRowRanges;
import io.trino.parquet.reader.PageReader;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.parquet.format.Util;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static java.lang.Math.min;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * Reads columns of a Parquet file at chosen rows only, the second pass of a two-pass merge: the rows are given by
 * their numbers in the file, ascending. Each column chunk is read by Trino's column reader with row ranges built from
 * those rows, as Trino reads the pages a column index selects: pages holding none of the rows are not read at all,
 * and within a page the values of other rows are skipped by the decoders, not decoded. A column chunk without an
 * offset index (the row ranges need each page's first row) is decoded up to its last chosen row instead, and the
 * chosen values picked out.
 * <p>
 * A nested column (ROW, ARRAY, MAP, nested in each other to any depth) is read the same way, one column reader per
 * primitive column under it: Trino's readers of repeated and nested primitive columns take row ranges of top-level
 * rows too, and return the definition and repetition levels of the rows they read, from which the nested values are
 * assembled as Trino's {@code ParquetReader} assembles them ({@link NestedBlocks}). All its column chunks are read at
 * the chosen rows, or, if any of them lacks an offset index, all up to the last chosen row.
 * <p>
 * Chosen rows a few rows apart are read as one range, the rows between them decoded and dropped: each range costs the
 * column readers a skip and a read call per column, which for winners scattered one or two rows apart (random updates)
 * costs more than decoding the rows between them.
 * <p>
 * Trino's {@code ParquetReader} cannot do this itself: it builds its row ranges only from a column index and a
 * predicate (its private {@code calculateFilteredRowRanges}), and a page it returns decodes a whole batch of a column
 * before {@code SourcePage.selectPositions} picks positions out of it. Its column readers, though,
 * ({@link ColumnReader#setPageReader} with {@link FilteredRowRanges}) take any row ranges.
 */
final class ParquetRowRangeReader
{
    private final ParquetDataSource dataSource;
    private final List<BlockMetadata> rowGroups;
    private final Optional<String> createdBy;
    // per output column: its field in the file, or empty for a column the file lacks (read as nulls)
    private final List<Optional<Field>> fields;
    // per output column: the primitive columns under it, depth first (the column itself for a flat one)
    private final List<List<PrimitiveField>> leaves;
    private final List<Type> types;
    private final ParquetReaderOptions options;
    private final ColumnReaderFactory columnReaders;
    private final AggregatedMemoryContext memoryContext = newSimpleAggregatedMemoryContext();
    // rows decoded only because they lie between chosen rows of one range
    private long gapRowsDecoded;
    // data pages of the columns read that hold none of the chosen rows: their bytes are neither read nor decompressed
    private long pagesUnread;

    ParquetRowRangeReader(
            ParquetDataSource dataSource,
            List<BlockMetadata> rowGroups,
            Optional<String> createdBy,
            List<Optional<Field>> fields,
            List<Type> types,
            ParquetReaderOptions options)
    {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
        this.rowGroups = List.copyOf(rowGroups);
        this.createdBy = requireNonNull(createdBy, "createdBy is null");
        this.fields = List.copyOf(fields);
        List<List<PrimitiveField>> leaves = new ArrayList<>(fields.size());
        for (Optional<Field> field : fields) {
            checkArgument(field.map(ParquetRowRangeReader::readableAtRows).orElse(true), "column cannot be read at chosen rows: %s", field);
            List<PrimitiveField> columnLeaves = new ArrayList<>();
            field.ifPresent(present -> addLeaves(present, columnLeaves));
            leaves.add(List.copyOf(columnLeaves));
        }
        this.leaves = List.copyOf(leaves);
        this.types = List.copyOf(types);
        checkArgument(fields.size() == types.size(), "fields and types differ in size");
        this.options = requireNonNull(options, "options is null");
        this.columnReaders = new ColumnReaderFactory(DateTimeZone.UTC, options);
    }

    /**
     * The columns at {@code rows[0..count)}, file row numbers in ascending order, as pages of at most
     * {@code maxPageRows} rows each, in the order of the rows. Chosen rows at most {@code maxGapRows} rows apart are
     * read as one range (see the class comment); 0 reads exactly the chosen rows.
     */
    List<Page> read(long[] rows, int count, int maxPageRows, int maxGapRows)
            throws IOException
    {
        checkArgument(maxGapRows >= 0, "maxGapRows is negative");
        List<Page> pages = new ArrayList<>();
        int start = 0;
        long groupStart = 0;
        for (int group = 0; group < rowGroups.size() && start < count; group++) {
            BlockMetadata rowGroup = rowGroups.get(group);
            long groupEnd = groupStart + rowGroup.rowCount();
            int end = start;
            while (end < count && rows[end] < groupEnd) {
                end++;
            }
            if (end > start) {
                checkArgument(rows[start] >= groupStart, "rows are not in ascending order");
                readRowGroup(rowGroup, groupStart, rows, start, end, maxPageRows, maxGapRows, pages);
            }
            start = end;
            groupStart = groupEnd;
        }
        checkArgument(start == count, "row %s is past the end of the file", start < count ? rows[start] : -1);
        return pages;
    }

    private void readRowGroup(BlockMetadata rowGroup, long groupStart, long[] rows, int start, int end, int maxPageRows, int maxGapRows, List<Page> pages)
            throws IOException
    {
        int count = end - start;
        // the rows within the row group, and the ranges read for them
        long[] groupRows = new long[count];
        for (int i = 0; i < count; i++) {
            groupRows[i] = rows[start + i] - groupStart;
        }
        Ranges ranges = Ranges.of(groupRows, maxGapRows);
        // one set of row ranges serves every column: building them is not free where the ranges are many
        FilteredRowRanges rowRanges = new FilteredRowRanges(ranges.toRowRanges(rowGroup.rowCount()));

        int columnCount = fields.size();
        // per column, the column chunks of its primitive columns (one for a flat column), in the order of its leaves
        ColumnChunkMetadata[][] chunks = new ColumnChunkMetadata[columnCount][];
        // per column and chunk, the pages holding chosen rows; null for a column read up to its last chosen row
        OffsetIndex[][] selectedPages = new OffsetIndex[columnCount][];
        // the bytes to read, by chunk number: the chunks of all columns numbered in order
        ListMultimap<Integer, DiskRange> diskRanges = ArrayListMultimap.create();
        int chunkNumber = 0;
        for (int column = 0; column < columnCount; column++) {
            if (fields.get(column).isEmpty()) {
                continue;
            }
            List<PrimitiveField> columnLeaves = leaves.get(column);
            chunks[column] = new ColumnChunkMetadata[columnLeaves.size()];
            List<Optional<OffsetIndex>> offsetIndexes = new ArrayList<>(columnLeaves.size());
            boolean indexed = true;
            for (int leaf = 0; leaf < columnLeaves.size(); leaf++) {
                chunks[column][leaf] = chunkOf(rowGroup, columnLeaves.get(leaf));
                offsetIndexes.add(offsetIndex(chunks[column][leaf]));
                indexed &= offsetIndexes.get(leaf).isPresent();
            }
            // a nested column's value is assembled from all its column chunks: they are all read at the chosen rows,
            // or all up to the last of them
            if (indexed) {
                selectedPages[column] = new OffsetIndex[columnLeaves.size()];
            }
            for (int leaf = 0; leaf < columnLeaves.size(); leaf++, chunkNumber++) {
                ColumnChunkMetadata chunk = chunks[column][leaf];
                if (!indexed) {
                    diskRanges.put(chunkNumber, new DiskRange(chunk.getStartingPos(), chunk.getTotalSize()));
                    continue;
                }
                OffsetIndex offsetIndex = offsetIndexes.get(leaf).get();
                SelectedPages selected = SelectedPages.of(offsetIndex, ranges, rowGroup.rowCount());
                selectedPages[column][leaf] = selected;
                pagesUnread += offsetIndex.getPageCount() - selected.getPageCount();
                long firstPage = offsetIndex.getOffset(0);
                if (chunk.getStartingPos() < firstPage) {
                    // the dictionary page, before the first data page
                    diskRanges.put(chunkNumber, new DiskRange(chunk.getStartingPos(), firstPage - chunk.getStartingPos()));
                }
                for (DiskRange range : selected.diskRanges()) {
                    diskRanges.put(chunkNumber, range);
                }
            }
        }
        Map<Integer, ChunkedInputStream> inputs = dataSource.planRead(diskRanges, memoryContext);
        try {
            ColumnValues[] readers = new ColumnValues[columnCount];
            // columns without an offset index, decoded up to the last row and picked from
            Block[] picked = new Block[columnCount];
            chunkNumber = 0;
            for (int column = 0; column < columnCount; column++) {
                if (chunks[column] == null) {
                    continue;
                }
                List<PrimitiveField> columnLeaves = leaves.get(column);
                ColumnReader[] leafReaders = new ColumnReader[columnLeaves.size()];
                for (int leaf = 0; leaf < columnLeaves.size(); leaf++, chunkNumber++) {
                    PrimitiveField field = columnLeaves.get(leaf);
                    OffsetIndex pagesRead = selectedPages[column] == null ? null : selectedPages[column][leaf];
                    leafReaders[leaf] = columnReaders.create(field, memoryContext);
                    PageReader pageReader = ParquetReaders.pageReader(dataSource.getId(), inputs.get(chunkNumber), chunks[column][leaf], field.getDescriptor(), pagesRead, createdBy, options);
                    leafReaders[leaf].setPageReader(pageReader, selectedPages[column] == null ? Optional.empty() : Optional.of(rowRanges));
                }
                ColumnValues values = new ColumnValues(fields.get(column).get(), leafReaders);
                if (selectedPages[column] != null) {
                    readers[column] = values;
                }
                else {
                    picked[column] = pick(values.read(toIntExact(groupRows[count - 1] + 1)), groupRows);
                }
            }
            for (int offset = 0; offset < count; offset += maxPageRows) {
                int batch = min(maxPageRows, count - offset);
                // the ranges' rows from just after the previous batch's last chosen row to this batch's last one
                int firstRangeRow = offset == 0 ? 0 : ranges.rangeIndex()[offset - 1] + 1;
                int rangeRows = ranges.rangeIndex()[offset + batch - 1] - firstRangeRow + 1;
                int[] chosen = null;
                if (rangeRows > batch) {
                    chosen = new int[batch];
                    for (int i = 0; i < batch; i++) {
                        chosen[i] = ranges.rangeIndex()[offset + i] - firstRangeRow;
                    }
                }
                Block[] blocks = new Block[columnCount];
                boolean gapDecoded = false;
                for (int column = 0; column < columnCount; column++) {
                    if (readers[column] != null) {
                        Block block = readers[column].read(rangeRows);
                        blocks[column] = chosen == null ? block : block.copyPositions(chosen, 0, batch);
                        gapDecoded = true;
                    }
                    else if (picked[column] != null) {
                        blocks[column] = picked[column].getRegion(offset, batch);
                    }
                    else {
                        blocks[column] = RunLengthEncodedBlock.create(types.get(column), null, batch);
                    }
                }
                if (gapDecoded) {
                    gapRowsDecoded += rangeRows - batch;
                }
                pages.add(new Page(batch, blocks));
            }
        }
        finally {
            for (ChunkedInputStream input : inputs.values()) {
                input.close();
            }
        }
    }

    private static Block pick(Block block, long[] rows)
    {
        int[] positions = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            positions[i] = toIntExact(rows[i]);
        }
        return block.copyPositions(positions, 0, positions.length);
    }

    /**
     * Whether a column of this shape can be read at chosen rows: a flat column, or a ROW, ARRAY or MAP column whose
     * file holds an element (of an array), a key and a value (of a map) and at least one field (of a row) for it, each
     * of them such a column in turn. The others (a VARIANT, or a nested column the file holds only part of) cannot.
     */
    static boolean readableAtRows(Field field)
    {
        if (field instanceof PrimitiveField) {
            return true;
        }
        if (!(field instanceof GroupField group)) {
            return false;
        }
        List<Optional<Field>> children = group.getChildren();
        return switch (group.getType()) {
            case ArrayType _ -> children.size() == 1 && children.getFirst().map(ParquetRowRangeReader::readableAtRows).orElse(false);
            case MapType _ -> children.size() == 2 && children.stream().allMatch(child -> child.map(ParquetRowRangeReader::readableAtRows).orElse(false));
            case RowType row -> children.size() == row.getFields().size()
                    && children.stream().anyMatch(Optional::isPresent)
                    && children.stream().flatMap(Optional::stream).allMatch(ParquetRowRangeReader::readableAtRows);
            default -> false;
        };
    }

    // the primitive columns under a column, depth first: the order ColumnValues reads them in
    private static void addLeaves(Field field, List<PrimitiveField> leaves)
    {
        if (field instanceof PrimitiveField primitive) {
            leaves.add(primitive);
        }
        else {
            for (Optional<Field> child : ((GroupField) field).getChildren()) {
                child.ifPresent(present -> addLeaves(present, leaves));
            }
        }
    }

    private static ColumnChunkMetadata chunkOf(BlockMetadata rowGroup, PrimitiveField field)
            throws IOException
    {
        String[] path = field.getDescriptor().getPath();
        for (ColumnChunkMetadata chunk : rowGroup.columns()) {
            if (Arrays.equals(chunk.getPath().toArray(), path)) {
                return chunk;
            }
        }
        throw new IOException("Row group has no column chunk for " + String.join(".", path));
    }

    private Optional<OffsetIndex> offsetIndex(ColumnChunkMetadata chunk)
            throws IOException
    {
        IndexReference reference = chunk.getOffsetIndexReference();
        if (reference == null) {
            return Optional.empty();
        }
        Slice bytes = dataSource.readFully(reference.getOffset(), reference.getLength());
        OffsetIndex index = ParquetMetadataConverter.fromParquetOffsetIndex(Util.readOffsetIndex(bytes.getInput()));
        return index.getPageCount() == 0 ? Optional.empty() : Optional.of(index);
    }

    long memoryUsage()
    {
        return memoryContext.getBytes();
    }

    /** Rows not chosen whose values were decoded, as they lay between chosen rows read as one range. */
    long gapRowsDecoded()
    {
        return gapRowsDecoded;
    }

    /**
     * Data pages not read, as they hold none of the chosen rows (nor rows between chosen rows of one range), summed
     * over the calls of {@link #read}; pages of a column chunk without an offset index are all read.
     */
    long pagesUnread()
    {
        return pagesUnread;
    }

    /**
     * The values of one column in one row group, read through one column reader per primitive column under it: a
     * nested column's value is assembled from theirs ({@link NestedBlocks}), which all read the same top-level rows.
     */
    private static final class ColumnValues
    {
        private final Field field;
        private final ColumnReader[] leaves;
        private int nextLeaf;

        ColumnValues(Field field, ColumnReader[] leaves)
        {
            this.field = field;
            this.leaves = leaves;
        }

        /** The column's next {@code rows} rows of its readers (the rows of their row ranges, where they have some). */
        Block read(int rows)
        {
            for (ColumnReader leaf : leaves) {
                leaf.prepareNextRead(rows);
            }
            nextLeaf = 0;
            Block block = read(field).getBlock();
            checkState(nextLeaf == leaves.length && block.getPositionCount() == rows, "column %s read %s rows of %s", field, block.getPositionCount(), rows);
            return block;
        }

        private ColumnChunk read(Field field)
        {
            if (field instanceof PrimitiveField) {
                return leaves[nextLeaf++].readPrimitive();
            }
            GroupField group = (GroupField) field;
            List<Optional<Field>> children = group.getChildren();
            return switch (group.getType()) {
                case ArrayType _ -> {
                    ColumnChunk elements = read(children.getFirst().orElseThrow());
                    yield new ColumnChunk(NestedBlocks.array(group, elements), elements.getDefinitionLevels(), elements.getRepetitionLevels());
                }
                case MapType _ -> {
                    ColumnChunk keys = read(children.get(0).orElseThrow());
                    Block values = read(children.get(1).orElseThrow()).getBlock();
                    yield new ColumnChunk(NestedBlocks.map(group, keys, values), keys.getDefinitionLevels(), keys.getRepetitionLevels());
                }
                case RowType _ -> {
                    Block[] fieldBlocks = new Block[children.size()];
                    ColumnChunk levels = null;
                    for (int i = 0; i < children.size(); i++) {
                        if (children.get(i).isPresent()) {
                            ColumnChunk chunk = read(children.get(i).get());
                            fieldBlocks[i] = chunk.getBlock();
                            levels = levels == null ? chunk : levels;
                        }
                    }
                    checkState(levels != null, "row column %s has no field in the file", field);
                    yield new ColumnChunk(NestedBlocks.row(group, levels, fieldBlocks), levels.getDefinitionLevels(), levels.getRepetitionLevels());
                }
                default -> throw new IllegalStateException("column cannot be read at chosen rows: " + field);
            };
        }
    }

    /**
     * Ranges of rows, inclusive, ascending, that cover the chosen rows; {@code rangeIndex[i]} is the position of the
     * i-th chosen row among all rows of the ranges.
     */
    private record Ranges(long[] starts, long[] ends, int[] rangeIndex)
    {
        static Ranges of(long[] rows, int maxGapRows)
        {
            int count = 0;
            long[] starts = new long[rows.length];
            long[] ends = new long[rows.length];
            int[] rangeIndex = new int[rows.length];
            // rows of the ranges before the last one
            int closedRows = 0;
            for (int i = 0; i < rows.length; i++) {
                long row = rows[i];
                if (count > 0 && row - ends[count - 1] - 1 <= maxGapRows) {
                    ends[count - 1] = row;
                }
                else {
                    if (count > 0) {
                        closedRows += toIntExact(ends[count - 1] - starts[count - 1] + 1);
                    }
                    starts[count] = row;
                    ends[count] = row;
                    count++;
                }
                rangeIndex[i] = toIntExact(closedRows + row - starts[count - 1]);
            }
            return new Ranges(Arrays.copyOf(starts, count), Arrays.copyOf(ends, count), rangeIndex);
        }

        int count()
        {
            return starts.length;
        }

        /**
         * As Parquet's row ranges. They are built from pages (an offset index) only; an offset index whose pages are
         * these ranges gives exactly them.
         */
        RowRanges toRowRanges(long rowGroupRowCount)
        {
            OffsetIndex asPages = new OffsetIndex()
            {
                @Override
                public int getPageCount()
                {
                    return count();
                }

                @Override
                public long getOffset(int pageIndex)
                {
                    return 0;
                }

                @Override
                public int getCompressedPageSize(int pageIndex)
                {
                    return 0;
                }

                @Override
                public long getFirstRowIndex(int pageIndex)
                {
                    return starts[pageIndex];
                }

                @Override
                public long getLastRowIndex(int pageIndex, long rowGroupRowCount)
                {
                    return ends[pageIndex];
                }
            };
            return RowRanges.create(rowGroupRowCount, IntStream.range(0, count()).iterator(), asPages);
        }
    }

    /** The pages of a column chunk's offset index that hold any of the rows, as an offset index of their own. */
    private static final class SelectedPages
            implements OffsetIndex
    {
        private final OffsetIndex pages;
        private final int[] selected;
        private final long rowGroupRowCount;

        private SelectedPages(OffsetIndex pages, int[] selected, long rowGroupRowCount)
        {
            this.pages = pages;
            this.selected = selected;
            this.rowGroupRowCount = rowGroupRowCount;
        }

        static SelectedPages of(OffsetIndex pages, Ranges ranges, long rowGroupRowCount)
        {
            int[] selected = new int[pages.getPageCount()];
            int count = 0;
            int range = 0;
            for (int page = 0; page < pages.getPageCount() && range < ranges.count(); page++) {
                long first = pages.getFirstRowIndex(page);
                long last = pages.getLastRowIndex(page, rowGroupRowCount);
                while (range < ranges.count() && ranges.ends()[range] < first) {
                    range++;
                }
                if (range < ranges.count() && ranges.starts()[range] <= last) {
                    selected[count++] = page;
                }
            }
            return new SelectedPages(pages, Arrays.copyOf(selected, count), rowGroupRowCount);
        }

        /** The bytes of the selected pages, adjacent pages as one range. */
        List<DiskRange> diskRanges()
        {
            List<DiskRange> ranges = new ArrayList<>();
            long start = -1;
            long end = -1;
            for (int page : selected) {
                long offset = pages.getOffset(page);
                int size = pages.getCompressedPageSize(page);
                if (offset == end) {
                    end += size;
                }
                else {
                    if (start >= 0) {
                        ranges.add(new DiskRange(start, end - start));
                    }
                    start = offset;
                    end = offset + size;
                }
            }
            if (start >= 0) {
                ranges.add(new DiskRange(start, end - start));
            }
            return ranges;
        }

        @Override
        public int getPageCount()
        {
            return selected.length;
        }

        @Override
        public long getOffset(int pageIndex)
        {
            return pages.getOffset(selected[pageIndex]);
        }

        @Override
        public int getCompressedPageSize(int pageIndex)
        {
            return pages.getCompressedPageSize(selected[pageIndex]);
        }

        @Override
        public long getFirstRowIndex(int pageIndex)
        {
            return pages.getFirstRowIndex(selected[pageIndex]);
        }

        @Override
        public long getLastRowIndex(int pageIndex, long rowCount)
        {
            return pages.getLastRowIndex(selected[pageIndex], rowGroupRowCount);
        }
    }
}
