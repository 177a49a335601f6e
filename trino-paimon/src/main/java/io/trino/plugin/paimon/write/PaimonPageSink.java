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

import com.google.common.collect.ImmutableList;
import io.airlift.json.JsonCodec;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.index.DeletionVectorIndexFile;
import io.trino.plugin.paimon.format.index.HashIndexFile;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.MergeFunction;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.table.BucketFunction;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static java.util.Objects.requireNonNull;

/**
 * Writes the rows of an INSERT into new level-0 data files, one writer per (partition, bucket): rows are routed with
 * Paimon's partition encoding and bucket function, buffered, sorted and folded per key (primary-key tables) and
 * flushed as sorted runs whenever the buffers together reach the write buffer size. Rows of a dynamic-bucket table are
 * assigned their bucket by the {@link DynamicBucketAssigner} of this sink, which owns the assignment of the
 * (partition, channel)s Trino routes to it; at {@link #finish} the sink writes a new key index file for every bucket
 * whose keys changed. {@link #finish} returns a {@link WriteFragment} per file; the coordinator commits them. With a
 * {@link SinkCompactor}, {@link #finish} then compacts the buckets the sink wrote and adds a fragment per compaction.
 * {@link #abort} deletes the files this sink created, and only those.
 */
public final class PaimonPageSink
        implements ConnectorPageSink
{
    private static final int ROUTING_SLICE_ROWS = 1024;

    private final String tableName;
    private final TableOptions options;
    private final Location tableLocation;
    private final DataFiles files;
    private final List<Type> columnTypes;
    private final int[] partitionChannels;
    private final List<DataType> partitionTypes;
    private final List<DataField> partitionFields;
    private final int[] bucketKeyChannels;
    private final List<DataType> bucketKeyTypes;
    private final int totalBuckets;
    private final BaseSnapshotBuckets baseBuckets;
    private final boolean deletes;
    private final JsonCodec<WriteFragment> codec;
    private final WriteOptions writeOptions;
    private final long bufferLimit;
    private final Map<WriterKey, BucketWriter> writers = new LinkedHashMap<>();
    // the channels of NOT NULL columns (primary-key columns unless primary-key.nullable), and their names
    private final int[] notNullChannels;
    private final List<String> notNullNames;
    // primary-key tables: the merge of records with one key, built once
    private final KeyValueLayout keyValueLayout;
    private final RecordComparator comparator;
    private final Supplier<MergeFunction> mergeFunctions;
    private final int[] keyValueChannels;
    // dynamic-bucket tables: the bucket assignment, and the trimmed primary key whose hash it assigns by
    private final Optional<DynamicBucketAssigner> assigner;
    private final List<DataType> keyTypes;
    private final Optional<SpilledRunMerge> runMerge;
    private final List<Location> createdIndexFiles = new ArrayList<>();
    private final List<Location> createdCompactionFiles = new ArrayList<>();
    private final Optional<FinishCompactor> compactor;
    // the most the buckets' buffers held: with writes in finish (a merge of spilled runs, compaction on write) the
    // sink reports it, and Trino keeps counting it while finish writes
    private long reservedBytes;

    /** Compaction on write of the buckets written, each output file buffering at most the given bytes. */
    public interface FinishCompactor
    {
        List<SinkCompaction> compact(List<SinkCompactor.WrittenBucket> buckets, long outputBufferLimit);
    }

    private record WriterKey(ByteBuffer partition, int bucket) {}

    /**
     * @param baseBuckets the buckets in the snapshot the statement read: each bucket's sequence numbers continue above
     * its largest there
     * @param deletes the statement deletes rows: each bucket reserves sequence numbers for its deletes, as many as the
     * bucket's live records, which bound the keys it can delete. The deletes are numbered from the bucket's first
     * sequence number and the added rows after the reserved range, so that a MERGE that deletes a key and inserts it
     * again keeps the new row whatever order its rows arrive in
     * @param bufferLimit the most memory the buffers of all buckets may hold before the largest is flushed
     * @param runMerge for primary-key tables whose write buffer spills, how a bucket's runs become one at the end
     * @param compactor compaction on write of the buckets written, once their files are written
     */
    public PaimonPageSink(
            String tableName,
            Location tableLocation,
            TableSchema schema,
            TableOptions options,
            List<Type> columnTypes,
            DataFiles files,
            BaseSnapshotBuckets baseBuckets,
            boolean deletes,
            JsonCodec<WriteFragment> codec,
            WriteOptions writeOptions,
            long bufferLimit,
            Optional<DynamicBucketAssigner> assigner,
            Optional<SpilledRunMerge> runMerge,
            Optional<FinishCompactor> compactor)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.tableLocation = requireNonNull(tableLocation, "tableLocation is null");
        requireNonNull(schema, "schema is null");
        this.options = requireNonNull(options, "options is null");
        this.columnTypes = ImmutableList.copyOf(columnTypes);
        this.files = requireNonNull(files, "files is null");
        this.baseBuckets = requireNonNull(baseBuckets, "baseBuckets is null");
        this.deletes = deletes;
        this.codec = requireNonNull(codec, "codec is null");
        this.writeOptions = requireNonNull(writeOptions, "writeOptions is null");
        this.bufferLimit = bufferLimit;
        this.assigner = requireNonNull(assigner, "assigner is null");
        this.runMerge = requireNonNull(runMerge, "runMerge is null");
        this.compactor = requireNonNull(compactor, "compactor is null");

        List<String> columnNames = schema.fields().stream().map(DataField::name).toList();
        List<DataField> notNullFields = schema.fields().stream().filter(field -> !field.type().nullable()).toList();
        this.notNullChannels = notNullFields.stream().mapToInt(field -> columnNames.indexOf(field.name())).toArray();
        this.notNullNames = notNullFields.stream().map(DataField::name).toList();
        this.partitionFields = schema.partitionKeys().stream().map(name -> schema.field(name).orElseThrow()).toList();
        this.partitionChannels = schema.partitionKeys().stream().mapToInt(columnNames::indexOf).toArray();
        this.partitionTypes = partitionFields.stream().map(DataField::type).toList();
        this.totalBuckets = options.bucket();
        if (options.bucket() > 0) {
            this.bucketKeyChannels = options.bucketKey().stream().mapToInt(columnNames::indexOf).toArray();
            this.bucketKeyTypes = options.bucketKey().stream().map(name -> schema.field(name).orElseThrow().type()).toList();
        }
        else {
            this.bucketKeyChannels = new int[0];
            this.bucketKeyTypes = List.of();
        }

        if (!schema.primaryKeys().isEmpty()) {
            List<DataField> keyFields = DataFileLayout.trimmedPrimaryKey(schema);
            this.keyValueChannels = keyFields.stream().mapToInt(field -> columnNames.indexOf(field.name())).toArray();
            this.keyTypes = keyFields.stream().map(DataField::type).toList();
            int keyCount = keyFields.size();
            int[] sequenceChannels = options.sequenceFields().stream().mapToInt(name -> KeyValueLayout.firstValueChannel(keyCount) + columnNames.indexOf(name)).toArray();
            List<Type> sequenceTypes = options.sequenceFields().stream().map(name -> columnTypes.get(columnNames.indexOf(name))).toList();
            int[] outputChannels = new int[columnTypes.size()];
            for (int i = 0; i < outputChannels.length; i++) {
                outputChannels[i] = KeyValueLayout.firstValueChannel(keyCount) + i;
            }
            this.keyValueLayout = new KeyValueLayout(keyCount, sequenceChannels, options.sequenceFieldDescending(), outputChannels);
            List<Type> keyTypes = keyFields.stream().map(field -> columnTypes.get(columnNames.indexOf(field.name()))).toList();
            this.comparator = new RecordComparator(keyValueLayout, keyTypes, sequenceTypes);
            this.mergeFunctions = WriteMergeFunctions.create(tableName, schema, options, columnTypes, keyValueLayout.firstValueChannel());
        }
        else {
            this.keyValueChannels = null;
            this.keyTypes = List.of();
            this.keyValueLayout = null;
            this.comparator = null;
            this.mergeFunctions = null;
        }
    }

    @Override
    public CompletableFuture<?> appendPage(Page page)
    {
        appendRows(page, KeyValueLayout.INSERT);
        return NOT_BLOCKED;
    }

    /**
     * Writes rows of table columns as records of one row kind: {@link KeyValueLayout#INSERT}, or for the changes of
     * UPDATE, DELETE and MERGE {@link KeyValueLayout#UPDATE_AFTER} and {@link KeyValueLayout#DELETE}.
     */
    public void appendRows(Page page, byte kind)
    {
        checkNotNull(page);
        // in slices, so that the buffers are flushed close to their limit as Paimon flushes them record by record
        for (int start = 0; start < page.getPositionCount(); start += ROUTING_SLICE_ROWS) {
            route(page.getRegion(start, Math.min(ROUTING_SLICE_ROWS, page.getPositionCount() - start)), kind);
            flushWhileOverLimit();
        }
    }

    /**
     * Trino checks NOT NULL columns before an INSERT reaches the sink, but not for CREATE TABLE AS, whose table the
     * engine does not know: a NULL key written there would make a file no reader can read. Trino's own wording.
     */
    private void checkNotNull(Page page)
    {
        for (int i = 0; i < notNullChannels.length; i++) {
            Block block = page.getBlock(notNullChannels[i]);
            if (!block.mayHaveNull()) {
                continue;
            }
            for (int position = 0; position < block.getPositionCount(); position++) {
                if (block.isNull(position)) {
                    throw new TrinoException(CONSTRAINT_VIOLATION, "NULL value not allowed for NOT NULL column: " + notNullNames.get(i));
                }
            }
        }
    }

    private void route(Page page, byte kind)
    {
        int positionCount = page.getPositionCount();
        Map<WriterKey, int[]> positions = new HashMap<>();
        Map<WriterKey, Integer> counts = new HashMap<>();
        // rows of one page mostly share a partition: its row is built once per change
        BinaryRow partition = BinaryRow.EMPTY;
        ByteBuffer partitionBytes = ByteBuffer.wrap(partition.bytes());
        byte[] serializedPartition = partition.serialize();
        Block[] partitionBlocks = blocks(page, partitionChannels);
        Block[] bucketKeyBlocks = blocks(page, bucketKeyChannels);
        List<Type> partitionTrinoTypes = types(partitionChannels);
        List<Type> bucketKeyTrinoTypes = types(bucketKeyChannels);
        Block[] keyBlocks = assigner.isPresent() ? blocks(page, keyValueChannels) : null;
        List<Type> keyTrinoTypes = assigner.isPresent() ? types(keyValueChannels) : null;
        for (int position = 0; position < positionCount; position++) {
            if (partitionChannels.length > 0) {
                BinaryRow row = BinaryRowValues.row(partitionTypes, partitionTrinoTypes, partitionBlocks, position);
                if (!ByteBuffer.wrap(row.bytes()).equals(partitionBytes)) {
                    partition = row;
                    partitionBytes = ByteBuffer.wrap(row.bytes());
                    serializedPartition = row.serialize();
                }
            }
            int bucket = 0;
            if (totalBuckets > 0) {
                bucket = bucketOf(bucketKeyBlocks, bucketKeyTrinoTypes, position);
            }
            else if (assigner.isPresent()) {
                int keyHash = BinaryRowValues.row(keyTypes, keyTrinoTypes, keyBlocks, position).paimonHashCode();
                bucket = assigner.get().assign(partition, serializedPartition, keyHash);
            }
            WriterKey key = new WriterKey(partitionBytes, bucket);
            if (!writers.containsKey(key)) {
                writers.put(key, createWriter(partition, bucket));
            }
            int[] keyPositions = positions.computeIfAbsent(key, _ -> new int[positionCount]);
            int count = counts.getOrDefault(key, 0);
            keyPositions[count] = position;
            counts.put(key, count + 1);
        }
        positions.forEach((key, keyPositions) -> writers.get(key).add(page, keyPositions, counts.get(key), kind));
    }

    private int bucketOf(Block[] bucketKeyBlocks, List<Type> bucketKeyTrinoTypes, int position)
    {
        if (options.bucketFunctionType() == TableOptions.BucketFunctionType.MOD) {
            Object value = BinaryRowValues.value(bucketKeyTypes.getFirst(), bucketKeyTrinoTypes.getFirst(), bucketKeyBlocks[0], position);
            return BucketFunction.modBucket(((Number) value).longValue(), totalBuckets);
        }
        return BucketFunction.bucket(BinaryRowValues.row(bucketKeyTypes, bucketKeyTrinoTypes, bucketKeyBlocks, position), totalBuckets);
    }

    private BucketWriter createWriter(BinaryRow partition, int bucket)
    {
        String partitionPath = PartitionPath.partitionPath(partitionFields, partition, options.partitionLegacyName(), options.partitionDefaultName());
        Location directory = tableLocation.appendPath(options.bucketPath(partitionPath, bucket));
        Optional<BaseSnapshotBuckets.BucketState> base = baseBuckets.bucket(partition, bucket);
        long firstSequenceNumber = base.map(state -> state.maxSequenceNumber() + 1).orElse(0L);
        long deleteRange = deletes ? base.map(BaseSnapshotBuckets.BucketState::recordCount).orElse(0L) : 0;
        if (keyValueLayout == null) {
            return new AppendBucketWriter(partition, bucket, directory, files, writeOptions.targetFileSize(), firstSequenceNumber);
        }
        SortBuffer buffer = new SortBuffer(keyValueLayout, columnTypes, keyValueChannels, comparator, mergeFunctions, firstSequenceNumber, deleteRange);
        return new MergeTreeBucketWriter(partition, bucket, directory, files, buffer, runMerge);
    }

    // while the buffers together hold more than the limit, the largest one is written out
    private void flushWhileOverLimit()
    {
        // the buffers peak here, between the pages Trino sees
        reservedBytes = Math.max(reservedBytes, bufferedBytes());
        while (bufferedBytes() > bufferLimit) {
            BucketWriter largest = null;
            for (BucketWriter writer : writers.values()) {
                if (largest == null || writer.memoryUsage() > largest.memoryUsage()) {
                    largest = writer;
                }
            }
            if (largest == null || largest.memoryUsage() == 0) {
                return;
            }
            largest.flush();
        }
    }

    /**
     * The buckets' buffers; with writes in {@link #finish}, the most they held so far, flushes included. Trino reads
     * this only between pages, and keeps counting the last value until the sink is closed: a merge of spilled runs and
     * the compaction on write run unseen in {@code finish}, within that reservation ({@link OutputBufferLimit#FLOOR} at
     * least).
     */
    @Override
    public long getMemoryUsage()
    {
        long bytes = bufferedBytes();
        if (compactor.isEmpty() && runMerge.isEmpty()) {
            return bytes;
        }
        reservedBytes = Math.max(reservedBytes, bytes);
        return reservedBytes;
    }

    private long bufferedBytes()
    {
        long bytes = 0;
        for (BucketWriter writer : writers.values()) {
            bytes += writer.memoryUsage();
        }
        return bytes;
    }

    @Override
    public long getCompletedBytes()
    {
        return files.writtenBytes();
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        List<Slice> fragments = new ArrayList<>();
        List<SinkCompactor.WrittenBucket> written = new ArrayList<>();
        long outputBufferLimit = Math.max(reservedBytes, OutputBufferLimit.FLOOR);
        for (BucketWriter writer : writers.values()) {
            List<DataFileMeta> dataFiles = writer.finish(outputBufferLimit);
            for (DataFileMeta file : dataFiles) {
                fragments.add(Slices.wrappedBuffer(codec.toJsonBytes(WriteFragment.of(WrittenFile.of(writer.partition(), writer.bucket(), totalBuckets, file)))));
            }
            if (!dataFiles.isEmpty()) {
                written.add(new SinkCompactor.WrittenBucket(writer.partition(), writer.bucket(), totalBuckets, dataFiles));
            }
            for (DataFileMeta file : writer.changelogFiles()) {
                fragments.add(Slices.wrappedBuffer(codec.toJsonBytes(WriteFragment.ofChangelog(WrittenFile.of(writer.partition(), writer.bucket(), totalBuckets, file)))));
            }
        }
        writers.clear();
        if (assigner.isPresent()) {
            for (DynamicBucketAssigner.ChangedBucket bucket : assigner.get().changedBuckets()) {
                String name = files.indexFileName();
                Location location = HashIndexFile.location(tableLocation, name);
                createdIndexFiles.add(location);
                long size = HashIndexFile.write(files.fileSystem(), location, bucket.hashes());
                WrittenIndexFile indexFile = new WrittenIndexFile(bucket.partition(), bucket.bucket(), name, size, bucket.hashes().length);
                fragments.add(Slices.wrappedBuffer(codec.toJsonBytes(WriteFragment.of(indexFile))));
            }
        }
        if (compactor.isPresent() && !written.isEmpty()) {
            for (SinkCompaction compaction : compactor.get().compact(written, outputBufferLimit)) {
                createdCompactionFiles.addAll(outputs(compaction.result()));
                fragments.add(Slices.wrappedBuffer(codec.toJsonBytes(WriteFragment.of(compaction))));
            }
        }
        return CompletableFuture.completedFuture(fragments);
    }

    @Override
    public void abort()
    {
        for (BucketWriter writer : writers.values()) {
            writer.abort();
        }
        writers.clear();
        TrinoException failure = null;
        List<Location> created = ImmutableList.<Location>builder().addAll(files.created()).addAll(createdIndexFiles).addAll(createdCompactionFiles).build();
        for (Location location : created) {
            try {
                files.fileSystem().deleteFile(location);
            }
            catch (IOException e) {
                // a file never created (or already gone) is fine; anything else is reported after trying the rest
                if (failure == null) {
                    failure = new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete data file %s of an aborted write to %s".formatted(location, tableName), e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    // the files a compaction wrote: data and changelog files in its bucket's folder, and a new deletion-vector index
    private List<Location> outputs(CompactionFragment compaction)
    {
        List<Location> outputs = new ArrayList<>();
        for (WrittenFile file : compaction.allWrittenFiles()) {
            ManifestEntry entry = file.toManifestEntry();
            String partitionPath = PartitionPath.partitionPath(partitionFields, entry.partition(), options.partitionLegacyName(), options.partitionDefaultName());
            outputs.add(tableLocation.appendPath(options.bucketPath(partitionPath, entry.bucket())).appendPath(entry.file().fileName()));
        }
        compaction.deletionVectors()
                .filter(DeletionVectorFile::written)
                .ifPresent(vectors -> outputs.add(DeletionVectorIndexFile.location(tableLocation, vectors.fileName())));
        return outputs;
    }

    private static Block[] blocks(Page page, int[] channels)
    {
        Block[] blocks = new Block[channels.length];
        for (int i = 0; i < channels.length; i++) {
            blocks[i] = page.getBlock(channels[i]);
        }
        return blocks;
    }

    private List<Type> types(int[] channels)
    {
        List<Type> types = new ArrayList<>(channels.length);
        for (int channel : channels) {
            types.add(columnTypes.get(channel));
        }
        return types;
    }
}
