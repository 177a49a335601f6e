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
