package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Collects merged rows as references to positions in source pages and copies them out in batches. A row is either
 * one source record (deduplicate, first-row, most rows of every engine) or, for merge functions that combine
 * records, a value per column taken from different records or computed. Rows of the first kind share one page
 * and position for all columns, so consecutive rows from one source page are found once for the whole page and
 * copied column by column with one {@code appendRange} (consecutive positions) or {@code appendPositions} call;
 * combined rows are copied per column in runs the same way. No object is created per row.
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
    private Supplier<Block[]> computedColumns = () -> new Block[0];
    private int size;
    private boolean combined;

    /**
     * @param sourceChannels for each output column, its channel in the source pages
     */
    public OutputPageBuilder(List<Type> types, int[] sourceChannels, int capacity)
    {
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

    public boolean isFull()
    {
        return size >= capacity;
    }

    public boolean isEmpty()
    {
        return size == 0;
    }

    /** The collected rows as a page; the builder is empty afterwards. */
    public Page build()
    {
        Block[] computed = combined ? computedColumns.get() : null;
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
                for (int column = 0; column < types.length; column++) {
                    append(builders[column], page.getBlock(sourceChannels[column]), rowPositions, start, end, consecutive);
                }
            }
            start = end;
        }
        Block[] blocks = new Block[types.length];
        for (int column = 0; column < types.length; column++) {
            blocks[column] = builders[column].build();
            if (combined) {
                Arrays.fill(pages[column], 0, size, null);
            }
        }
        Arrays.fill(rowPages, 0, size, null);
        Page result = new Page(size, blocks);
        size = 0;
        combined = false;
        return result;
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
