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
package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Collects merged rows as references to positions in source pages and turns them into output pages in batches. A
 * row is either one source record (deduplicate, first-row, most rows of every engine) or, for merge functions that
 * combine records, a value per column taken from different records or computed.
 * <p>
 * A batch of whole-record rows is not copied at all: its rows are grouped by source page and each group becomes a
 * view of that page's positions ({@link Page#getPositions}, dictionary blocks over the decoded values), as the
 * pass-through of single-run sections does, or a region of the page when the positions are consecutive. The rows
 * of a split carry no order for Trino, so rows of different source pages need not interleave as the merge emitted
 * them. A batch with combined rows is copied column by
 * column, each run of values from one page with one {@code appendRange} or {@code appendPositions} call. No
 * object is created per row.
 */
public final class OutputPageBuilder
{
    /** Marks a value a merge function computed, see {@link #setComputedColumns}. */
    public static final Page COMPUTED = new Page(0);
    // marks a row whose columns come from different places, held per column
    private static final Page COMBINED = new Page(0);

    private final Type[] types;
    private final int[] sourceChannels;
    private final int capacity;
    // per row: the source page of a whole-record row (or COMBINED), and the position in it
    private final Page[] rowPages;
    private final int[] rowPositions;
    // per column, per combined row: the page holding the value (null for a null value) and the position in it
    private final Page[][] pages;
    private final int[][] positions;
    private final int[] scratch;
    private final boolean ordered;
    private Supplier<Block[]> computedColumns = () -> new Block[0];
    private int size;
    private boolean combined;

    /**
     * @param sourceChannels for each output column, its channel in the source pages
     */
    public OutputPageBuilder(List<Type> types, int[] sourceChannels, int capacity)
    {
        this(types, sourceChannels, capacity, false);
    }

    /**
     * A builder whose pages keep the rows in the order they were added, as a compaction writing a sorted run needs;
     * whole-record rows are then copied too.
     */
    public static OutputPageBuilder ordered(List<Type> types, int[] sourceChannels, int capacity)
    {
        return new OutputPageBuilder(types, sourceChannels, capacity, true);
    }

    private OutputPageBuilder(List<Type> types, int[] sourceChannels, int capacity, boolean ordered)
    {
        this.ordered = ordered;
        this.types = requireNonNull(types, "types is null").toArray(Type[]::new);
        this.sourceChannels = sourceChannels.clone();
        this.capacity = capacity;
        this.rowPages = new Page[capacity];
        this.rowPositions = new int[capacity];
        this.pages = new Page[this.types.length][capacity];
        this.positions = new int[this.types.length][capacity];
        this.scratch = new int[capacity];
    }

    /**
     * Where values that a merge function computed live: a block per output column, built when the page is; rows
     * refer to them with the page {@link #COMPUTED} and the position in that column's block.
     */
    public void setComputedColumns(Supplier<Block[]> computedColumns)
    {
        this.computedColumns = requireNonNull(computedColumns, "computedColumns is null");
    }

    public int columnCount()
    {
        return types.length;
    }

    /** Adds a row that is one source record. */
    public void add(Page page, int position)
    {
        rowPages[size] = page;
        rowPositions[size] = position;
        size++;
    }

    /** Adds a row whose values come from several records: column c from {@code rowPages[c]} (null: NULL). */
    public void addColumns(Page[] columnPages, int[] columnPositions)
    {
        rowPages[size] = COMBINED;
        for (int column = 0; column < types.length; column++) {
            pages[column][size] = columnPages[column];
            positions[column][size] = columnPositions[column];
        }
        combined = true;
        size++;
    }

    public int size()
    {
        return size;
    }

    /** The source page of row {@code row} when it is one whole source record, else null (its columns were combined). */
    public Page recordPage(int row)
    {
        Page page = rowPages[row];
        return page == COMBINED ? null : page;
    }

    /** The position in {@link #recordPage} of row {@code row}, when that row is one whole source record. */
    public int recordPosition(int row)
    {
        return rowPositions[row];
    }

    /**
     * Bytes of the source pages the collected rows refer to, each counted once, and of the builder's own arrays: the
     * rows keep those pages alive after the runs they came from have moved on.
     */
    public long retainedSizeInBytes()
    {
        long bytes = (long) capacity * (Long.BYTES + Integer.BYTES) * (types.length + 2L);
        List<Page> counted = new ArrayList<>();
        Page previous = null;
        for (int row = 0; row < size; row++) {
            Page page = rowPages[row];
            if (page == COMBINED) {
                for (Page[] columnPages : pages) {
                    bytes += sizeIfNew(columnPages[row], counted);
                }
            }
            else if (page != previous) {
                bytes += sizeIfNew(page, counted);
                previous = page;
            }
        }
        return bytes;
    }

    // the page's retained size the first time it is seen, by identity; rows refer to few distinct pages
    private static long sizeIfNew(Page page, List<Page> counted)
    {
        if (page == null || page == COMPUTED) {
            return 0;
        }
        for (Page seen : counted) {
            if (seen == page) {
                return 0;
            }
        }
        counted.add(page);
        return page.getRetainedSizeInBytes();
    }

    public boolean isFull()
    {
        return size >= capacity;
    }

