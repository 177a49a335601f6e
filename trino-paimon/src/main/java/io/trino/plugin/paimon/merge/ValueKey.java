package io.trino.plugin.paimon.merge;

import io.trino.spi.block.Block;

import static java.util.Objects.requireNonNull;

/** A value at a block position as a hash key, equal to another under the given {@link ValueEquality}. */
record ValueKey(Block block, int position, ValueEquality equality)
{
    ValueKey
    {
        requireNonNull(block, "block is null");
        requireNonNull(equality, "equality is null");
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof ValueKey that && equality.equal(block, position, that.block, that.position);
    }

    @Override
    public int hashCode()
    {
        return equality.hash(block, position);
    }
}
