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
