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
package io.trino.plugin.paimon.testing;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.DynamicFilterSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Calls of the connector's interfaces that tests make in the engine's place, as Trino 483 shapes them: page sinks, splits
 * and page sources.
 */
public final class ConnectorCalls
{
    private ConnectorCalls() {}

    public static ConnectorPageSink insertPageSink(Connector connector, ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle insert, long pageSinkId)
    {
        return connector.getPageSinkProvider().createPageSink(transaction, session, insert, Optional.empty(), () -> pageSinkId);
    }

    /** Every split of the table handle, with its split source's table-execute information when it has some. */
    public static Splits splits(Connector connector, ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle table)
            throws Exception
    {
        try (ConnectorSplitSource source = connector.getSplitManager().getSplits(transaction, session, table, Set.of(), Constraint.alwaysTrue())) {
            List<ConnectorSplit> splits = new ArrayList<>();
            while (!source.isFinished()) {
                splits.addAll(source.getNextBatch(1000, DynamicFilterSnapshot.EMPTY).get());
            }
            return new Splits(splits, source.getTableExecuteSplitsInfo());
        }
    }

    public static ConnectorPageSource pageSource(Connector connector, ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorSplit split, ConnectorTableHandle table)
    {
        return connector.getPageSourceProvider().createPageSource(transaction, session, split, table, Optional.empty(), List.of(), DynamicFilter.EMPTY);
    }

    public record Splits(List<ConnectorSplit> splits, Optional<List<Object>> tableExecuteInfo) {}
}
