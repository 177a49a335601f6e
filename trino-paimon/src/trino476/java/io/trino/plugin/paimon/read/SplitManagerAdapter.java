package io.trino.plugin.paimon.read;

import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;

/** {@link ConnectorSplitManager} as Trino 476 calls it: with the dynamic filter to wait on. */
public abstract class SplitManagerAdapter
        implements ConnectorSplitManager
{
    @Override
    public final ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle table, DynamicFilter dynamicFilter, Constraint constraint)
    {
        return splitSource(transaction, session, table, new ScanDynamicFilter(dynamicFilter), constraint);
    }

    public abstract ConnectorSplitSource splitSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle table, ScanDynamicFilter dynamicFilter, Constraint constraint);
}
