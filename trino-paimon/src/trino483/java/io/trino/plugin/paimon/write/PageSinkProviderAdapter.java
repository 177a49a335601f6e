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
package io.trino.plugin.paimon.write;

import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.Optional;

/**
 * {@link ConnectorPageSinkProvider} as Trino 483 calls it, with table credentials from the catalog; the connector
 * writes with the file system of its own configuration and leaves them unused.
 */
public abstract class PageSinkProviderAdapter
        implements ConnectorPageSinkProvider
{
    @Override
    public final ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorOutputTableHandle outputTableHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        return openPageSink(transaction, session, outputTableHandle, pageSinkId);
    }

    @Override
    public final ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle insertTableHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        return openPageSink(transaction, session, insertTableHandle, pageSinkId);
    }

    @Override
    public final ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        return openPageSink(transaction, session, tableExecuteHandle, pageSinkId);
    }

    @Override
    public final ConnectorMergeSink createMergeSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorMergeTableHandle mergeHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        return openMergeSink(transaction, session, mergeHandle, pageSinkId);
    }

    public abstract ConnectorPageSink openPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorOutputTableHandle outputTableHandle, ConnectorPageSinkId pageSinkId);

    public abstract ConnectorPageSink openPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle insertTableHandle, ConnectorPageSinkId pageSinkId);

    public abstract ConnectorPageSink openPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, ConnectorPageSinkId pageSinkId);

    public abstract ConnectorMergeSink openMergeSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorMergeTableHandle mergeHandle, ConnectorPageSinkId pageSinkId);
}
