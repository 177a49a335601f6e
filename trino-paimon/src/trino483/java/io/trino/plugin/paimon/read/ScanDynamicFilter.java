package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableSet;
import io.trino.spi.connector.ColumnHandle;

import java.util.Set;

/**
 * What a scan's split planning learns of the join's dynamic filters: since Trino 482 only the columns they will
 * cover; the engine waits for them and hands their predicate to each batch request.
 */
public record ScanDynamicFilter(Set<ColumnHandle> columns)
{
    public ScanDynamicFilter
    {
        columns = ImmutableSet.copyOf(columns);
    }
}
