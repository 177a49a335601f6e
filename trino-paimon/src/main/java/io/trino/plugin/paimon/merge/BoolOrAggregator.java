package io.trino.plugin.paimon.merge;

/** {@code bool_or}: true once any non-null input is true. */
final class BoolOrAggregator
        extends BooleanAggregator
{
    BoolOrAggregator(int channel, String context, String function)
    {
        super(channel, context, function);
    }

    @Override
    protected boolean combine(boolean accumulator, boolean input)
    {
        return accumulator || input;
    }
}
