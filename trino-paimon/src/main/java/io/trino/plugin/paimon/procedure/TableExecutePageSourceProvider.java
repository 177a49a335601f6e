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
package io.trino.plugin.paimon.procedure;

import com.google.inject.Inject;
import io.airlift.json.JsonCodec;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.compaction.BucketCompactor;
import io.trino.plugin.paimon.read.PageSourceProviderAdapter;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** The page source of a split: a read's ({@link PaimonPageSourceProvider}), or the compaction of a bucket for {@code optimize}. */
public class TableExecutePageSourceProvider
        extends PageSourceProviderAdapter
{
    private final PaimonPageSourceProvider reads;
    private final BucketCompactor compactor;
    private final TableFileSystemFactory fileSystemFactory;
    private final JsonCodec<CompactionFragment> fragmentCodec;

    @Inject
    public TableExecutePageSourceProvider(PaimonPageSourceProvider reads, BucketCompactor compactor, TableFileSystemFactory fileSystemFactory, JsonCodec<CompactionFragment> fragmentCodec)
    {
        this.reads = requireNonNull(reads, "reads is null");
        this.compactor = requireNonNull(compactor, "compactor is null");
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.fragmentCodec = requireNonNull(fragmentCodec, "fragmentCodec is null");
    }

    @Override
    public ConnectorPageSource openPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit split,
            ConnectorTableHandle table,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter)
    {
        PaimonTableHandle handle = (PaimonTableHandle) table;
        if (handle.optimizeStaging().isPresent()) {
            return new OptimizePageSource(
                    session,
                    compactor,
                    fileSystemFactory.create(session, handle.table().name()),
                    fragmentCodec,
                    handle.table(),
                    (OptimizeSplit) split,
                    Location.of(handle.optimizeStaging().get()));
        }
        return reads.openPageSource(transaction, session, split, table, columns, dynamicFilter);
    }
}
