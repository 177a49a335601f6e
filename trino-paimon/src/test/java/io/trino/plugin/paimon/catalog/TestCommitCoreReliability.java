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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SimpleStats;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.ErrorCode;
import io.trino.spi.TrinoException;
import io.trino.spi.security.ConnectorIdentity;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.table.CommitRetry.DEFAULT;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * T1 of reliability.md: writers commit new level-0 files concurrently through {@link SnapshotCommitter} while the
 * file system fails reads and writes at random, some failures after the write landed. Every commit either returns
 * its snapshot, and then its files are live exactly once, or fails with one of the commit's error codes, and then
 * none of its files is live (unless the error says the outcome is unknown); the table passes fsck and no stream
 * stays open.
 * <p>
 * Size: {@code -Dpaimon.test.scale=N} multiplies the commits per thread (default 1: 4 threads × 15 commits); the
 * seed is printed and can be fixed with {@code -Dpaimon.test.seed=S}.
 */
final class TestCommitCoreReliability
{
    private static final String DATABASE = "reliability";
    private static final int THREADS = 4;
    private static final int BUCKETS = 4;
    private static final List<String> PARTITIONS = List.of("p0", "p1");
    private static final DataType STRING = DataTypeParser.parse("STRING");
    private static final DataType BIGINT = DataTypeParser.parse("BIGINT");
    private static final Set<ErrorCode> COMMIT_ERRORS = Set.of(PAIMON_FILESYSTEM_ERROR.toErrorCode(), TRANSACTION_CONFLICT.toErrorCode(), PAIMON_COMMIT_STATE_UNKNOWN.toErrorCode());

    private record Commit(String writer, List<ManifestEntry> files) {}

