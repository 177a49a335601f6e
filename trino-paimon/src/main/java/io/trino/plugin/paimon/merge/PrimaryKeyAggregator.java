package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

/**
 * What primary-key columns take in the aggregation engine and in partial-update sequence groups: the newest
 * input, retractions included (every record of a key holds the same key).
 */
final class PrimaryKeyAggregator
        extends PickedValueAggregator
{
    PrimaryKeyAggregator(int channel, String context)
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
        take(page, position);
    }
}
