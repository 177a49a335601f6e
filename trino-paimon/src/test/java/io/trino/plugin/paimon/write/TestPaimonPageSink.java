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

import io.airlift.json.JsonCodec;
import io.airlift.slice.Slice;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.compaction.BucketCompactor;
import io.trino.plugin.paimon.compaction.Compactions;
import io.trino.plugin.paimon.compaction.LookupCompactor;
import io.trino.plugin.paimon.compaction.SinkCompactions;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.spi.Page;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.SchemaTableName;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.airlift.json.JsonCodec.jsonCodec;
import static io.trino.plugin.paimon.testing.ParquetFooters.footer;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.testing.TestingConnectorSession.SESSION;
import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The page sink on its own: a small write buffer flushes several sorted runs per bucket, {@code finish} describes
 * each file written, and {@code abort} deletes the files the sink wrote and nothing else.
 */
@TestInstance(PER_CLASS)
final class TestPaimonPageSink
{
    private static final String DATABASE = "sinks";
    private static final JsonCodec<WriteFragment> CODEC = jsonCodec(WriteFragment.class);
    // makes a page of 1000 rows larger than the write buffer
    private static final String PADDING = " ".repeat(300);

    private Path root;
    private PaimonJavaCatalog paimon;
    private PaimonPageSinkProvider provider;
    // a provider whose sinks compact on write, each compaction's output buffer held to COMPACTION_OUTPUT_LIMIT; the
    // limits the sinks asked for are kept in compactionLimits
    private PaimonPageSinkProvider compactingProvider;
    private final List<Long> compactionLimits = new CopyOnWriteArrayList<>();
    private static final long COMPACTION_OUTPUT_LIMIT = 64 << 10;

