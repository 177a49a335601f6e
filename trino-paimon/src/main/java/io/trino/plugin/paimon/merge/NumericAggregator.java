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
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;

import java.math.BigDecimal;

import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Base of {@code sum} and {@code product}: an accumulator of one numeric column, specialised per representation by
 * the subclass chosen when the function is created. Null inputs are skipped; the first non-null input starts the
 * accumulator. A DECIMAL that no longer fits its precision makes the accumulator NULL, and Paimon treats a NULL
 * accumulator as absent: the next input starts it again.
 */
abstract class NumericAggregator
        implements FieldAggregator
{
    protected final int channel;
    protected final String context;
    protected boolean present;

    protected NumericAggregator(int channel, String context)
    {
        this.channel = channel;
        this.context = requireNonNull(context, "context is null");
    }

    /** The accumulator becomes the input. */
    protected abstract void load(Block block, int position);

    /** Folds a non-null input into a present accumulator. */
    protected abstract void accumulate(Block block, int position);

    protected abstract void write(BlockBuilder builder);

    /** Whether the accumulator still holds a value after an update; a DECIMAL that overflowed its precision does not. */
    protected boolean hasValue()
    {
        return true;
    }

    @Override
    public void reset()
    {
        present = false;
    }

    @Override
    public void set(Page page, int position)
    {
        Block block = page.getBlock(channel);
        present = !block.isNull(position);
        if (present) {
            load(block, position);
        }
    }

    @Override
    public void add(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (block.isNull(position)) {
            return;
        }
        if (!present) {
            load(block, position);
            present = true;
            return;
        }
        accumulate(block, position);
        present = hasValue();
    }

    @Override
    public void addOlder(Page page, int position)
    {
        add(page, position);
    }

    @Override
    public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
    {
        if (!present) {
            rowPages[column] = null;
            return;
        }
        rowPages[column] = OutputPageBuilder.COMPUTED;
        rowPositions[column] = computed.getPositionCount();
        write(computed);
    }

    /**
     * The number of high bits a long-backed integer type leaves unused: shifting left and back by it wraps a value
     * around at the type's width, as a cast to byte, short or int does.
     */
    protected static int unusedBits(Type type)
    {
        if (type.equals(TINYINT)) {
            return Long.SIZE - Byte.SIZE;
        }
        if (type.equals(SMALLINT)) {
            return Long.SIZE - Short.SIZE;
        }
        if (type.equals(INTEGER)) {
            return Long.SIZE - Integer.SIZE;
        }
        if (type.equals(BIGINT)) {
            return 0;
        }
        throw new TrinoException(GENERIC_INTERNAL_ERROR, "Not an integer type: " + type);
    }

    protected static BigDecimal readDecimal(DecimalType type, Block block, int position)
    {
        if (type.isShort()) {
            return BigDecimal.valueOf(type.getLong(block, position), type.getScale());
        }
        return new BigDecimal(((Int128) type.getObject(block, position)).toBigInteger(), type.getScale());
    }

    protected static void writeDecimal(DecimalType type, BlockBuilder builder, BigDecimal value)
    {
        if (type.isShort()) {
            type.writeLong(builder, value.unscaledValue().longValueExact());
        }
        else {
            type.writeObject(builder, Int128.valueOf(value.unscaledValue()));
        }
    }

    // a value that no longer fits the declared precision becomes NULL
    protected static BigDecimal fitDecimal(BigDecimal value, DecimalType type)
    {
        if (value == null || value.precision() - value.scale() > type.getPrecision() - type.getScale()) {
            return null;
        }
        return value;
    }
}
