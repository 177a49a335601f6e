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
 * A function under {@code fields.<f>.ignore-retract}: retract records leave the value as it is.
 */
final class IgnoreRetractAggregator
        implements FieldAggregator
{
    private final FieldAggregator delegate;

    IgnoreRetractAggregator(FieldAggregator delegate)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public void reset()
    {
        delegate.reset();
    }

    @Override
    public void add(Page page, int position)
    {
        delegate.add(page, position);
    }

    @Override
    public void addOlder(Page page, int position)
    {
        delegate.addOlder(page, position);
    }

    @Override
    public void retract(Page page, int position) {}

    @Override
    public void set(Page page, int position)
    {
        delegate.set(page, position);
    }

    @Override
    public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
    {
        delegate.result(rowPages, rowPositions, column, computed);
    }
}
