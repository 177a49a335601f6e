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

import com.google.inject.Inject;
import io.airlift.json.JsonCodec;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorMetadata;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.compaction.Compactions;
import io.trino.plugin.paimon.metadata.PaimonMetadata;
import io.trino.plugin.paimon.metadata.PaimonViews;
import io.trino.plugin.paimon.procedure.OptimizeCommit;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.write.WriteFragment;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.type.TypeManager;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Holds one {@link PaimonMetadata} per open transaction, so a query sees one consistent view of each table
 * (Trino calls {@code getMetadata} at most once per transaction and uses the result from one thread).
 */
public class PaimonTransactionManager
{
    private final PaimonCatalog catalog;
    private final TypeManager typeManager;
    private final JsonCodec<WriteFragment> fragmentCodec;
    private final Compactions compactions;
    private final OptimizeCommit optimizeCommit;
    private final PaimonPageSourceProvider pageSources;
    private final PaimonViews views;
    private final Map<ConnectorTransactionHandle, ConnectorMetadata> transactions = new ConcurrentHashMap<>();
    private final Map<ConnectorTransactionHandle, PaimonMetadata> unwrapped = new ConcurrentHashMap<>();

    @Inject
    public PaimonTransactionManager(PaimonCatalog catalog, TypeManager typeManager, JsonCodec<WriteFragment> fragmentCodec, Compactions compactions, OptimizeCommit optimizeCommit, PaimonPageSourceProvider pageSources, PaimonViews views)
    {
        this.views = requireNonNull(views, "views is null");
        this.pageSources = requireNonNull(pageSources, "pageSources is null");
        this.compactions = requireNonNull(compactions, "compactions is null");
        this.optimizeCommit = requireNonNull(optimizeCommit, "optimizeCommit is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.typeManager = requireNonNull(typeManager, "typeManager is null");
        this.fragmentCodec = requireNonNull(fragmentCodec, "fragmentCodec is null");
    }

    public void begin(ConnectorTransactionHandle transaction)
    {
        PaimonMetadata paimonMetadata = new PaimonMetadata(catalog, typeManager, fragmentCodec, compactions, optimizeCommit, pageSources, views);
        ConnectorMetadata metadata = new ClassLoaderSafeConnectorMetadata(paimonMetadata, getClass().getClassLoader());
        ConnectorMetadata previous = transactions.putIfAbsent(transaction, metadata);
        checkArgument(previous == null, "Transaction already exists: %s", transaction);
        unwrapped.put(transaction, paimonMetadata);
    }

    public ConnectorMetadata get(ConnectorTransactionHandle transaction)
    {
        ConnectorMetadata metadata = transactions.get(transaction);
        checkArgument(metadata != null, "No such transaction: %s", transaction);
        return metadata;
    }

    public void commit(ConnectorTransactionHandle transaction)
    {
        transactions.remove(transaction);
        unwrapped.remove(transaction);
    }

    // an aborted CREATE TABLE AS removes the table it created
    public void rollback(ConnectorTransactionHandle transaction)
    {
        transactions.remove(transaction);
        PaimonMetadata metadata = unwrapped.remove(transaction);
        if (metadata != null) {
            metadata.rollback();
        }
    }
}