    private record Outcome(Commit commit, Optional<Snapshot> snapshot, Optional<TrinoException> failure) {}

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void randomConcurrentCommitsUnderFaults(boolean sharedBuckets)
            throws Exception
    {
        long seed = Long.getLong("paimon.test.seed", new Random().nextLong());
        int commitsPerThread = 15 * Integer.getInteger("paimon.test.scale", 1);
        System.out.printf("TestCommitCoreReliability sharedBuckets=%s seed=%s (-Dpaimon.test.seed=%s)%n", sharedBuckets, seed, seed);

        try (TempWarehouse warehouse = TempWarehouse.create()) {
            Location table = createTable(warehouse);
            TrinoFileSystem plain = warehouse.fileSystem();
            TableSchema schema = new SchemaFiles(plain, table).latestSchema().orElseThrow();

            FaultFs faultFs = FaultFs.local(warehouse.root(), seed);
            double rate = 0.01;
            for (Operation operation : List.of(Operation.OPEN, Operation.CREATE_OR_OVERWRITE, Operation.RENAME, Operation.DELETE, Operation.LIST)) {
                faultFs.addRule(Rule.random(operation, "**", rate, Action.THROW_BEFORE));
            }
            for (Operation operation : List.of(Operation.CREATE_OR_OVERWRITE, Operation.RENAME)) {
                faultFs.addRule(Rule.random(operation, "**", rate, Action.THROW_AFTER_WRITE));
            }
            faultFs.addRule(Rule.random(Operation.RENAME, "**", rate, Action.ALREADY_EXISTS_AFTER_WRITE));
            TrinoFileSystem faulty = faultFs.create(ConnectorIdentity.ofUser("test"));

            Random seeds = new Random(seed);
            List<Outcome> outcomes = new ArrayList<>();
            Map<String, Commit> commitsByFile = new ConcurrentHashMap<>();
            ExecutorService executor = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<List<Outcome>>> futures = new ArrayList<>();
                for (int thread = 0; thread < THREADS; thread++) {
                    int writer = thread;
                    Random random = new Random(seeds.nextLong());
                    futures.add(executor.submit(() -> {
                        SnapshotCommitter committer = new SnapshotCommitter(faulty, table, schema, "writer-" + writer, DEFAULT.withMaxRetries(20));
                        List<Outcome> results = new ArrayList<>();
                        for (int i = 0; i < commitsPerThread; i++) {
                            Commit commit = new Commit("writer-" + writer, newFiles(plain, table, random, sharedBuckets ? random.nextInt(BUCKETS) : writer % BUCKETS));
                            commit.files().forEach(entry -> commitsByFile.put(entry.file().fileName(), commit));
                            try {
                                results.add(new Outcome(commit, Optional.of(committer.commit(CommitKind.APPEND, commit.files(), Optional.empty(), false)), Optional.empty()));
                            }
                            catch (TrinoException e) {
                                results.add(new Outcome(commit, Optional.empty(), Optional.of(e)));
                            }
                        }
                        return results;
                    }));
                }
                for (Future<List<Outcome>> future : futures) {
                    outcomes.addAll(future.get());
                }
            }
            finally {
                executor.shutdownNow();
            }
            System.out.printf("TestCommitCoreReliability: %s commits, %s failed, %s faults injected%n",
                    outcomes.size(), outcomes.stream().filter(outcome -> outcome.failure().isPresent()).count(), faultFs.injectedFaults());

            List<String> problems = new ArrayList<>();
            Set<String> live = new HashSet<>();
            try {
                Optional<Snapshot> latest = new SnapshotFiles(plain, table).latestSnapshot();
                if (latest.isPresent()) {
                    for (ManifestEntry entry : new SnapshotScan(plain, table).liveFiles(latest.get(), ScanFilter.ALL)) {
                        if (!live.add(entry.file().fileName())) {
                            problems.add("file %s is live twice".formatted(entry.file().fileName()));
                        }
                    }
                }
            }
            catch (TrinoException e) {
                problems.add("the table cannot be read: " + e.getMessage());
            }
            for (Outcome outcome : outcomes) {
                List<String> names = outcome.commit().files().stream().map(entry -> entry.file().fileName()).toList();
                long landed = names.stream().filter(live::contains).count();
                if (landed != 0 && landed != names.size()) {
                    problems.add("commit of %s landed in part: %s of %s".formatted(names, landed, names.size()));
                }
                if (outcome.snapshot().isPresent() && landed == 0) {
                    problems.add("commit of %s returned snapshot %s but its files are not live".formatted(names, outcome.snapshot().get().id()));
                }
                if (outcome.failure().isPresent()) {
                    TrinoException failure = outcome.failure().get();
                    if (!COMMIT_ERRORS.contains(failure.getErrorCode())) {
                        problems.add("commit of %s failed with an unexpected error: %s".formatted(names, failure));
                    }
                    if (landed != 0 && !failure.getErrorCode().equals(PAIMON_COMMIT_STATE_UNKNOWN.toErrorCode())) {
                        problems.add("commit of %s failed (%s) but its files are live".formatted(names, failure.getMessage()));
                    }
                }
            }
            for (String file : live) {
                if (!commitsByFile.containsKey(file)) {
                    problems.add("live file %s was never committed".formatted(file));
                }
            }
            problems.addAll(Fsck.metadata(plain, table));
            assertThat(problems).as("seed %s", seed).isEmpty();
            assertThat(faultFs.openStreams()).as("streams left open, seed %s", seed).isEmpty();
            assertThat(outcomes.stream().filter(outcome -> outcome.snapshot().isPresent())).as("some commits land").isNotEmpty();
        }
    }

    /**
     * A publish that lands but reports a failure (the rename of the snapshot file throws after moving it, or says
     * the target exists), and a LATEST hint that cannot be written: the commit returns its snapshot, published once,
     * with every file it refers to in place.
     */
    @ParameterizedTest
    @ValueSource(strings = {"THROW_AFTER_WRITE", "ALREADY_EXISTS_AFTER_WRITE", "LATEST"})
    void publishThatLandsDespiteAFailureIsTheCommitsSnapshot(String fault)
            throws Exception
    {
        try (TempWarehouse warehouse = TempWarehouse.create()) {
            Location table = createTable(warehouse);
            TrinoFileSystem plain = warehouse.fileSystem();
            TableSchema schema = new SchemaFiles(plain, table).latestSchema().orElseThrow();
            FaultFs faultFs = FaultFs.local(warehouse.root(), 0);
            faultFs.addRule(fault.equals("LATEST")
                    ? Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/snapshot/LATEST", 1, Action.THROW_BEFORE)
                    : Rule.nth(Operation.RENAME, "**/snapshot/snapshot-1", 1, Action.valueOf(fault)));
            SnapshotCommitter committer = new SnapshotCommitter(faultFs.create(ConnectorIdentity.ofUser("test")), table, schema, "writer", DEFAULT.withMaxRetries(3));
            List<ManifestEntry> files = newFiles(plain, table, new Random(1), 0);

            Snapshot snapshot = committer.commit(CommitKind.APPEND, files, Optional.empty(), false);

            assertThat(faultFs.injectedFaults()).isEqualTo(1);
            assertThat(snapshot.id()).isEqualTo(1);
            SnapshotFiles snapshots = new SnapshotFiles(plain, table);
            assertThat(snapshots.listSnapshotIds()).containsExactly(1L);
            assertThat(new SnapshotScan(plain, table).liveFiles(snapshots.readSnapshot(1), ScanFilter.ALL).stream().map(entry -> entry.file().fileName()))
                    .containsExactlyInAnyOrderElementsOf(files.stream().map(entry -> entry.file().fileName()).toList());
            assertThat(Fsck.metadata(plain, table)).isEmpty();
            assertThat(faultFs.openStreams()).isEmpty();
        }
    }

    private static Location createTable(TempWarehouse warehouse)
    {
        warehouse.paimon().createDatabase(DATABASE);
        warehouse.paimon().createTable(DATABASE, "t", Schema.newBuilder()
                .column("p", DataTypes.STRING().notNull())
                .column("k", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("p")
                .primaryKey("p", "k")
                .option("bucket", String.valueOf(BUCKETS))
                .build());
        return Location.of("local:///warehouse/%s.db/t".formatted(DATABASE));
    }

    /** One or two small level-0 files of a random partition in the bucket, written (bytes only) to their folder. */
    private static List<ManifestEntry> newFiles(TrinoFileSystem fileSystem, Location table, Random random, int bucket)
            throws IOException
    {
        String partition = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
        BinaryRow partitionRow = BinaryRowWriter.toBinaryRow(List.of(STRING), List.of(partition));
        List<ManifestEntry> entries = new ArrayList<>();
        int count = 1 + random.nextInt(2);
        for (int i = 0; i < count; i++) {
            String name = "data-%s-0.parquet".formatted(UUID.randomUUID());
            byte[] content = new byte[16 + random.nextInt(48)];
            random.nextBytes(content);
            try (OutputStream output = fileSystem.newOutputFile(table.appendPath("p=%s/bucket-%s/%s".formatted(partition, bucket, name))).create()) {
                output.write(content);
            }
            long key = random.nextInt(1000);
            BinaryRow keyRow = BinaryRowWriter.toBinaryRow(List.of(BIGINT), List.of(key));
            DataFileMeta file = new DataFileMeta(name, content.length, 1, keyRow, keyRow, SimpleStats.EMPTY, SimpleStats.EMPTY,
                    0, 0, 0, 0, List.of(), OptionalLong.of(System.currentTimeMillis()), OptionalLong.of(0), Optional.empty(), OptionalInt.of(0),
                    Optional.empty(), Optional.empty(), OptionalLong.empty(), Optional.empty());
            entries.add(new ManifestEntry(FileKind.ADD, partitionRow, bucket, BUCKETS, file));
        }
        return entries;
    }
}
