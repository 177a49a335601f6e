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
package io.trino.plugin.paimon.benchmark;

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.PaimonSessionProperties;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.PaimonTransactionHandle;
import io.trino.plugin.paimon.catalog.FileSystemCatalog;
import io.trino.plugin.paimon.compaction.BucketCompactor;
import io.trino.plugin.paimon.compaction.Compactions;
import io.trino.plugin.paimon.compaction.LookupCompactor;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.metadata.PaimonMetadata;
import io.trino.plugin.paimon.metadata.PaimonViews;
import io.trino.plugin.paimon.procedure.OptimizeCommit;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.read.PaimonSplit;
import io.trino.plugin.paimon.read.PaimonSplitManager;
import io.trino.plugin.paimon.read.PhysicalFloorReader;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.WriteFragment;
import io.trino.spi.Page;
import io.trino.spi.catalog.CatalogName;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.type.Type;
import io.trino.testing.TestingConnectorSession;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import static io.airlift.json.JsonCodec.jsonCodec;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.WAREHOUSE_DIRECTORY;
import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;

/**
 * One bucket read on the calling thread, through the connector's own split manager and page source provider (as
 * Trino would call them for the bucket's split), or file by file with no merge (the physical floor).
 */
final class SingleBucketReads
{
    // the split manager reads the connector's session properties (the dynamic-filter wait), so they must be declared
    private static final ConnectorSession SESSION = session(Map.of());
    // the merged read with the two-pass merge read switched on and off, whatever the default
    private static final ConnectorSession TWO_PASS_SESSION = session(Map.of(PaimonSessionProperties.TWO_PASS_MERGE_READ_ENABLED, true));
    private static final ConnectorSession ONE_PASS_SESSION = session(Map.of(PaimonSessionProperties.TWO_PASS_MERGE_READ_ENABLED, false));
    // the two-pass read of exactly the merged rows: no rows between them decoded
    private static final ConnectorSession TWO_PASS_NO_GAP_SESSION = session(Map.of(
            PaimonSessionProperties.TWO_PASS_MERGE_READ_ENABLED, true,
            PaimonSessionProperties.TWO_PASS_MERGE_READ_MAX_GAP_ROWS, 0));
    // merged pages read whole, value columns and all, to compare with late materialization
    private static final ConnectorSession WHOLE_PAGES_SESSION = session(Map.of(
            PaimonSessionProperties.LATE_MATERIALIZATION_ENABLED, false,
            PaimonSessionProperties.TWO_PASS_MERGE_READ_ENABLED, false));

    private final FileSystemCatalog catalog;
    private final PaimonSplitManager splitManager;
    private final PaimonPageSourceProvider pageSourceProvider;
    private final Compactions compactions;
    private final TypeMapping typeMapping = new TypeMapping(TESTING_TYPE_MANAGER.getTypeOperators());

    SingleBucketReads(Path localRoot)
    {
        TrinoFileSystemFactory fileSystemFactory = new LocalFileSystemFactory(localRoot);
        this.catalog = new FileSystemCatalog(fileSystemFactory, Location.of("local:///" + WAREHOUSE_DIRECTORY));
        TableFileSystemFactory tableFileSystems = TableFileSystemFactory.sharedBy(fileSystemFactory);
        this.splitManager = new PaimonSplitManager(tableFileSystems, MetadataCache.DISABLED);
        this.pageSourceProvider = new PaimonPageSourceProvider(tableFileSystems, TESTING_TYPE_MANAGER);
        // reads only: the compactions a write would run are never reached
        BucketCompactor compactor = new BucketCompactor(tableFileSystems, pageSourceProvider, TESTING_TYPE_MANAGER);
        this.compactions = new Compactions(compactor, new LookupCompactor(tableFileSystems, pageSourceProvider, compactor));
    }

    private static ConnectorSession session(Map<String, Object> properties)
    {
        return TestingConnectorSession.builder()
                .setPropertyMetadata(new PaimonSessionProperties(new PaimonConfig()).getSessionProperties())
                .setPropertyValues(properties)
                .build();
    }

