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
package io.trino.plugin.paimon.format.manifest;

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.MetadataPaths;
import io.trino.plugin.paimon.format.avro.AvroFiles;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.Identifier;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.spi.TrinoException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.manifest.ManifestEntry.POSTPONE_BUCKET;
import static java.util.Objects.requireNonNull;

/**
 * Reads the manifests of a snapshot: its live data files (paimon-format.md §4.6) and its index files.
 * The base manifest list then the delta list are read in order; an ADD is live unless a DELETE of the same file
 * (same partition, bucket, level and name) appears anywhere in them.
 */
public final class SnapshotScan
{
    public static final String MANIFEST_DIRECTORY = "manifest";
    public static final String INDEX_DIRECTORY = "index";

    private final TrinoFileSystem fileSystem;
    private final Location tableLocation;
    private final MetadataCache cache;

    public SnapshotScan(TrinoFileSystem fileSystem, Location tableLocation)
    {
        this(fileSystem, tableLocation, MetadataCache.DISABLED);
    }

    /**
     * A scan whose manifest lists, manifests and index manifests come from the cache when it holds them. With the
     * cache, manifests are decoded whole and filtered afterwards; without it, entries the filter rejects are
     * dropped while decoding.
     */
    public SnapshotScan(TrinoFileSystem fileSystem, Location tableLocation, MetadataCache cache)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.tableLocation = requireNonNull(tableLocation, "tableLocation is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    public Location manifestLocation(String fileName)
    {
        return MetadataPaths.child(tableLocation.appendPath(MANIFEST_DIRECTORY), fileName, "manifest");
    }

    public Location indexLocation(String fileName)
    {
        return MetadataPaths.child(tableLocation.appendPath(INDEX_DIRECTORY), fileName, "index file");
    }

    public List<ManifestFileMeta> readManifestList(String fileName, OptionalLong fileSize)
    {
        Location location = manifestLocation(fileName);
        return cache.immutableFile(
                location,
                () -> ImmutableList.copyOf(AvroFiles.read(fileSystem, location, fileSize, ManifestAvro::decodeManifestFileMeta)),
                metas -> metas.stream().mapToLong(SnapshotScan::estimatedBytes).sum());
    }

    /** The entries of a manifest, checked against the size and entry counts its manifest list records. */
    public List<ManifestEntry> readManifest(ManifestFileMeta manifest)
    {
        return cache.immutableFile(
                manifestLocation(manifest.fileName()),
                () -> {
                    ImmutableList.Builder<ManifestEntry> entries = ImmutableList.builder();
                    readManifest(manifest, ScanFilter.ALL, entries::add);
                    return entries.build();
                },
                entries -> entries.stream().mapToLong(SnapshotScan::estimatedBytes).sum());
    }

    /**
     * Streams the entries of a manifest whose partition and bucket the filter accepts to the consumer, decoding
     * the others no further than their bucket; the manifest is checked as {@link #readManifest(ManifestFileMeta)} does.
     */
    public void readManifest(ManifestFileMeta manifest, ScanFilter filter, Consumer<ManifestEntry> consumer)
    {
        Location location = manifestLocation(manifest.fileName());
        long entries = AvroFiles.read(fileSystem, location, OptionalLong.of(manifest.fileSize()), new ManifestEntryReader(filter), consumer);
        long expected = manifest.numAddedFiles() + manifest.numDeletedFiles();
        if (entries != expected) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon metadata file %s: it holds %s entries, its manifest list says %s".formatted(location, entries, expected));
        }
    }

    public List<IndexManifestEntry> readIndexManifest(String fileName)
    {
        Location location = manifestLocation(fileName);
        return cache.immutableFile(
                location,
                () -> ImmutableList.copyOf(AvroFiles.read(fileSystem, location, OptionalLong.empty(), ManifestAvro::decodeIndexManifestEntry)),
                entries -> entries.stream().mapToLong(entry -> 400L + entry.fileName().length() + entry.partition().bytes().length + 48L * entry.deletionVectorRanges().map(List::size).orElse(0)).sum());
    }

