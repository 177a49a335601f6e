package io.trino.plugin.paimon.read;

import io.trino.spi.connector.DynamicFilter;

import static java.util.Objects.requireNonNull;

/** What a scan's split planning learns of the join's dynamic filters: in Trino 476, the filter itself, to wait on. */
public record ScanDynamicFilter(DynamicFilter filter)
{
    public ScanDynamicFilter
    {
        requireNonNull(filter, "filter is null");
    }
}
