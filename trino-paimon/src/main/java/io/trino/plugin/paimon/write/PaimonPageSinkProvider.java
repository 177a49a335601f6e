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

import com.google.inject.Inject;
import io.airlift.json.JsonCodec;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.PaimonInsertTableHandle.DynamicBuckets;
import io.trino.plugin.paimon.PaimonMergeTableHandle;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.index.HashIndexFile;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.MergeRowId;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.type.TypeManager;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableMap.toImmutableMap;
import static java.util.Objects.requireNonNull;

/**
 * Creates the page sinks of INSERT and CREATE TABLE AS statements, and the merge sinks of UPDATE, DELETE and MERGE: each reads the table's schema version once and writes data files
 * in Paimon's layout for it.
 */
public class PaimonPageSinkProvider
        extends PageSinkProviderAdapter
{
    private final TableFileSystemFactory fileSystemFactory;
    private final TypeMapping typeMapping;
    private final JsonCodec<WriteFragment> codec;
    private final long maxWriteBufferSize;
    private final SortedRunMerger runMerger;
    private final MetadataCache metadataCache;
    private final SinkCompactor sinkCompactor;

    @Inject
    public PaimonPageSinkProvider(TableFileSystemFactory fileSystemFactory, TypeManager typeManager, JsonCodec<WriteFragment> codec, PaimonConfig config, SortedRunMerger runMerger, MetadataCache metadataCache, SinkCompactor sinkCompactor)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.typeMapping = new TypeMapping(typeManager.getTypeOperators());
        this.codec = requireNonNull(codec, "codec is null");
        this.maxWriteBufferSize = config.getMaxWriteBufferSize().toBytes();
        this.runMerger = requireNonNull(runMerger, "runMerger is null");
        this.metadataCache = requireNonNull(metadataCache, "metadataCache is null");
        this.sinkCompactor = requireNonNull(sinkCompactor, "sinkCompactor is null");
    }

    @Override
    public ConnectorPageSink openPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorOutputTableHandle outputTableHandle, ConnectorPageSinkId pageSinkId)
    {
        // CREATE TABLE AS writes its new table as an INSERT into it
        return createPageSink((PaimonInsertTableHandle) outputTableHandle, session, false);
    }

    @Override
    public ConnectorPageSink openPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle insertTableHandle, ConnectorPageSinkId pageSinkId)
    {
        return createPageSink((PaimonInsertTableHandle) insertTableHandle, session, false);
    }

    @Override
    public ConnectorPageSink openPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, ConnectorPageSinkId pageSinkId)
    {
        return new TableExecutePageSink();
    }

    /** UPDATE, DELETE and MERGE write their changes through the page sink of an INSERT. */
    @Override
    public ConnectorMergeSink openMergeSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorMergeTableHandle mergeHandle, ConnectorPageSinkId pageSinkId)
    {
        PaimonMergeTableHandle handle = (PaimonMergeTableHandle) mergeHandle;
        PaimonInsertTableHandle insertHandle = handle.getInsertHandle();
        TableSchema schema = insertHandle.table().schema();
        List<String> rowIdFields = MergeRowId.fields(schema, insertHandle.table().options()).stream().map(DataField::name).toList();
        return new PaimonMergeSink(
                insertHandle.schemaTableName().toString(),
                createPageSink(insertHandle, session, true),
                insertHandle.columns().stream().map(PaimonColumnHandle::type).toList(),
                PaimonMergeSink.rowIdColumns(schema.fieldNames(), rowIdFields),
                handle.getRules());
    }

    // deletes: a statement that deletes rows numbers its deletes below the rows it adds (see PaimonPageSink)
    private PaimonPageSink createPageSink(PaimonInsertTableHandle handle, ConnectorSession session, boolean deletes)
    {
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, handle.schemaTableName());
        Location location = handle.table().location();
        TableSchema schema = handle.table().schema();
        String tableName = handle.schemaTableName().toString();
        TableOptions options = handle.table().options();
        WriteOptions writeOptions = WriteOptions.of(tableName, schema.options(), !schema.primaryKeys().isEmpty());
        DataFileLayout layout = DataFileLayout.of(tableName, schema, typeMapping);
        // every file the sink writes, merged runs included, is named after the statement
        MetadataFileNames names = MetadataFileNames.ofStatement(handle.commitIdentifier());
        BaseSnapshotBuckets baseBuckets = new BaseSnapshotBuckets(fileSystem, location, handle.table().metadataLocation(), metadataCache, handle.baseSnapshotId());
        return new PaimonPageSink(
                tableName,
                location,
                schema,
                options,
                handle.columns().stream().map(PaimonColumnHandle::type).toList(),
                new DataFiles(fileSystem, layout, schema.id(), writeOptions.dataFormat(0), writeOptions.changelogFormat(), writeOptions.targetFileSize(), inputChangelog(schema, options, handle), names),
                baseBuckets,
                deletes,
                codec,
                writeOptions,
                Math.min(writeOptions.writeBufferSize(), maxWriteBufferSize),
                handle.dynamicBuckets().map(dynamic -> assigner(fileSystem, handle.table(), dynamic, baseBuckets)),
                writeOptions.writeBufferSpillable() ? Optional.of(new SpilledRunMerge(runMerger, session, handle.table(), names)) : Optional.empty(),
                handle.compactInSinks() ? Optional.of((buckets, outputBufferLimit) -> sinkCompactor.compact(session, handle, buckets, outputBufferLimit)) : Optional.empty());
    }

    // Paimon's overwrite commit drops the changelog of the statement, so an overwrite does not write it
    private static boolean inputChangelog(TableSchema schema, TableOptions options, PaimonInsertTableHandle handle)
    {
        return !schema.primaryKeys().isEmpty() && options.changelogProducer() == TableOptions.ChangelogProducer.INPUT && !handle.overwrite();
    }

    // the assigner reads a partition's key index files of the base snapshot when its first key arrives
    private static DynamicBucketAssigner assigner(TrinoFileSystem fileSystem, PaimonTable table, DynamicBuckets dynamic, BaseSnapshotBuckets baseBuckets)
    {
        return new DynamicBucketAssigner(
                dynamic.channels(),
                dynamic.assigners(),
                dynamic.targetRowNumber(),
                dynamic.maxBuckets(),
                partition -> baseBuckets.hashIndexes(partition).entrySet().stream()
                        .collect(toImmutableMap(Map.Entry::getKey, entry -> hashIndexLocation(table, entry.getValue()))),
                location -> HashIndexFile.read(fileSystem, Location.of(location)));
    }

    private static String hashIndexLocation(PaimonTable table, IndexManifestEntry index)
    {
        return index.externalPath()
                .map(path -> table.externalFile(path, "index file"))
                .orElseGet(() -> HashIndexFile.location(table.location(), index.fileName()))
                .toString();
    }
}
