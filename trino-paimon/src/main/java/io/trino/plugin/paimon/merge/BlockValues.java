package io.trino.plugin.paimon.merge;

import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;

/**
 * Copies one value, or null, from a block to a builder of the same type, through the block's underlying value
 * block: the one way to copy a value that every supported Trino release offers ({@code Type.appendTo} is gone
 * since 481).
 */
public final class BlockValues
{
    private BlockValues() {}

    public static void appendValue(Block block, int position, BlockBuilder builder)
    {
        builder.append(block.getUnderlyingValueBlock(), block.getUnderlyingValuePosition(position));
    }
}
