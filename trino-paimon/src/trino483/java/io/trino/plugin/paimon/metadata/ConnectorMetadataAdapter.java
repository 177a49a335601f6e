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
import java.util.Map;
import java.util.Optional;

/**
 * The parts of {@link ConnectorMetadata} whose shape differs between the Trino releases the connector is built for,
 * here as Trino 483 has them: table procedures return metrics (the connector reports none), a column's comment is
 * optional, the statistics a write collects are asked for with whether it replaces the table (483).
 */
public abstract class ConnectorMetadataAdapter
        implements ConnectorMetadata
{
    @Override
    public final Map<String, Long> executeTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle)
    {
        executeTableProcedure(session, tableExecuteHandle);
        return Map.of();
    }

    @Override
    public final Map<String, Long> finishTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Collection<Slice> fragments, List<Object> splitSourceInfo)
    {
        finishTableProcedure(session, tableExecuteHandle, fragments, splitSourceInfo);
        return Map.of();
    }

    @Override
    public final TableStatisticsMetadata getStatisticsCollectionMetadataForWrite(ConnectorSession session, ConnectorTableMetadata tableMetadata, boolean tableReplace)
    {
        // CREATE OR REPLACE TABLE is refused before any row is written
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
        return column.getComment();
    }
}