    /** Every manifest of the snapshot, base list first, in order. */
    public List<ManifestFileMeta> manifests(Snapshot snapshot)
    {
        return ImmutableList.<ManifestFileMeta>builder()
                .addAll(readManifestList(snapshot.baseManifestList(), snapshot.baseManifestListSize()))
                .addAll(readManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize()))
                .build();
    }

    /**
     * The data files of the snapshot that the filter accepts, as ADD entries in manifest order. Files of postpone
     * buckets are left out: a batch read does not see them until a compaction moves them into real buckets.
     */
    public List<ManifestEntry> liveFiles(Snapshot snapshot, ScanFilter filter)
    {
        List<ManifestEntry> added = new ArrayList<>();
        Set<Identifier> deleted = new HashSet<>();
        for (ManifestFileMeta manifest : manifests(snapshot)) {
            if (!filter.mayMatch(manifest)) {
                continue;
            }
            Consumer<ManifestEntry> collector = entry -> {
                if (entry.bucket() == POSTPONE_BUCKET) {
                    return;
                }
                if (entry.kind() == FileKind.ADD) {
                    added.add(entry);
                }
                else {
                    deleted.add(entry.identifier());
                }
            };
            if (cache.enabled()) {
                // cached whole, so that queries with other filters find them too
                for (ManifestEntry entry : readManifest(manifest)) {
                    if (filter.matchesPartition(entry.partition()) && filter.matchesBucket(entry.bucket(), entry.totalBuckets())) {
                        collector.accept(entry);
                    }
                }
            }
            else {
                readManifest(manifest, filter, collector);
            }
        }
        if (deleted.isEmpty()) {
            return ImmutableList.copyOf(added);
        }
        return added.stream()
                .filter(entry -> !deleted.contains(entry.identifier()))
                .collect(toImmutableList());
    }

    /** The live files grouped by (partition, bucket), in the order each bucket first appears in the manifests. */
    public List<BucketFiles> liveFilesByBucket(Snapshot snapshot, ScanFilter filter)
    {
        Map<BucketKey, List<ManifestEntry>> buckets = new LinkedHashMap<>();
        for (ManifestEntry entry : liveFiles(snapshot, filter)) {
            buckets.computeIfAbsent(new BucketKey(entry.partition(), entry.bucket()), _ -> new ArrayList<>()).add(entry);
        }
        return buckets.entrySet().stream()
                .map(bucket -> new BucketFiles(bucket.getKey().partition(), bucket.getKey().bucket(), bucket.getValue()))
                .collect(toImmutableList());
    }

    private record BucketKey(BinaryRow partition, int bucket) {}

    // the heap an entry holds, roughly: its objects plus the bytes of its rows and names
    private static long estimatedBytes(ManifestEntry entry)
    {
        DataFileMeta file = entry.file();
        return 600L + file.fileName().length()
                + file.minKey().bytes().length + file.maxKey().bytes().length
                + file.valueStats().minValues().bytes().length + file.valueStats().maxValues().bytes().length
                + 16L * file.valueStats().nullCounts().map(List::size).orElse(0);
    }

    private static long estimatedBytes(ManifestFileMeta manifest)
    {
        return 300L + manifest.fileName().length() + manifest.partitionStats().minValues().bytes().length + manifest.partitionStats().maxValues().bytes().length;
    }

    /** The index files (deletion vectors, hash indexes) of the snapshot that the filter accepts. */
    public List<IndexManifestEntry> indexFiles(Snapshot snapshot, ScanFilter filter)
    {
        if (snapshot.indexManifest().isEmpty()) {
            return ImmutableList.of();
        }
        return readIndexManifest(snapshot.indexManifest().get()).stream()
                .filter(entry -> entry.kind() == FileKind.ADD)
                // index entries do not record the bucket count, so only the partition can be checked
                .filter(entry -> filter.matchesPartition(entry.partition()))
                .collect(toImmutableList());
    }
}
