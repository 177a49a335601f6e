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
package io.trino.plugin.paimon.metadata;

import io.airlift.slice.Slice;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.statistics.TableStatisticsMetadata;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The parts of {@link ConnectorMetadata} whose shape differs between the Trino releases the connector is built for,
 * here as Trino 476 has them: table procedures return nothing, a column's comment may be null, the statistics a
 * write collects are asked for without saying whether it replaces the table.
 */
public abstract class ConnectorMetadataAdapter
        implements ConnectorMetadata
{
    @Override
    public final void executeTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle)
    {
        executeTableProcedure(session, tableExecuteHandle);
    }

    @Override
    public final void finishTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Collection<Slice> fragments, List<Object> splitSourceInfo)
    {
        finishTableProcedure(session, tableExecuteHandle, fragments, splitSourceInfo);
    }

    @Override
    public final TableStatisticsMetadata getStatisticsCollectionMetadataForWrite(ConnectorSession session, ConnectorTableMetadata tableMetadata)
    {
        return statisticsToCollectOnWrite(session, tableMetadata);
    }

    /** Column statistics for an {@code INSERT} or {@code CREATE TABLE AS} to compute over the rows it writes. */
    protected abstract TableStatisticsMetadata statisticsToCollectOnWrite(ConnectorSession session, ConnectorTableMetadata tableMetadata);

    /** Runs a table procedure that the coordinator executes alone. */
    protected abstract void executeTableProcedure(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle);

    /** Commits a distributed table procedure from its workers' fragments. */
    protected abstract void finishTableProcedure(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Collection<Slice> fragments, List<Object> splitSourceInfo);

    static Optional<String> comment(ColumnMetadata column)
    {
        return Optional.ofNullable(column.getComment());
    }
}
