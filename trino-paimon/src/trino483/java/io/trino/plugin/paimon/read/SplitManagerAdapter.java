/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
