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
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.Type;

import java.math.BigDecimal;
import java.math.RoundingMode;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;
import static java.lang.Float.floatToRawIntBits;
import static java.util.Objects.requireNonNull;

/**
 * {@code product} by the user's rules, which are Paimon 2.0's (merge-semantics §7.3): integers are exact, an
 * overflow or a division by zero is an error naming the table and column; a DECIMAL rounds half up to its scale
 * and becomes NULL when it no longer fits its precision; REAL and DOUBLE follow IEEE. A retraction divides; with a
 * null on either side the accumulator stays.
 */
abstract sealed class ProductAggregator
        extends NumericAggregator
{
    private ProductAggregator(int channel, String context)
    {
        super(channel, context);
    }

    /**
     * @param type a numeric type: TINYINT to BIGINT, REAL, DOUBLE or DECIMAL
     */
    static ProductAggregator create(Type type, int channel, String context)
    {
        return switch (type) {
            case DoubleType _ -> new DoubleProduct(channel, context);
            case RealType _ -> new RealProduct(channel, context);
            case DecimalType decimal -> new DecimalProduct(decimal, channel, context);
            default -> new LongProduct(type, channel, context);
        };
    }

    protected abstract void divide(Block block, int position);

    @Override
    public void retract(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (block.isNull(position) || !present) {
            return;
        }
        divide(block, position);
        present = hasValue();
    }

    private static final class LongProduct
            extends ProductAggregator
    {
        private final Type type;
        private final int unusedBits;
        private long value;

        private LongProduct(Type type, int channel, String context)
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
            long input = type.getLong(block, position);
            long result;
            try {
                result = Math.multiplyExact(value, input);
            }
            catch (ArithmeticException e) {
                throw overflow(value, "*", input);
            }
            if (!fits(result)) {
                throw overflow(value, "*", input);
            }
            value = result;
        }

        @Override
        protected void divide(Block block, int position)
        {
            long divisor = type.getLong(block, position);
            if (divisor == 0) {
                throw new TrinoException(PAIMON_MERGE_ERROR, "%s: %s division by zero: %s / %s".formatted(context, type.getDisplayName(), value, divisor));
            }
            long result = value / divisor;
            if (!fits(result) || (value == Long.MIN_VALUE && divisor == -1)) {
                throw overflow(value, "/", divisor);
            }
            value = result;
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            type.writeLong(builder, value);
        }

        private boolean fits(long value)
        {
            return (value << unusedBits) >> unusedBits == value;
        }

        private TrinoException overflow(long left, String operator, long right)
        {
            return new TrinoException(PAIMON_MERGE_ERROR, "%s: %s overflow: %s %s %s".formatted(context, type.getDisplayName(), left, operator, right));
        }
    }

    private static final class DoubleProduct
            extends ProductAggregator
    {
        private double value;

        private DoubleProduct(int channel, String context)
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
            value *= DOUBLE.getDouble(block, position);
        }

        @Override
        protected void divide(Block block, int position)
        {
            value /= DOUBLE.getDouble(block, position);
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            DOUBLE.writeDouble(builder, value);
        }
    }

    private static final class RealProduct
            extends ProductAggregator
    {
        private float value;

        private RealProduct(int channel, String context)
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
            value *= REAL.getFloat(block, position);
        }

        @Override
        protected void divide(Block block, int position)
        {
            value /= REAL.getFloat(block, position);
        }

        @Override
        protected void write(BlockBuilder builder)
        {
            REAL.writeLong(builder, floatToRawIntBits(value));
        }
    }

    private static final class DecimalProduct
            extends ProductAggregator
    {
        private final DecimalType type;
        private BigDecimal value;

        private DecimalProduct(DecimalType type, int channel, String context)
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
            value = fitDecimal(value.multiply(readDecimal(type, block, position)).setScale(type.getScale(), RoundingMode.HALF_UP), type);
        }

        @Override
        protected void divide(Block block, int position)
        {
            BigDecimal divisor = readDecimal(type, block, position);
            if (divisor.signum() == 0) {
                throw new TrinoException(PAIMON_MERGE_ERROR, "%s: decimal division by zero: %s / %s".formatted(context, value, divisor));
            }
            try {
                value = fitDecimal(value.divide(divisor).setScale(type.getScale(), RoundingMode.HALF_UP), type);
            }
            catch (ArithmeticException e) {
                throw new TrinoException(PAIMON_MERGE_ERROR, "%s: decimal %s / %s has no finite decimal expansion".formatted(context, value, divisor), e);
            }
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
