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
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.Type;

import java.math.BigDecimal;

import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;
import static java.lang.Float.floatToRawIntBits;
import static java.util.Objects.requireNonNull;

/**
 * {@code sum} as in Paimon 1.4 (merge-semantics §7.2): integers wrap around at the width of the column's type; a
 * DECIMAL that no longer fits its precision becomes NULL. A retraction subtracts; with no accumulator it starts
 * from the negated input.
 */
abstract sealed class SumAggregator
        extends NumericAggregator
{
    private SumAggregator(int channel, String context)
    {
        super(channel, context);
    }

    /**
     * @param type a numeric type: TINYINT to BIGINT, REAL, DOUBLE or DECIMAL
     */
    static SumAggregator create(Type type, int channel, String context)
    {
        return switch (type) {
            case DoubleType _ -> new DoubleSum(channel, context);
            case RealType _ -> new RealSum(channel, context);
            case DecimalType decimal -> new DecimalSum(decimal, channel, context);
            default -> new LongSum(type, channel, context);
        };
    }

    protected abstract void negate();

    protected abstract void subtract(Block block, int position);

    @Override
    public void retract(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (block.isNull(position)) {
            return;
        }
        if (!present) {
            load(block, position);
            negate();
        }
        else {
            subtract(block, position);
        }
        present = hasValue();
    }

    private static final class LongSum
            extends SumAggregator
    {
        private final Type type;
        private final int unusedBits;
        private long value;

        private LongSum(Type type, int channel, String context)
        {
            super(channel, context);
            this.type = requireNonNull(type, "type is null");
            this.unusedBits = unusedBits(type);
        }

        @Override
        protected void load(Block block, int position)
        {
            value = type.getLong(block, position);
        }

        @Override
        protected void accumulate(Block block, int position)
        {
            value = wrap(value + type.getLong(block, position));
        }

        @Override
        protected void negate()
        {
            value = wrap(-value);
        }

        @Override
        protected void subtract(Block block, int position)
        {
            value = wrap(value - type.getLong(block, position));
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            type.writeLong(builder, value);
        }

        private long wrap(long value)
        {
            return (value << unusedBits) >> unusedBits;
        }
    }

    private static final class DoubleSum
            extends SumAggregator
    {
        private double value;

        private DoubleSum(int channel, String context)
        {
            super(channel, context);
        }

        @Override
        protected void load(Block block, int position)
        {
            value = DOUBLE.getDouble(block, position);
        }

        @Override
        protected void accumulate(Block block, int position)
        {
            value += DOUBLE.getDouble(block, position);
        }

        @Override
        protected void negate()
        {
            value = -value;
        }

        @Override
        protected void subtract(Block block, int position)
        {
            value -= DOUBLE.getDouble(block, position);
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            DOUBLE.writeDouble(builder, value);
        }
    }

    private static final class RealSum
            extends SumAggregator
    {
        private float value;

        private RealSum(int channel, String context)
        {
            super(channel, context);
        }

        @Override
        protected void load(Block block, int position)
        {
            value = REAL.getFloat(block, position);
        }

        @Override
        protected void accumulate(Block block, int position)
        {
            value += REAL.getFloat(block, position);
        }

        @Override
        protected void negate()
        {
            value = -value;
        }

        @Override
        protected void subtract(Block block, int position)
        {
            value -= REAL.getFloat(block, position);
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            REAL.writeLong(builder, floatToRawIntBits(value));
        }
    }

    private static final class DecimalSum
            extends SumAggregator
    {
        private final DecimalType type;
        private BigDecimal value;

        private DecimalSum(DecimalType type, int channel, String context)
        {
            super(channel, context);
            this.type = requireNonNull(type, "type is null");
        }

        @Override
        protected void load(Block block, int position)
        {
            value = readDecimal(type, block, position);
        }

        @Override
        protected void accumulate(Block block, int position)
        {
            value = fitDecimal(value.add(readDecimal(type, block, position)), type);
        }

        @Override
        protected void negate()
        {
            value = fitDecimal(value.negate(), type);
        }

        @Override
        protected void subtract(Block block, int position)
        {
            value = fitDecimal(value.subtract(readDecimal(type, block, position)), type);
        }

        @Override
        protected boolean hasValue()
        {
            return value != null;
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            writeDecimal(type, builder, value);
        }
    }
}
