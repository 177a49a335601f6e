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

import static io.trino.spi.type.BooleanType.BOOLEAN;
import static java.util.Objects.requireNonNull;

/**
 * Base of {@code bool_and} and {@code bool_or}: nulls are skipped, the first non-null input starts the value.
 * Cannot retract.
 */
abstract class BooleanAggregator
        implements FieldAggregator
{
    private final int channel;
    private final String context;
    private final String function;
    private boolean present;
    private boolean value;

    protected BooleanAggregator(int channel, String context, String function)
    {
        this.channel = channel;
        this.context = requireNonNull(context, "context is null");
        this.function = requireNonNull(function, "function is null");
    }

    protected abstract boolean combine(boolean accumulator, boolean input);

    @Override
    public void reset()
    {
        present = false;
    }

    @Override
    public void add(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (block.isNull(position)) {
            return;
        }
        boolean input = BOOLEAN.getBoolean(block, position);
        value = present ? combine(value, input) : input;
        present = true;
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

    @Override
    public void set(Page page, int position)
    {
        Block block = page.getBlock(channel);
        present = !block.isNull(position);
        if (present) {
            value = BOOLEAN.getBoolean(block, position);
        }
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
        BOOLEAN.writeBoolean(computed, value);
    }
}
