package io.trino.plugin.paimon.read;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;

import java.util.Set;

/** {@link ConnectorSplitManager} as Trino 483 calls it: with the columns the dynamic filters will cover. */
public abstract class SplitManagerAdapter
        implements ConnectorSplitManager
{
    @Override
    public final ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle table, Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        return splitSource(transaction, session, table, new ScanDynamicFilter(dynamicFilterColumns), constraint);
    }

    public abstract ConnectorSplitSource splitSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle table, ScanDynamicFilter dynamicFilter, Constraint constraint);
}
