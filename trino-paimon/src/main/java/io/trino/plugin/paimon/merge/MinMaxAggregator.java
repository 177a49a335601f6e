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
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.Type;

import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;
import static java.util.Objects.requireNonNull;

/**
 * {@code min} and {@code max}, which differ only in the direction of the comparison: the smallest or greatest
 * non-null input, as a reference to it; ties keep the earlier input. Cannot retract.
 */
final class MinMaxAggregator
        extends PickedValueAggregator
{
    private final BlockValueComparator comparator;
    private final boolean max;
    private final String function;

    MinMaxAggregator(Type type, int channel, boolean max, String context, String function)
    {
        super(channel, context);
        this.comparator = comparator(type);
        this.max = max;
        this.function = requireNonNull(function, "function is null");
    }

    // Paimon's min and max order floating point with Double.compare: NaN is the greatest value
    private static BlockValueComparator comparator(Type type)
    {
        return switch (type) {
            case DoubleType _ -> (left, leftPosition, right, rightPosition) ->
                    Double.compare(DOUBLE.getDouble(left, leftPosition), DOUBLE.getDouble(right, rightPosition));
            case RealType _ -> (left, leftPosition, right, rightPosition) ->
                    Float.compare(REAL.getFloat(left, leftPosition), REAL.getFloat(right, rightPosition));
            default -> BlockValueComparator.forType(type);
        };
    }

    @Override
    public void add(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (block.isNull(position)) {
            return;
        }
        if (!accumulatorIsNull()) {
            int comparison = comparator.compare(block, position, accumulatorPage().getBlock(channel), accumulatorPosition());
            if (max ? comparison <= 0 : comparison >= 0) {
                return;
            }
        }
        take(page, position);
    }

    @Override
    public void addOlder(Page page, int position)
    {
        add(page, position);
    }

    @Override
    public void retract(Page page, int position)
    {
        throw FieldAggregator.retractUnsupported(context, function);
    }
}
