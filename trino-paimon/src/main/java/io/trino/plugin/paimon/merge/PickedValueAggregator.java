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
import io.trino.spi.block.BlockBuilder;

import static java.util.Objects.requireNonNull;

/**
 * Base of the functions whose result is one of the inputs (last_value, first_value, min, ...): a reference to the
 * picked value is all the state, and nothing is copied until output. A reference to a null value is a null result.
 */
abstract class PickedValueAggregator
        implements FieldAggregator
{
    protected final int channel;
    protected final String context;
    private Page page;
    private int position;

    protected PickedValueAggregator(int channel, String context)
    {
        this.channel = channel;
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public void reset()
    {
        page = null;
    }

    @Override
    public void set(Page page, int position)
    {
        take(page, position);
    }

    @Override
    public final void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
    {
        rowPages[column] = page;
        rowPositions[column] = position;
    }

    protected final void take(Page page, int position)
    {
        this.page = page;
        this.position = position;
    }

    protected final void clear()
    {
        page = null;
    }

    protected final boolean accumulatorIsNull()
    {
        return page == null || page.getBlock(channel).isNull(position);
    }

    protected final Page accumulatorPage()
    {
        return page;
    }

    protected final int accumulatorPosition()
    {
        return position;
    }

    protected final boolean isNull(Page page, int position)
    {
        return page.getBlock(channel).isNull(position);
    }
}
