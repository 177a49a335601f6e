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
 * {@code first_value}: the first input seen, even when it is null. Cannot retract.
 */
final class FirstValueAggregator
        extends PickedValueAggregator
{
    private final String function;
    private boolean initialized;

    FirstValueAggregator(int channel, String context, String function)
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
        if (!initialized) {
            initialized = true;
            take(page, position);
        }
    }

    @Override
    public void addOlder(Page page, int position)
    {
        // Paimon folds an older input as agg(input, accumulator): the roles of the two values swap, the
        // "initialized" state does not
        if (initialized) {
            take(page, position);
        }
        initialized = true;
    }

    @Override
    public void retract(Page page, int position)
    {
        throw FieldAggregator.retractUnsupported(context, function);
    }
}