    Table table(String database, String name)
    {
        PaimonMetadata metadata = new PaimonMetadata(catalog, TESTING_TYPE_MANAGER, jsonCodec(WriteFragment.class), compactions, new OptimizeCommit(jsonCodec(CompactionFragment.class)), pageSourceProvider, new PaimonViews(catalog, TESTING_TYPE_MANAGER, new CatalogName("paimon")));
        PaimonTableHandle handle = (PaimonTableHandle) metadata.getTableHandle(SESSION, new SchemaTableName(database, name), Optional.empty(), Optional.empty());
        // the handle's columns in table order
        List<PaimonColumnHandle> columns = metadata.getColumnHandles(SESSION, handle).values().stream()
                .map(PaimonColumnHandle.class::cast)
                .sorted(Comparator.comparingInt(PaimonColumnHandle::fieldId))
                .toList();
        return new Table(handle, columns);
    }

    PaimonSplit split(Table table, int bucket)
    {
        try (ConnectorSplitSource source = splitManager.getSplits(PaimonTransactionHandle.create(), SESSION, table.handle(), DynamicFilter.EMPTY, Constraint.alwaysTrue())) {
            ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
            while (!source.isFinished()) {
                splits.addAll(source.getNextBatch(1000).get().getSplits());
            }
            return splits.build().stream()
                    .map(PaimonSplit.class::cast)
                    .filter(split -> split.bucket() == bucket)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no split of bucket " + bucket));
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Our merged read of the split; memoryUsage receives the page source's own memory figure after every page. */
    long readOurs(Table table, PaimonSplit split, Consumer<Page> consumer, LongConsumer memoryUsage)
            throws Exception
    {
        return readOurs(SESSION, table, split, consumer, memoryUsage, _ -> {});
    }

    /** Our merged read of the split with every page of a merged section read whole (no late materialization). */
    long readOursWholePages(Table table, PaimonSplit split, Consumer<Page> consumer)
            throws Exception
    {
        return readOurs(WHOLE_PAGES_SESSION, table, split, consumer, _ -> {}, _ -> {});
    }

    /** Our merged read of the split with the two-pass merge read on or off (late materialization on). */
    long readOurs(Table table, PaimonSplit split, boolean twoPass, Consumer<Page> consumer)
            throws Exception
    {
        return readOurs(table, split, twoPass, consumer, _ -> {});
    }

    /** The same; memoryUsage receives the page source's own memory figure after every page. */
    long readOurs(Table table, PaimonSplit split, boolean twoPass, Consumer<Page> consumer, LongConsumer memoryUsage)
            throws Exception
    {
        return readOurs(twoPass ? TWO_PASS_SESSION : ONE_PASS_SESSION, table, split, consumer, memoryUsage, _ -> {});
    }

    /** Our merged read of the split in two passes that decode exactly the merged rows, however close together. */
    long readOursTwoPassNoGap(Table table, PaimonSplit split, Consumer<Page> consumer)
            throws Exception
    {
        return readOurs(TWO_PASS_NO_GAP_SESSION, table, split, consumer, _ -> {}, _ -> {});
    }

    /** The page source's metrics of one read of the split, with the two-pass merge read on or off. */
    Metrics readMetrics(Table table, PaimonSplit split, boolean twoPass)
            throws Exception
    {
        Metrics[] metrics = new Metrics[1];
        readOurs(twoPass ? TWO_PASS_SESSION : ONE_PASS_SESSION, table, split, _ -> {}, _ -> {}, read -> metrics[0] = read);
        return metrics[0];
    }

    private long readOurs(ConnectorSession session, Table table, PaimonSplit split, Consumer<Page> consumer, LongConsumer memoryUsage, Consumer<Metrics> metrics)
            throws Exception
    {
        long rows = 0;
        List<ColumnHandle> columns = ImmutableList.copyOf(table.columns());
        try (ConnectorPageSource pageSource = pageSourceProvider.createPageSource(PaimonTransactionHandle.create(), session, split, table.handle(), columns, DynamicFilter.EMPTY)) {
            while (!pageSource.isFinished()) {
                SourcePage page = pageSource.getNextSourcePage();
                if (page != null) {
                    rows += page.getPositionCount();
                    consumer.accept(page.getPage());
                    memoryUsage.accept(pageSource.getMemoryUsage());
                }
            }
            metrics.accept(pageSource.getMetrics());
        }
        return rows;
    }

    /** Every physical record of the split's files, decoded and not merged. */
    long readPhysicalFloor(Table table, PaimonSplit split, Consumer<Page> consumer)
    {
        return new PhysicalFloorReader(catalog.fileSystem(SESSION), table.handle().table().location(), typeMapping).read(split, consumer);
    }

    record Table(PaimonTableHandle handle, List<PaimonColumnHandle> columns)
    {
        List<Type> types()
        {
            return columns.stream().map(PaimonColumnHandle::type).toList();
        }
    }
}
