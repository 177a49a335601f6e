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

import static java.util.Objects.requireNonNull;

/**
 * {@code first_non_null_value} (alias {@code first_not_null_value}): the first non-null input. Cannot retract.
 */
final class FirstNonNullValueAggregator
        extends PickedValueAggregator
{
    private final String function;
    private boolean initialized;

    FirstNonNullValueAggregator(int channel, String context, String function)
    {
        super(channel, context);
        this.function = requireNonNull(function, "function is null");
    }

    @Override
    public void reset()
    {
        super.reset();
        initialized = false;
    }

    @Override
    public void add(Page page, int position)
    {
        if (!initialized && !isNull(page, position)) {
            initialized = true;
            take(page, position);
        }
    }

    @Override
    public void addOlder(Page page, int position)
    {
        // agg(input, accumulator) with the roles of the two values swapped, the "initialized" state kept
        if (!initialized && !accumulatorIsNull()) {
            initialized = true;
        }
        else {
            take(page, position);
        }
    }

    @Override
    public void retract(Page page, int position)
    {
        throw FieldAggregator.retractUnsupported(context, function);
    }
}
