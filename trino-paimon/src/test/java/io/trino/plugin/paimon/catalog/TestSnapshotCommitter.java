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
package io.trino.plugin.paimon.catalog;

import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.CommitRetry;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.TrinoException;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_DATA_FILE;
import static io.trino.plugin.paimon.table.CommitRetry.DEFAULT;
import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Metadata our writers produce, read back by Paimon Java 1.4.2: a table's files re-committed into a new table by
 * our schema, manifest, manifest-list, index-manifest and snapshot writers reads the same rows in Paimon Java,
 * and Paimon Java keeps writing on top of it.
 */
@TestInstance(PER_CLASS)
final class TestSnapshotCommitter
{
    @AutoClose
    private final TempWarehouse tables = PaimonTestTables.inTempWarehouse();

    @Test
    void recommittedFilesReadTheSameInPaimonJava()
            throws Exception
    {
        for (String source : PaimonTestTables.ALL) {
            String copy = source + "_recommitted";
            Snapshot snapshot = recommit(source, copy);
            assertThat(snapshot.id()).isEqualTo(1);

            Table copied = tables.paimon().getTable(DATABASE, copy);
            List<String> expected = PaimonJavaCatalog.readRows(tables.paimon().getTable(DATABASE, source));
            assertThat(expected).as(source).isNotEmpty();
            assertThat(PaimonJavaCatalog.readRows(copied)).as(source).isEqualTo(expected);

            // Paimon Java's own plan of our snapshot is the file set we committed
            List<String> planned = ((FileStoreTable) copied).store().newScan().plan().files().stream()
                    .map(entry -> entry.bucket() + "/" + entry.file().level() + "/" + entry.file().fileName())
                    .sorted()
                    .toList();
            List<String> committed = liveFiles(source).stream()
                    .map(entry -> entry.bucket() + "/" + entry.file().level() + "/" + entry.file().fileName())
                    .sorted()
                    .toList();
            assertThat(planned).isEqualTo(committed);
        }
    }

