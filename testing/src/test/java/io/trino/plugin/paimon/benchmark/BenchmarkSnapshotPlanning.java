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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.catalog.SnapshotCommitter;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SimpleStats;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.CommitRetry;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;

/**
 * Planning a snapshot with many live files: our manifest reader against Paimon Java's scan, single thread, on
 * the same metadata. The table's metadata is written by our committer (100 commits of 1,000 files by default);
 * the data files themselves are not needed for planning and are not written.
 * Run: {@code ./mvnw -B -DskipTests -Pbenchmark package} (options: {@code -Dbenchmark.args="<files> <iterations>"}).
 */
public final class BenchmarkSnapshotPlanning
{
    private BenchmarkSnapshotPlanning() {}

    public static void main(String[] args)
            throws Exception
    {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int filesPerCommit = 1_000;
        Path root = Files.createTempDirectory("paimon-planning");
        try {
            TrinoFileSystem fileSystem = new LocalFileSystem(root);
            Location tableLocation = Location.of("local:///db.db/t");
            TableSchema schema = new TableSchema(3, 0, List.of(
                    new DataField(0, "dt", DataTypeParser.parse("STRING NOT NULL")),
                    new DataField(1, "id", DataTypeParser.parse("BIGINT NOT NULL")),
                    new DataField(2, "v", DataTypeParser.parse("STRING"))),
                    2, List.of("dt"), List.of("dt", "id"), Map.of("bucket", "16", "write-only", "true"), Optional.empty(), System.currentTimeMillis());
            new SchemaFiles(fileSystem, tableLocation).createSchema(schema);

            long start = System.nanoTime();
            SnapshotCommitter committer = new SnapshotCommitter(fileSystem, tableLocation, schema, "benchmark", CommitRetry.DEFAULT.withMaxRetries(3));
            for (int commit = 0; commit * filesPerCommit < files; commit++) {
                List<ManifestEntry> entries = new ArrayList<>();
                for (int i = 0; i < filesPerCommit && commit * filesPerCommit + i < files; i++) {
                    entries.add(entry(commit, i));
                }
                committer.commit(Snapshot.CommitKind.APPEND, entries, Optional.empty(), false);
            }
            System.out.printf("wrote metadata of %,d files in %,d ms%n", files, (System.nanoTime() - start) / 1_000_000);

            Snapshot snapshot = new SnapshotFiles(fileSystem, tableLocation).latestSnapshot().orElseThrow();
            SnapshotScan scan = new SnapshotScan(fileSystem, tableLocation);
            FileStoreTable paimonTable = FileStoreTableFactory.create(
                    FileIO.get(new org.apache.paimon.fs.Path(root.toUri()), CatalogContext.create(new org.apache.paimon.options.Options())),
                    new org.apache.paimon.fs.Path(root.resolve("db.db/t").toUri()));

            long[] ours = new long[iterations];
            long[] paimon = new long[iterations];
            long oursAllocated = 0;
            for (int iteration = -2; iteration < iterations; iteration++) {
                long allocatedBefore = allocatedBytes();
                long time = System.nanoTime();
                int count = scan.liveFiles(snapshot, ScanFilter.ALL).size();
                long oursNanos = System.nanoTime() - time;
                long allocated = allocatedBytes() - allocatedBefore;
                time = System.nanoTime();
                int paimonCount = paimonTable.store().newScan().withSnapshot(snapshot.id()).plan().files().size();
                long paimonNanos = System.nanoTime() - time;
                if (count != files || paimonCount != files) {
                    throw new IllegalStateException("planned %s and %s files, expected %s".formatted(count, paimonCount, files));
                }
                if (iteration >= 0) {
                    ours[iteration] = oursNanos;
                    paimon[iteration] = paimonNanos;
                    oursAllocated = allocated;
                }
            }
            // planning again through a warm metadata cache: the manifests are decoded once, then only filtered
            SnapshotScan cachedScan = new SnapshotScan(fileSystem, tableLocation, new MetadataCache(2L << 30, Duration.ofMinutes(30)));
            long[] cached = new long[iterations];
            long cachedAllocated = 0;
            for (int iteration = -1; iteration < iterations; iteration++) {
                long allocatedBefore = allocatedBytes();
                long time = System.nanoTime();
                int count = cachedScan.liveFiles(snapshot, ScanFilter.ALL).size();
                long nanos = System.nanoTime() - time;
                long allocated = allocatedBytes() - allocatedBefore;
                if (count != files) {
                    throw new IllegalStateException("planned %s files through the cache, expected %s".formatted(count, files));
                }
                if (iteration >= 0) {
                    cached[iteration] = nanos;
                    cachedAllocated = allocated;
                }
            }
            Runtime runtime = Runtime.getRuntime();
            System.gc();
            long retainedBefore = runtime.totalMemory() - runtime.freeMemory();
            List<ManifestEntry> retained = scan.liveFiles(snapshot, ScanFilter.ALL);
            System.gc();
            long retainedAfter = runtime.totalMemory() - runtime.freeMemory();
            System.out.printf("planning %,d live files, single thread, %s iterations after 2 warm-ups:%n", retained.size(), iterations);
            System.out.printf("  ours:        median %,d ms (min %,d, max %,d); %,d MB allocated per plan; ~%,d MB retained by the result%n",
                    median(ours) / 1_000_000, min(ours) / 1_000_000, max(ours) / 1_000_000, oursAllocated >> 20, Math.max(0, retainedAfter - retainedBefore) >> 20);
            System.out.printf("  ours, warm metadata cache: median %,d ms (min %,d, max %,d); %,d MB allocated per plan%n",
                    median(cached) / 1_000_000, min(cached) / 1_000_000, max(cached) / 1_000_000, cachedAllocated >> 20);
            System.out.printf("  Paimon Java: median %,d ms (min %,d, max %,d)%n", median(paimon) / 1_000_000, min(paimon) / 1_000_000, max(paimon) / 1_000_000);
            System.out.printf("  ratio Paimon Java / ours: %.2f%n", (double) median(paimon) / median(ours));
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static ManifestEntry entry(int commit, int index)
    {
        BinaryRow partition = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("STRING")), List.of("2026-11-%02d".formatted(1 + commit % 28)));
        BinaryRow minKey = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("BIGINT")), List.of((long) index * 1000));
        BinaryRow maxKey = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("BIGINT")), List.of((long) index * 1000 + 999));
        SimpleStats keyStats = new SimpleStats(minKey, maxKey, Optional.of(List.of(0L)));
        DataFileMeta file = new DataFileMeta(
                "data-benchmark-%d-%d.parquet".formatted(commit, index), 1_000_000, 1000, minKey, maxKey, keyStats, SimpleStats.EMPTY,
                commit * 1000L, commit * 1000L + 999, 0, 0, List.of(), OptionalLong.of(System.currentTimeMillis()), OptionalLong.of(0),
                Optional.empty(), OptionalInt.of(0), Optional.of(List.of()), Optional.empty(), OptionalLong.empty(), Optional.empty());
        return new ManifestEntry(ManifestEntry.FileKind.ADD, partition, index % 16, 16, file);
    }

    private static long allocatedBytes()
    {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long median(long[] values)
    {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long min(long[] values)
    {
        return Arrays.stream(values).min().orElseThrow();
    }

    private static long max(long[] values)
    {
        return Arrays.stream(values).max().orElseThrow();
    }
}
