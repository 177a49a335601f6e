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

/**
 * {@code last_value}: the newest input, even null; a retraction clears the value. Also what sequence fields take
 * in the aggregation engine.
 */
final class LastValueAggregator
        extends PickedValueAggregator
{
    LastValueAggregator(int channel, String context)
    {
        super(channel, context);
    }

    @Override
    public void add(Page page, int position)
    {
        take(page, position);
    }

    @Override
    public void addOlder(Page page, int position)
    {
        // agg(input, accumulator) is the accumulator
    }

    @Override
    public void retract(Page page, int position)
    {
        clear();
    }
}
