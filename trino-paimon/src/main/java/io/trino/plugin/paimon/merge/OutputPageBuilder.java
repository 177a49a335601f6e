package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Collects merged rows as references to positions in source pages and copies them out in batches: for each
 * column, every run of consecutive rows whose values sit in one source page becomes one {@code appendPositions}
 * call. A row is either one source record, or, for merge functions that combine records (partial-update), a
 * value per column taken from different records; either way no object is created per row.
 */
public final class OutputPageBuilder
{
    /** Marks a value a merge function computed, see {@link #setComputedColumns}. */
    public static final Page COMPUTED = new Page(0);

    private final Type[] types;
    private final int[] sourceChannels;
    private final int capacity;
    // per column, per row: the page holding the value (null for a null value) and the position in it
    private final Page[][] pages;
    private final int[][] positions;
    private final int[] scratch;
    private Supplier<Block[]> computedColumns = () -> new Block[0];
    private int size;

    /**
     * @param sourceChannels for each output column, its channel in the source pages
     */
    public OutputPageBuilder(List<Type> types, int[] sourceChannels, int capacity)
    {
        this.types = requireNonNull(types, "types is null").toArray(Type[]::new);
        this.sourceChannels = sourceChannels.clone();
        this.capacity = capacity;
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
        for (int column = 0; column < types.length; column++) {
            pages[column][size] = page;
            positions[column][size] = position;
        }
        size++;
    }

    /** Adds a row whose values come from several records: column c from {@code rowPages[c]} (null: NULL). */
    public void addColumns(Page[] rowPages, int[] rowPositions)
    {
        for (int column = 0; column < types.length; column++) {
            pages[column][size] = rowPages[column];
            positions[column][size] = rowPositions[column];
        }
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
        Block[] computed = computedColumns.get();
        Block[] blocks = new Block[types.length];
        for (int column = 0; column < types.length; column++) {
            BlockBuilder builder = types[column].createBlockBuilder(null, size);
            int channel = sourceChannels[column];
            Page[] columnPages = pages[column];
            int[] columnPositions = positions[column];
            int start = 0;
            while (start < size) {
                Page page = columnPages[start];
                int end = start + 1;
                while (end < size && columnPages[end] == page) {
                    end++;
                }
                if (page == null) {
                    for (int i = start; i < end; i++) {
                        builder.appendNull();
                    }
                }
                else {
                    Block block = page == COMPUTED ? computed[column] : page.getBlock(channel);
                    for (int i = start; i < end; i++) {
                        scratch[i - start] = block.getUnderlyingValuePosition(columnPositions[i]);
                    }
                    builder.appendPositions(block.getUnderlyingValueBlock(), scratch, 0, end - start);
                }
                start = end;
            }
            blocks[column] = builder.build();
            Arrays.fill(columnPages, 0, size, null);
        }
        Page result = new Page(size, blocks);
        size = 0;
        return result;
    }
}