    @Test
    void paimonJavaWritesOnTopOfOurSnapshot()
            throws Exception
    {
        String copy = PaimonTestTables.MULTI_COMMIT + "_continued";
        recommit(PaimonTestTables.MULTI_COMMIT, copy);
        Table table = tables.paimon().getTable(DATABASE, copy);
        List<String> before = PaimonJavaCatalog.readRows(table);
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(BinaryString.fromString("2026-11-09"), 12345L, BinaryString.fromString("new"), 1.5)));
        List<String> after = PaimonJavaCatalog.readRows(tables.paimon().getTable(DATABASE, copy));
        List<String> expected = new ArrayList<>(before);
        expected.add("+I(2026-11-09, 12345, new, 1.5)");
        expected.sort(null);
        assertThat(after).isEqualTo(expected);
        assertThat(new SnapshotFiles(tables.fileSystem(), tableLocation(copy)).latestSnapshotId().getAsLong()).isEqualTo(2);
    }

    @Test
    void manifestCompactionKeepsEveryRow()
            throws Exception
    {
        String copy = PaimonTestTables.COMPACTED + "_manifests_compacted";
        recommit(PaimonTestTables.COMPACTED, copy);
        Table table = tables.paimon().getTable(DATABASE, copy);
        List<String> before = PaimonJavaCatalog.readRows(table);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        Snapshot compacted = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), schema, "trino-test", DEFAULT.withMaxRetries(3))
                .commit(CommitKind.COMPACT, List.of(), Optional.empty(), true);
        assertThat(compacted.id()).isEqualTo(2);
        SnapshotScan scan = new SnapshotScan(tables.fileSystem(), tableLocation(copy));
        assertThat(scan.readManifestList(compacted.baseManifestList(), compacted.baseManifestListSize())).hasSize(1);
        assertThat(scan.readManifestList(compacted.deltaManifestList(), compacted.deltaManifestListSize())).isEmpty();
        assertThat(PaimonJavaCatalog.readRows(tables.paimon().getTable(DATABASE, copy))).isEqualTo(before);
    }

    @Test
    void deletingAFileThatIsNotLiveFails()
            throws Exception
    {
        String copy = PaimonTestTables.APPEND + "_conflict";
        recommit(PaimonTestTables.APPEND, copy);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        ManifestEntry live = liveFiles(copy).getFirst();
        ManifestEntry stale = new ManifestEntry(ManifestEntry.FileKind.DELETE, live.partition(), live.bucket(), live.totalBuckets(),
                new io.trino.plugin.paimon.format.manifest.DataFileMeta(
                        "data-no-such-file.parquet", 1, 1, live.file().minKey(), live.file().maxKey(), live.file().keyStats(), live.file().valueStats(),
                        0, 0, 0, 0, List.of(), java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), Optional.empty(), java.util.OptionalInt.empty(),
                        Optional.empty(), Optional.empty(), java.util.OptionalLong.empty(), Optional.empty()));
        SnapshotCommitter committer = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), schema, "trino-test", DEFAULT.withMaxRetries(3));
        assertThatThrownBy(() -> committer.commit(CommitKind.OVERWRITE, List.of(stale), Optional.empty(), false))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(TRANSACTION_CONFLICT.toErrorCode()))
                .hasMessageContaining("files it deletes are no longer live")
                .hasMessageContaining("data-no-such-file.parquet");
        assertThat(new SnapshotFiles(tables.fileSystem(), tableLocation(copy)).latestSnapshotId().getAsLong()).isEqualTo(1);
    }

    @Test
    void fileWithNullInNotNullKeyIsNotCommitted()
            throws Exception
    {
        String copy = PaimonTestTables.MULTI_COMMIT + "_null_key";
        recommit(PaimonTestTables.MULTI_COMMIT, copy);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        ManifestEntry live = liveFiles(copy).getFirst();
        // the trimmed key is (id BIGINT NOT NULL): a min key with its null bit set is what a writer given a NULL key produced
        BinaryRow nullKey = BinaryRowWriter.toBinaryRow(List.of(new DataType.BigIntType(false)), java.util.Arrays.asList((Object) null));
        SnapshotCommitter committer = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), schema, "trino-test", DEFAULT.withMaxRetries(3));
        List<String> manifestsBefore = listFiles(tableLocation(copy).appendPath("manifest"));

        assertThatThrownBy(() -> committer.commit(CommitKind.APPEND, List.of(added(live, nullKey, live.file().maxKey())), Optional.empty(), false))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_DATA_FILE.toErrorCode()))
                .hasMessage("Refusing to commit data file data-new.parquet to Paimon table tables.%s: it has a NULL in NOT NULL column id of its min key".formatted(copy));
        // a key row of another arity
        assertThatThrownBy(() -> committer.commit(CommitKind.APPEND, List.of(added(live, live.file().minKey(), BinaryRow.EMPTY)), Optional.empty(), false))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_DATA_FILE.toErrorCode()))
                .hasMessageContaining("has a max key of 0 fields, the table has 1");
        assertThat(new SnapshotFiles(tables.fileSystem(), tableLocation(copy)).latestSnapshotId().getAsLong()).isEqualTo(1);
        assertThat(listFiles(tableLocation(copy).appendPath("manifest"))).isEqualTo(manifestsBefore);
        // the same file with its real keys commits
        assertThat(committer.commit(CommitKind.APPEND, List.of(added(live, live.file().minKey(), live.file().maxKey())), Optional.empty(), false).id()).isEqualTo(2);
    }

    private static ManifestEntry added(ManifestEntry live, BinaryRow minKey, BinaryRow maxKey)
    {
        DataFileMeta file = live.file();
        return new ManifestEntry(ManifestEntry.FileKind.ADD, live.partition(), live.bucket(), live.totalBuckets(), new DataFileMeta(
                "data-new.parquet", file.fileSize(), file.rowCount(), minKey, maxKey, file.keyStats(), file.valueStats(),
                file.maxSequenceNumber() + 1000, file.maxSequenceNumber() + 1000 + file.rowCount(), file.schemaId(), 0, List.of(), file.creationTimeMillis(),
                file.deleteRowCount(), Optional.empty(), file.fileSource(), file.valueStatsColumns(), Optional.empty(), java.util.OptionalLong.empty(), Optional.empty()));
    }

    private List<String> listFiles(Location folder)
            throws java.io.IOException
    {
        List<String> names = new ArrayList<>();
        var files = tables.fileSystem().listFiles(folder);
        while (files.hasNext()) {
            names.add(files.next().location().fileName());
        }
        return names.stream().sorted().toList();
    }

    @Test
    void lostRacesGiveUpAtCommitMaxRetriesNamingTheLimit()
            throws Exception
    {
        String copy = PaimonTestTables.APPEND + "_always_lost";
        recommit(PaimonTestTables.APPEND, copy);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        List<String> manifestsBefore = listFiles(tableLocation(copy).appendPath("manifest"));
        AtomicInteger attempts = new AtomicInteger();
        // every publish loses, as if another writer always took the id first
        SnapshotPublisher alwaysLost = _ -> {
            attempts.incrementAndGet();
            return false;
        };
        CommitRetry retry = new CommitRetry(2, Duration.ofMillis(1), Duration.ofMillis(4), Optional.empty());
        SnapshotCommitter committer = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), alwaysLost, schema, "trino-test", retry);
        assertThatThrownBy(() -> committer.commit(CommitKind.APPEND, List.of(), Optional.empty(), false))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(TRANSACTION_CONFLICT.toErrorCode()))
                .hasMessage("Commit to Paimon table %s failed: snapshot 2 was taken by another writer, 3 attempts made (commit.max-retries = 2 reached)".formatted(tableLocation(copy)));
        // the first attempt and two retries, as Paimon's committer makes them
        assertThat(attempts).hasValue(3);
        assertThat(listFiles(tableLocation(copy).appendPath("manifest"))).isEqualTo(manifestsBefore);
    }

    @Test
    void lostRacesGiveUpOnceCommitTimeoutHasPassed()
            throws Exception
    {
        String copy = PaimonTestTables.APPEND + "_timed_out";
        recommit(PaimonTestTables.APPEND, copy);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        AtomicInteger attempts = new AtomicInteger();
        SnapshotPublisher alwaysLost = _ -> {
            attempts.incrementAndGet();
            return false;
        };
        // 50 ms between attempts, a 120 ms timeout: the attempts after 0, ~50 and ~100 ms are made, the one after ~150 ms is not
        CommitRetry retry = new CommitRetry(1000, Duration.ofMillis(50), Duration.ofMillis(50), Optional.of(Duration.ofMillis(120)));
        SnapshotCommitter committer = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), alwaysLost, schema, "trino-test", retry);
        assertThatThrownBy(() -> committer.commit(CommitKind.APPEND, List.of(), Optional.empty(), false))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(TRANSACTION_CONFLICT.toErrorCode()))
                .hasMessageContaining("(commit.timeout = 120 ms passed after");
        assertThat(attempts.get()).isBetween(2, 4);
    }

    /**
     * Committers that share a commit lock queue for the table's next snapshot id: with no retry allowed, every one of
     * their commits lands, where without the lock they race for the ids and most give up.
     */
    @Test
    void committersSharingTheLockNeverLoseARaceToEachOther()
            throws Exception
    {
        String copy = PaimonTestTables.APPEND + "_queued";
        recommit(PaimonTestTables.APPEND, copy);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        CommitLocks locks = new CommitLocks();
        AtomicInteger lost = new AtomicInteger();
        SnapshotFiles files = new SnapshotFiles(tables.fileSystem(), tableLocation(copy));
        SnapshotPublisher counting = snapshot -> {
            boolean published = files.commit(snapshot);
            if (!published) {
                lost.incrementAndGet();
            }
            return published;
        };
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int writer = 0; writer < 4; writer++) {
                String user = "writer-" + writer;
                futures.add(executor.submit(() -> {
                    SnapshotCommitter committer = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), locks.queued(tableLocation(copy), counting), schema, user, DEFAULT.withMaxRetries(0));
                    for (int i = 0; i < 5; i++) {
                        committer.commit(CommitKind.APPEND, List.of(), Optional.empty(), false);
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(lost).hasValue(0);
        assertThat(files.listSnapshotIds()).hasSize(21);
    }

    @Test
    void concurrentCommittersEachGetTheirOwnSnapshot()
            throws Exception
    {
        String copy = PaimonTestTables.APPEND + "_concurrent";
        recommit(PaimonTestTables.APPEND, copy);
        TableSchema schema = new SchemaFiles(tables.fileSystem(), tableLocation(copy)).latestSchema().orElseThrow();
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Long>>> futures = new ArrayList<>();
            for (int writer = 0; writer < 4; writer++) {
                String user = "writer-" + writer;
                futures.add(executor.submit(() -> {
                    SnapshotCommitter committer = new SnapshotCommitter(tables.fileSystem(), tableLocation(copy), schema, user, DEFAULT.withMaxRetries(100));
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < 5; i++) {
                        ids.add(committer.commit(CommitKind.APPEND, List.of(), Optional.empty(), false).id());
                    }
                    return ids;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> future : futures) {
                all.addAll(future.get());
            }
            all.sort(null);
            assertThat(all).containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(2, 21).boxed().toList());
        }
        finally {
            executor.shutdownNow();
        }
        SnapshotFiles snapshots = new SnapshotFiles(tables.fileSystem(), tableLocation(copy));
        assertThat(snapshots.listSnapshotIds()).hasSize(21);
        assertThat(PaimonJavaCatalog.readRows(tables.paimon().getTable(DATABASE, copy))).isEqualTo(PaimonJavaCatalog.readRows(tables.paimon().getTable(DATABASE, PaimonTestTables.APPEND)));
        // lists of lost attempts were removed: every manifest list left is referenced by a snapshot
        try (var files = Files.list(tables.root().resolve(tableLocation(copy).path()).resolve("manifest"))) {
            long lists = files.filter(file -> file.getFileName().toString().startsWith("manifest-list-")).count();
            assertThat(lists).isEqualTo(2L * 21);
        }
    }

    /**
     * Creates table {@code target} from {@code source}: its schema files rewritten by our schema writer, its live
     * data and index files copied to the folders our partition naming computes, and one snapshot committed with
     * our manifest and snapshot writers.
     */
    private Snapshot recommit(String source, String target)
            throws Exception
    {
        Location sourceLocation = tableLocation(source);
        Location targetLocation = tableLocation(target);
        SchemaFiles sourceSchemas = new SchemaFiles(tables.fileSystem(), sourceLocation);
        SchemaFiles targetSchemas = new SchemaFiles(tables.fileSystem(), targetLocation);
        for (long id : sourceSchemas.listSchemaIds()) {
            assertThat(targetSchemas.createSchema(sourceSchemas.readSchema(id))).isTrue();
        }
        TableSchema schema = targetSchemas.latestSchema().orElseThrow();
        List<DataField> partitionFields = schema.partitionKeys().stream().map(name -> schema.field(name).orElseThrow()).toList();

        Snapshot sourceSnapshot = new SnapshotFiles(tables.fileSystem(), sourceLocation).latestSnapshot().orElseThrow();
        SnapshotScan sourceScan = new SnapshotScan(tables.fileSystem(), sourceLocation);
        List<ManifestEntry> live = sourceScan.liveFiles(sourceSnapshot, ScanFilter.ALL);
        for (ManifestEntry entry : live) {
            String folder = PartitionPath.partitionPath(partitionFields, entry.partition(), true, PartitionPath.DEFAULT_PARTITION_NAME) + "bucket-" + entry.bucket();
            copy(sourceLocation.appendPath(folder).appendPath(entry.file().fileName()), targetLocation.appendPath(folder).appendPath(entry.file().fileName()));
        }
        List<IndexManifestEntry> indexFiles = sourceScan.indexFiles(sourceSnapshot, ScanFilter.ALL);
        for (IndexManifestEntry index : indexFiles) {
            copy(sourceScan.indexLocation(index.fileName()), new SnapshotScan(tables.fileSystem(), targetLocation).indexLocation(index.fileName()));
        }
        return new SnapshotCommitter(tables.fileSystem(), targetLocation, schema, "trino-test", DEFAULT.withMaxRetries(3))
                .commit(CommitKind.APPEND, live, indexFiles.isEmpty() ? Optional.empty() : Optional.of(indexFiles), false);
    }

    private List<ManifestEntry> liveFiles(String table)
    {
        Snapshot snapshot = new SnapshotFiles(tables.fileSystem(), tableLocation(table)).latestSnapshot().orElseThrow();
        return new SnapshotScan(tables.fileSystem(), tableLocation(table)).liveFiles(snapshot, ScanFilter.ALL);
    }

    private void copy(Location from, Location to)
            throws Exception
    {
        Path target = tables.root().resolve(to.path());
        Files.createDirectories(target.getParent());
        Files.copy(tables.root().resolve(from.path()), target);
    }

    private static Location tableLocation(String table)
    {
        return Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table));
    }
}
