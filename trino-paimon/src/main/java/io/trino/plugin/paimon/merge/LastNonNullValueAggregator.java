package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

/**
 * {@code last_non_null_value}, the default function: the newest non-null input; retracting a non-null value clears
 * the value.
 */
final class LastNonNullValueAggregator
        extends PickedValueAggregator
{
    LastNonNullValueAggregator(int channel, String context)
    {
        super(channel, context);
    }

    @Override
    public void add(Page page, int position)
    {
        if (!isNull(page, position)) {
            take(page, position);
        }
    }

    @Override
    public void addOlder(Page page, int position)
    {
        // agg(input, accumulator): the older input only fills a null accumulator
        if (accumulatorIsNull()) {
            take(page, position);
        }
    }

    @Override
    public void retract(Page page, int position)
    {
        if (!isNull(page, position)) {
            clear();
        }
    }
}
