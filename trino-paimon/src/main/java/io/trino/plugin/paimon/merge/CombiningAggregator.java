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
import io.trino.spi.type.Type;

import static io.trino.plugin.paimon.merge.BlockValues.appendValue;
import static java.util.Objects.requireNonNull;

/**
 * Base of the aggregates that build a new value out of two (collections, sketches, bitmaps). The accumulator is
 * null, a reference to one value as it was read (Paimon passes a value that meets a null through untouched), or a
 * value the subclass has built.
 */
abstract class CombiningAggregator
        implements FieldAggregator
{
    protected final Type type;
    protected final int channel;
    protected final String context;
    // the referenced value: page is null when the value is not in a source page (see addOlder)
    private Page page;
    private Block block;
    private int position;
    private boolean built;

    protected CombiningAggregator(Type type, int channel, String context)
    {
        this.type = requireNonNull(type, "type is null");
        this.channel = channel;
        this.context = requireNonNull(context, "context is null");
    }

    /** Paimon's {@code agg(accumulator, input)}, the input at a position of the block; page is null when it is not a source page's. */
    protected abstract void combine(Page page, Block block, int position);

    /** Writes the built value. */
    protected abstract void writeBuilt(BlockBuilder builder);

    /** Forgets the built value. */
    protected abstract void clearBuilt();

    @Override
    public void add(Page page, int position)
    {
        combine(page, page.getBlock(channel), position);
    }

    /**
     * Paimon's default {@code aggReversed}: {@code agg(input, accumulator)}. For the functions using it a null on
     * either side yields the other side.
     */
    @Override
    public void addOlder(Page page, int position)
    {
        Block input = page.getBlock(channel);
        if (input.isNull(position)) {
            return;
        }
        if (accumulatorIsNull()) {
            reference(page, input, position);
            return;
        }
        Block older = materialize();
        reference(page, input, position);
        combine(null, older, 0);
    }

    @Override
    public void reset()
    {
        clearReference();
    }

    @Override
    public void set(Page page, int position)
    {
        Block input = page.getBlock(channel);
        if (input.isNull(position)) {
            clearReference();
            return;
        }
        reference(page, input, position);
    }

    @Override
    public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
    {
        if (accumulatorIsNull()) {
            rowPages[column] = null;
            return;
        }
        if (page != null) {
            rowPages[column] = page;
            rowPositions[column] = position;
            return;
        }
        rowPages[column] = OutputPageBuilder.COMPUTED;
        rowPositions[column] = computed.getPositionCount();
        write(computed);
    }

    /**
     * The null rule of most functions: a null input leaves the accumulator, and a null accumulator becomes the
     * input as it is.
     *
     * @return whether the rule settled the value, leaving nothing to combine
     */
    protected final boolean settledByNulls(Page page, Block block, int position)
    {
        if (block.isNull(position)) {
            return true;
        }
        if (accumulatorIsNull()) {
            reference(page, block, position);
            return true;
        }
        return false;
    }

    protected final boolean accumulatorIsNull()
    {
        return block == null && !built;
    }

    /** Whether the accumulator is one value as it was read; {@link #referencedBlock()} holds it. */
    protected final boolean isReference()
    {
        return block != null;
    }

    protected final Block referencedBlock()
    {
        return block;
    }

    protected final int referencedPosition()
    {
        return position;
    }

    /** The accumulator becomes the (non-null) value at the position. */
    protected final void reference(Page page, Block block, int position)
    {
        clearBuilt();
        built = false;
        this.page = page;
        this.block = block;
        this.position = position;
    }

    /** The accumulator is now the value the subclass holds. */
    protected final void markBuilt()
    {
        page = null;
        block = null;
        built = true;
    }

    private void clearReference()
    {
        clearBuilt();
        built = false;
        page = null;
        block = null;
    }

    private void write(BlockBuilder builder)
    {
        if (block != null) {
            appendValue(block, position, builder);
        }
        else {
            writeBuilt(builder);
        }
    }

    // the accumulator as a block of one value, to be folded in as an input
    private Block materialize()
    {
        BlockBuilder builder = type.createBlockBuilder(null, 1);
        write(builder);
        return builder.build();
    }
}