    public boolean isEmpty()
    {
        return size == 0;
    }

    /** Drops the collected rows without building them (a reader that builds its output elsewhere has noted them). */
    public void clear()
    {
        Arrays.fill(rowPages, 0, size, null);
        if (combined) {
            for (Page[] columnPages : pages) {
                Arrays.fill(columnPages, 0, size, null);
            }
        }
        size = 0;
        combined = false;
    }

    /** The collected rows as pages; the builder is empty afterwards. */
    public List<Page> build()
    {
        List<Page> result = combined || ordered ? List.of(copyRows()) : viewsOfSourcePages();
        Arrays.fill(rowPages, 0, size, null);
        size = 0;
        combined = false;
        return result;
    }

    // whole-record rows, grouped by their source page in the order the pages first appear
    private List<Page> viewsOfSourcePages()
    {
        Page[] sources = new Page[8];
        int[][] sourcePositions = new int[8][];
        int[] counts = new int[8];
        int sourceCount = 0;
        int source = -1;
        for (int row = 0; row < size; row++) {
            Page page = rowPages[row];
            // rows of one page mostly follow each other: the latest page first, then the others
            if (source < 0 || sources[source] != page) {
                source = 0;
                while (source < sourceCount && sources[source] != page) {
                    source++;
                }
                if (source == sourceCount) {
                    if (sourceCount == sources.length) {
                        sources = Arrays.copyOf(sources, sourceCount * 2);
                        sourcePositions = Arrays.copyOf(sourcePositions, sourceCount * 2);
                        counts = Arrays.copyOf(counts, sourceCount * 2);
                    }
                    sources[sourceCount] = page;
                    sourcePositions[sourceCount] = new int[size - row];
                    sourceCount++;
                }
            }
            sourcePositions[source][counts[source]++] = rowPositions[row];
        }
        List<Page> pages = new ArrayList<>(sourceCount);
        for (int i = 0; i < sourceCount; i++) {
            Page values = sources[i].getColumns(sourceChannels);
            int[] positions = sourcePositions[i];
            int count = counts[i];
            // the merge reads each page front to back, so a page's positions ascend: when they leave no gap, the rows
            // are a region of the page, which downstream operators read as plain blocks rather than dictionaries
            boolean consecutive = positions[count - 1] - positions[0] == count - 1;
            pages.add(consecutive ? values.getRegion(positions[0], count) : values.getPositions(positions, 0, count));
        }
        return pages;
    }

    private Page copyRows()
    {
        Block[] computed = computedColumns.get();
        BlockBuilder[] builders = new BlockBuilder[types.length];
        for (int column = 0; column < types.length; column++) {
            builders[column] = types[column].createBlockBuilder(null, size);
        }
        int start = 0;
        while (start < size) {
            Page page = rowPages[start];
            int end = start + 1;
            while (end < size && rowPages[end] == page) {
                end++;
            }
            if (page == COMBINED) {
                for (int column = 0; column < types.length; column++) {
                    appendCombined(builders[column], column, start, end, computed);
                }
            }
            else {
                boolean consecutive = isConsecutive(start, end);
                Page values = page;
                for (int column = 0; column < types.length; column++) {
                    append(builders[column], values.getBlock(sourceChannels[column]), rowPositions, start, end, consecutive);
                }
            }
            start = end;
        }
        Block[] blocks = new Block[types.length];
        for (int column = 0; column < types.length; column++) {
            blocks[column] = builders[column].build();
            Arrays.fill(pages[column], 0, size, null);
        }
        return new Page(size, blocks);
    }

    private boolean isConsecutive(int start, int end)
    {
        for (int i = start + 1; i < end; i++) {
            if (rowPositions[i] != rowPositions[i - 1] + 1) {
                return false;
            }
        }
        return true;
    }

    // combined rows [start, end) of one column, in runs of values from one page
    private void appendCombined(BlockBuilder builder, int column, int start, int end, Block[] computed)
    {
        Page[] columnPages = pages[column];
        int[] columnPositions = positions[column];
        int channel = sourceChannels[column];
        while (start < end) {
            Page page = columnPages[start];
            int runEnd = start + 1;
            while (runEnd < end && columnPages[runEnd] == page) {
                runEnd++;
            }
            if (page == null) {
                for (int i = start; i < runEnd; i++) {
                    builder.appendNull();
                }
            }
            else {
                Block block = page == COMPUTED ? computed[column] : page.getBlock(channel);
                append(builder, block, columnPositions, start, runEnd, false);
            }
            start = runEnd;
        }
    }

    // values at positions[start..end) of the block
    private void append(BlockBuilder builder, Block block, int[] positions, int start, int end, boolean consecutive)
    {
        ValueBlock values = block.getUnderlyingValueBlock();
        int length = end - start;
        if (values == block) {
            if (consecutive) {
                builder.appendRange(values, positions[start], length);
            }
            else {
                builder.appendPositions(values, positions, start, length);
            }
            return;
        }
        // dictionary or run-length encoded: the values' own positions
        for (int i = start; i < end; i++) {
            scratch[i - start] = block.getUnderlyingValuePosition(positions[i]);
        }
        builder.appendPositions(values, scratch, 0, length);
    }
}