    @BeforeAll
    void createTable()
            throws Exception
    {
        root = Files.createTempDirectory("paimon-sink");
        paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve("warehouse")));
        paimon.createDatabase(DATABASE);
        LocalFileSystemFactory fileSystemFactory = new LocalFileSystemFactory(root);
        TableFileSystemFactory tableFileSystems = TableFileSystemFactory.sharedBy(fileSystemFactory);
        BucketCompactor runMerger = new BucketCompactor(tableFileSystems, new PaimonPageSourceProvider(tableFileSystems, TESTING_TYPE_MANAGER), TESTING_TYPE_MANAGER);
        provider = new PaimonPageSinkProvider(tableFileSystems, TESTING_TYPE_MANAGER, CODEC, new PaimonConfig(), runMerger, MetadataCache.DISABLED, (_, _, _, _) -> List.of());
        PaimonPageSourceProvider reader = new PaimonPageSourceProvider(tableFileSystems, TESTING_TYPE_MANAGER);
        SinkCompactions sinkCompactions = new SinkCompactions(tableFileSystems, MetadataCache.DISABLED, new Compactions(runMerger, new LookupCompactor(tableFileSystems, reader, runMerger)));
        compactingProvider = new PaimonPageSinkProvider(tableFileSystems, TESTING_TYPE_MANAGER, CODEC, new PaimonConfig(), runMerger, MetadataCache.DISABLED, (session, handle, buckets, limit) -> {
            compactionLimits.add(limit);
            return sinkCompactions.compact(session, handle, buckets, COMPACTION_OUTPUT_LIMIT);
        });
    }

    @AfterAll
    void cleanUp()
            throws Exception
    {
        paimon.close();
        deleteRecursively(root, ALLOW_INSECURE);
    }

    @Test
    void abortDeletesTheFilesOfThisSinkOnly()
            throws IOException
    {
        Table table = createTable("aborted");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, BinaryString.fromString("existing"))));
        Set<Path> before = dataFiles("aborted");
        assertThat(before).hasSize(1);

        ConnectorPageSink sink = createSink("aborted");
        for (int page = 0; page < 4; page++) {
            sink.appendPage(rows(page * 1000, 1000));
        }
        // the buffer of 256 kB was flushed while the rows came: files exist before finish
        assertThat(dataFiles("aborted")).hasSizeGreaterThan(before.size() + 1);
        sink.abort();
        assertThat(dataFiles("aborted")).isEqualTo(before);
        assertThat(PaimonJavaCatalog.readRows(paimon.getTable(DATABASE, "aborted"))).containsExactly("+I(1, existing)");
    }

    /** With {@code write-buffer-spillable} = false each flush stays a sorted run of its own, as in Paimon. */
    @Test
    void finishDescribesEverySortedRunWritten()
            throws IOException
    {
        createTable("finished", Map.of("write-buffer-spillable", "false"));
        ConnectorPageSink sink = createSink("finished");
        // keys 0..999 twice, the second time in reverse order
        sink.appendPage(rows(0, 1000));
        sink.appendPage(reversedRows(1000));
        Collection<Slice> fragments = sink.finish().join();
        List<WrittenFile> files = fragments.stream().map(fragment -> CODEC.fromJson(fragment.getBytes()).dataFile().orElseThrow()).toList();
        assertThat(files).hasSizeGreaterThan(1);
        assertThat(files.stream().map(file -> root.resolve("warehouse/%s.db/finished/bucket-0".formatted(DATABASE)).resolve(file.fileName())).collect(Collectors.toSet()))
                .isEqualTo(dataFiles("finished"));
        assertThat(files.stream().mapToLong(WrittenFile::rowCount).sum()).isLessThanOrEqualTo(2000);
        // sequence numbers start at 0 for an empty bucket and never repeat across the runs
        List<WrittenFile> bySequence = files.stream().sorted((left, right) -> Long.compare(left.minSequenceNumber(), right.minSequenceNumber())).toList();
        assertThat(bySequence.getFirst().minSequenceNumber()).isEqualTo(0);
        for (int i = 1; i < bySequence.size(); i++) {
            assertThat(bySequence.get(i).minSequenceNumber()).isGreaterThan(bySequence.get(i - 1).maxSequenceNumber());
        }
        assertThat(bySequence.getLast().maxSequenceNumber()).isEqualTo(1999);
        files.forEach(file -> {
            assertThat(file.level()).isZero();
            assertThat(file.bucket()).isZero();
            assertThat(file.totalBuckets()).isEqualTo(1);
            assertThat(file.deleteRowCount()).isZero();
        });
    }

    /**
     * By default the runs a bucket flushed are merged into one when the sink finishes, and deleted: the merged run holds
     * every key once, with the values and sequence numbers of its newest records. Until then the sink reports the most
     * its buffers held.
     */
    @Test
    void finishMergesTheFlushedRunsIntoOne()
            throws IOException
    {
        createTable("merged");
        ConnectorPageSink sink = createSink("merged");
        sink.appendPage(rows(0, 1000));
        long reported = sink.getMemoryUsage();
        sink.appendPage(reversedRows(1000));
        assertThat(dataFiles("merged")).hasSizeGreaterThan(1);
        // the merge in finish runs where Trino does not read the sink's memory: the sink keeps its reservation
        assertThat(reported).isPositive();
        assertThat(sink.getMemoryUsage()).isGreaterThanOrEqualTo(reported);
        List<WrittenFile> files = sink.finish().join().stream().map(fragment -> CODEC.fromJson(fragment.getBytes()).dataFile().orElseThrow()).toList();
        assertThat(files).hasSize(1);
        WrittenFile file = files.getFirst();
        assertThat(dataFiles("merged")).containsExactly(root.resolve("warehouse/%s.db/merged/bucket-0".formatted(DATABASE)).resolve(file.fileName()));
        assertThat(file.rowCount()).isEqualTo(1000);
        assertThat(file.level()).isZero();
        assertThat(file.fileSource()).isEqualTo(DataFileMeta.FILE_SOURCE_APPEND);
        // the second page's records, numbered 1000..1999, replaced the first page's
        assertThat(file.minSequenceNumber()).isEqualTo(1000);
        assertThat(file.maxSequenceNumber()).isEqualTo(1999);
    }

    /**
     * Trino reads a sink's memory only between pages, so the compaction on write in {@code finish} runs unseen: with
     * it, the sink keeps reporting the most it reported, and gives the compaction that much room (8 MB at least) for
     * its output's buffered row group, which the compaction keeps to.
     */
    @Test
    void compactionInFinishStaysWithinWhatTheSinkReserved()
            throws IOException
    {
        Table table = createTable("compacted", Map.of("num-sorted-run.compaction-trigger", "2"));
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(0, BinaryString.fromString("from paimon"))));
        ConnectorPageSink sink = createSink(compactingProvider, "compacted", true);
        long reported = 0;
        for (int page = 0; page < 4; page++) {
            sink.appendPage(rows(page * 500, 500));
            // the buffer of 256 kB flushes as the rows come, and the reservation stays
            assertThat(sink.getMemoryUsage()).isGreaterThanOrEqualTo(reported);
            reported = sink.getMemoryUsage();
        }
        assertThat(reported).isPositive();
        List<WriteFragment> fragments = sink.finish().join().stream().map(fragment -> CODEC.fromJson(fragment.getBytes())).toList();
        assertThat(compactionLimits).containsExactly(Math.max(reported, OutputBufferLimit.FLOOR));

        // the compaction's one file: row groups closed at the limit, where the table's 128 MB would have made one
        List<WrittenFile> compacted = fragments.stream()
                .flatMap(fragment -> fragment.compaction().stream())
                .flatMap(compaction -> compaction.result().writtenFiles().stream())
                .toList();
        assertThat(compacted).hasSize(1);
        FileMetaData footer = footer(root.resolve("warehouse/%s.db/compacted/bucket-0".formatted(DATABASE)).resolve(compacted.getFirst().fileName()));
        assertThat(footer.getNum_rows()).isEqualTo(2000);
        assertThat(footer.getRow_groups()).hasSizeGreaterThan(4);
        for (RowGroup rowGroup : footer.getRow_groups()) {
            assertThat(rowGroup.getTotal_byte_size()).isLessThanOrEqualTo(2 * COMPACTION_OUTPUT_LIMIT);
        }
    }

    /**
     * A key whose records in one statement fold to a removal (+I then -D under deduplicate) is still written, as its
     * -D: dropping it would let the key's row in older files be read again.
     */
    @Test
    void recordsFoldingToARemovalAreWrittenAsTheDelete()
    {
        Table table = createTable("folded");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, BinaryString.fromString("old")), GenericRow.of(2, BinaryString.fromString("old"))));
        PaimonPageSink sink = (PaimonPageSink) createSink("folded");
        sink.appendRows(rows(1, 1), KeyValueLayout.INSERT);
        sink.appendRows(rows(1, 2), KeyValueLayout.DELETE);
        sink.appendRows(rows(3, 1), KeyValueLayout.UPDATE_AFTER);
        List<WrittenFile> files = sink.finish().join().stream().map(fragment -> CODEC.fromJson(fragment.getBytes()).dataFile().orElseThrow()).toList();
        assertThat(files).hasSize(1);
        // keys 1 and 2 as -D, key 3 as +U
        assertThat(files.getFirst().rowCount()).isEqualTo(3);
        assertThat(files.getFirst().deleteRowCount()).isEqualTo(2);
    }

    private Table createTable(String name)
    {
        return createTable(name, Map.of());
    }

    private Table createTable(String name, Map<String, String> options)
    {
        return paimon.createTable(DATABASE, name, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("write-buffer-size", "256 kb")
                .options(options)
                .build());
    }

    private ConnectorPageSink createSink(String table)
    {
        return createSink(provider, table, false);
    }

    private ConnectorPageSink createSink(PaimonPageSinkProvider provider, String table, boolean compactInSinks)
    {
        OptionalLong snapshot = Files.exists(root.resolve("warehouse/%s.db/%s/snapshot/snapshot-1".formatted(DATABASE, table))) ? OptionalLong.of(1) : OptionalLong.empty();
        Location location = Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table));
        TableSchema schema = new SchemaFiles(new LocalFileSystemFactory(root).create(SESSION), location).readSchema(0);
        PaimonInsertTableHandle handle = new PaimonInsertTableHandle(
                new PaimonTable(new SchemaTableName(DATABASE, table), location, schema),
                snapshot,
                List.of(new PaimonColumnHandle(0, "id", INTEGER, false), new PaimonColumnHandle(1, "v", VARCHAR, true)),
                Optional.empty(),
                UUID.randomUUID().toString(),
                false,
                compactInSinks);
        return provider.openPageSink(null, SESSION, (ConnectorInsertTableHandle) handle, new ConnectorPageSinkId() {
            @Override
            public long getId()
            {
                return 0;
            }
        });
    }

    private static Page rows(int first, int count)
    {
        BlockBuilder ids = INTEGER.createBlockBuilder(null, count);
        BlockBuilder values = VARCHAR.createBlockBuilder(null, count);
        for (int i = 0; i < count; i++) {
            INTEGER.writeLong(ids, first + i);
            VARCHAR.writeString(values, "value of " + (first + i) + PADDING);
        }
        return new Page(ids.build(), values.build());
    }

    private static Page reversedRows(int count)
    {
        BlockBuilder ids = INTEGER.createBlockBuilder(null, count);
        BlockBuilder values = VARCHAR.createBlockBuilder(null, count);
        for (int i = count - 1; i >= 0; i--) {
            INTEGER.writeLong(ids, i);
            VARCHAR.writeString(values, "again " + i + PADDING);
        }
        return new Page(ids.build(), values.build());
    }

    private Set<Path> dataFiles(String table)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(root.resolve("warehouse/%s.db/%s".formatted(DATABASE, table)))) {
            return files.filter(path -> path.getFileName().toString().startsWith("data-")).collect(Collectors.toSet());
        }
    }
}
