package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Collects merged rows as references to positions in source pages and copies them out in batches: every run of
 * consecutive rows from one source page becomes one {@code appendPositions} call per column. No object is created
 * per row.
 */
public final class OutputPageBuilder
{
    private final Type[] types;
    private final int[] sourceChannels;
    private final int capacity;
    private final Page[] pages;
    private final int[] positions;
    private final int[] scratch;
    private int size;

    /**
     * @param sourceChannels for each output column, its channel in the source pages
     */
    public OutputPageBuilder(List<Type> types, int[] sourceChannels, int capacity)
    {
        this.types = requireNonNull(types, "types is null").toArray(Type[]::new);
        this.sourceChannels = sourceChannels.clone();
        this.capacity = capacity;
        this.pages = new Page[capacity];
        this.positions = new int[capacity];
        this.scratch = new int[capacity];
    }

    public void add(Page page, int position)
    {
        pages[size] = page;
        positions[size] = position;
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
        Block[] blocks = new Block[types.length];
        for (int column = 0; column < types.length; column++) {
            BlockBuilder builder = types[column].createBlockBuilder(null, size);
            int channel = sourceChannels[column];
            int start = 0;
            while (start < size) {
                Page page = pages[start];
                int end = start + 1;
                while (end < size && pages[end] == page) {
                    end++;
                }
                Block block = page.getBlock(channel);
                for (int i = start; i < end; i++) {
                    scratch[i - start] = block.getUnderlyingValuePosition(positions[i]);
                }
                builder.appendPositions(block.getUnderlyingValueBlock(), scratch, 0, end - start);
                start = end;
            }
            blocks[column] = builder.build();
        }
        Page result = new Page(size, blocks);
        Arrays.fill(pages, 0, size, null);
        size = 0;
        return result;
    }
}
