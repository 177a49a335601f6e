package io.trino.plugin.paimon.merge;

/** {@code bool_and}: true while every non-null input is true. */
final class BoolAndAggregator
        extends BooleanAggregator
{
    BoolAndAggregator(int channel, String context, String function)
    {
        super(channel, context, function);
    }

    @Override
    protected boolean combine(boolean accumulator, boolean input)
    {
        return accumulator && input;
    }
}
