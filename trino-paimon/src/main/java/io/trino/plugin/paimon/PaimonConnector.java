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
package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.airlift.bootstrap.LifeCycleManager;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorPageSinkProvider;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorPageSourceProvider;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorSplitManager;
import io.trino.plugin.base.classloader.ClassLoaderSafeNodePartitioningProvider;
import io.trino.plugin.paimon.metadata.PaimonTableProperties;
import io.trino.plugin.paimon.metadata.TableAnalyze;
import io.trino.plugin.paimon.procedure.TableExecutePageSourceProvider;
import io.trino.plugin.paimon.procedure.TableExecuteSplitManager;
import io.trino.plugin.paimon.write.PaimonNodePartitioningProvider;
import io.trino.plugin.paimon.write.PaimonPageSinkProvider;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorCapabilities;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorNodePartitioningProvider;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.transaction.IsolationLevel;

import java.util.List;
import java.util.Set;

import static io.trino.spi.connector.ConnectorCapabilities.NOT_NULL_COLUMN_CONSTRAINT;
import static io.trino.spi.transaction.IsolationLevel.SERIALIZABLE;
import static io.trino.spi.transaction.IsolationLevel.checkConnectorSupports;
import static java.util.Objects.requireNonNull;

public class PaimonConnector
        implements Connector
{
    private final LifeCycleManager lifeCycleManager;
    private final PaimonTransactionManager transactionManager;
    private final PaimonTableProperties tableProperties;
    private final PaimonSessionProperties sessionProperties;
    private final ConnectorSplitManager splitManager;
    private final ConnectorPageSourceProvider pageSourceProvider;
    private final ConnectorPageSinkProvider pageSinkProvider;
    private final ConnectorNodePartitioningProvider nodePartitioningProvider;
    private final Set<TableProcedureMetadata> tableProcedures;
    private final Set<Procedure> procedures;
    private final Set<ConnectorTableFunction> tableFunctions;

    @Inject
    public PaimonConnector(
            LifeCycleManager lifeCycleManager,
            PaimonTransactionManager transactionManager,
            PaimonTableProperties tableProperties,
            PaimonSessionProperties sessionProperties,
            TableExecuteSplitManager splitManager,
            TableExecutePageSourceProvider pageSourceProvider,
            PaimonPageSinkProvider pageSinkProvider,
            PaimonNodePartitioningProvider nodePartitioningProvider,
            Set<TableProcedureMetadata> tableProcedures,
            Set<Procedure> procedures,
            Set<ConnectorTableFunction> tableFunctions)
    {
        this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
        this.tableProperties = requireNonNull(tableProperties, "tableProperties is null");
        this.sessionProperties = requireNonNull(sessionProperties, "sessionProperties is null");
        ClassLoader classLoader = getClass().getClassLoader();
        this.splitManager = new ClassLoaderSafeConnectorSplitManager(requireNonNull(splitManager, "splitManager is null"), classLoader);
        this.pageSourceProvider = new ClassLoaderSafeConnectorPageSourceProvider(requireNonNull(pageSourceProvider, "pageSourceProvider is null"), classLoader);
        this.pageSinkProvider = new ClassLoaderSafeConnectorPageSinkProvider(requireNonNull(pageSinkProvider, "pageSinkProvider is null"), classLoader);
        this.nodePartitioningProvider = new ClassLoaderSafeNodePartitioningProvider(requireNonNull(nodePartitioningProvider, "nodePartitioningProvider is null"), classLoader);
        this.tableProcedures = ImmutableSet.copyOf(requireNonNull(tableProcedures, "tableProcedures is null"));
        this.procedures = ImmutableSet.copyOf(requireNonNull(procedures, "procedures is null"));
        this.tableFunctions = ImmutableSet.copyOf(requireNonNull(tableFunctions, "tableFunctions is null"));
    }

    @Override
    public ConnectorSplitManager getSplitManager()
    {
        return splitManager;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider()
    {
        return pageSourceProvider;
    }

    @Override
    public ConnectorPageSinkProvider getPageSinkProvider()
    {
        return pageSinkProvider;
    }

    @Override
    public ConnectorNodePartitioningProvider getNodePartitioningProvider()
    {
        return nodePartitioningProvider;
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit)
    {
        checkConnectorSupports(SERIALIZABLE, isolationLevel);
        PaimonTransactionHandle transaction = PaimonTransactionHandle.create();
        transactionManager.begin(transaction);
        return transaction;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction)
    {
        return transactionManager.get(transaction);
    }

    @Override
    public void commit(ConnectorTransactionHandle transaction)
    {
        transactionManager.commit(transaction);
    }

    @Override
    public void rollback(ConnectorTransactionHandle transaction)
    {
        transactionManager.rollback(transaction);
    }

    @Override
    public List<PropertyMetadata<?>> getSessionProperties()
    {
        return sessionProperties.getSessionProperties();
    }

    @Override
    public List<PropertyMetadata<?>> getAnalyzeProperties()
    {
        return TableAnalyze.analyzeProperties();
    }

    @Override
    public List<PropertyMetadata<?>> getTableProperties()
    {
        return tableProperties.getTableProperties();
    }

    @Override
    public Set<TableProcedureMetadata> getTableProcedures()
    {
        return tableProcedures;
    }

    @Override
    public Set<Procedure> getProcedures()
    {
        return procedures;
    }

    @Override
    public Set<ConnectorTableFunction> getTableFunctions()
    {
        return tableFunctions;
    }

    @Override
    public Set<ConnectorCapabilities> getCapabilities()
    {
        return ImmutableSet.of(NOT_NULL_COLUMN_CONSTRAINT);
    }

    @Override
    public void shutdown()
    {
        lifeCycleManager.stop();
    }
}
