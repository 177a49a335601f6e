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

import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.avro.AvroFiles;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.TrinoException;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The live file set of every snapshot of tables Paimon Java 1.4.2 wrote equals Paimon's own scan plan.
 */
@TestInstance(PER_CLASS)
final class TestSnapshotScan
{
    private static final HexFormat HEX = HexFormat.of();

    @AutoClose
    private final TempWarehouse tables = PaimonTestTables.inTempWarehouse();

    @Test
    void liveFilesOfEverySnapshotEqualPaimonsPlan()
    {
        int comparedFiles = 0;
        for (String tableName : PaimonTestTables.ALL) {
            FileStoreTable table = (FileStoreTable) tables.paimon().getTable(DATABASE, tableName);
            SnapshotFiles snapshots = new SnapshotFiles(tables.fileSystem(), tableLocation(tableName));
            SnapshotScan scan = new SnapshotScan(tables.fileSystem(), tableLocation(tableName));
            for (long id : snapshots.listSnapshotIds()) {
                List<String> expected = table.store().newScan().withSnapshot(id).plan().files().stream()
                        .map(TestSnapshotScan::describe)
                        .sorted()
                        .toList();
                List<String> actual = scan.liveFiles(snapshots.readSnapshot(id), ScanFilter.ALL).stream()
                        .map(TestSnapshotScan::describe)
                        .sorted()
                        .toList();
                assertThat(actual).as("%s snapshot %s", tableName, id).isEqualTo(expected);
                comparedFiles += actual.size();
            }
        }
        assertThat(comparedFiles).isGreaterThan(100);
    }

    @Test
    void bucketsHoldTheFilesOfPaimonsSplits()
    {
        for (String tableName : List.of(PaimonTestTables.MULTI_COMMIT, PaimonTestTables.COMPACTED, PaimonTestTables.EVOLVED)) {
            FileStoreTable table = (FileStoreTable) tables.paimon().getTable(DATABASE, tableName);
            Map<String, List<String>> expected = new HashMap<>();
            for (Split split : table.newReadBuilder().newScan().plan().splits()) {
                DataSplit dataSplit = (DataSplit) split;
                String bucket = HEX.formatHex(dataSplit.partition().toBytes()) + "/" + dataSplit.bucket();
                dataSplit.dataFiles().forEach(file -> expected.computeIfAbsent(bucket, _ -> new ArrayList<>()).add(file.fileName()));
            }
            expected.values().forEach(files -> files.sort(null));
            Snapshot snapshot = new SnapshotFiles(tables.fileSystem(), tableLocation(tableName)).latestSnapshot().orElseThrow();
            Map<String, List<String>> actual = new HashMap<>();
            for (BucketFiles bucket : new SnapshotScan(tables.fileSystem(), tableLocation(tableName)).liveFilesByBucket(snapshot, ScanFilter.ALL)) {
                String key = HEX.formatHex(bucket.partition().bytes()) + "/" + bucket.bucket();
                assertThat(actual).doesNotContainKey(key);
                actual.put(key, bucket.files().stream().map(entry -> entry.file().fileName()).sorted().toList());
            }
            assertThat(actual).as(tableName).isEqualTo(expected);
        }
    }

    @Test
    void tablesHaveTheShapesTheTestsNeed()
    {
        List<ManifestEntry> compacted = latestLiveFiles(PaimonTestTables.COMPACTED);
        assertThat(compacted).extracting(entry -> entry.file().level()).contains(0, 5);
        List<ManifestEntry> multiCommit = latestLiveFiles(PaimonTestTables.MULTI_COMMIT);
        assertThat(multiCommit).allSatisfy(entry -> assertThat(entry.file().level()).isZero());
        assertThat(multiCommit.size()).isGreaterThan(12);
        assertThat(latestLiveFiles(PaimonTestTables.EVOLVED)).extracting(entry -> entry.file().schemaId()).contains(0L, 1L);
        assertThat(latestLiveFiles(PaimonTestTables.APPEND)).allSatisfy(entry -> assertThat(entry.totalBuckets()).isEqualTo(-1));
    }

    @Test
    void deletionVectorsEqualPaimonsDeletionFiles()
            throws Exception
    {
        FileStoreTable table = (FileStoreTable) tables.paimon().getTable(DATABASE, PaimonTestTables.DELETION_VECTORS);
        Map<String, String> expected = new HashMap<>();
        for (Split split : table.newReadBuilder().newScan().plan().splits()) {
            DataSplit dataSplit = (DataSplit) split;
            List<DeletionFile> deletionFiles = dataSplit.deletionFiles().orElse(List.of());
            for (int i = 0; i < deletionFiles.size(); i++) {
                DeletionFile file = deletionFiles.get(i);
                if (file != null) {
                    expected.put(dataSplit.dataFiles().get(i).fileName(), "%s@%s+%s#%s".formatted(new org.apache.paimon.fs.Path(file.path()).getName(), file.offset(), file.length(), file.cardinality()));
                }
            }
        }
        SnapshotScan scan = new SnapshotScan(tables.fileSystem(), tableLocation(PaimonTestTables.DELETION_VECTORS));
        Snapshot snapshot = new SnapshotFiles(tables.fileSystem(), tableLocation(PaimonTestTables.DELETION_VECTORS)).latestSnapshot().orElseThrow();
        Map<String, String> actual = new HashMap<>();
        for (IndexManifestEntry entry : scan.indexFiles(snapshot, ScanFilter.ALL)) {
            assertThat(entry.indexType()).isEqualTo(IndexManifestEntry.DELETION_VECTORS_INDEX);
            for (IndexManifestEntry.DeletionVectorRange range : entry.deletionVectorRanges().orElseThrow()) {
                actual.put(range.dataFileName(), "%s@%s+%s#%s".formatted(entry.fileName(), range.offset(), range.length(), range.cardinality().isPresent() ? range.cardinality().getAsLong() : null));
                assertThat(Files.exists(tables.root().resolve(scan.indexLocation(entry.fileName()).path()))).isTrue();
            }
        }
        assertThat(expected).isNotEmpty();
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void filtersSkipManifestsAndEntries()
    {
        String day = "2026-11-02";
        int bucket = 1;
        BinaryRow wantedPartition = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("STRING")), List.of(day));
        List<String> readManifests = new ArrayList<>();
        ScanFilter filter = new ScanFilter()
        {
            @Override
            public boolean mayMatch(ManifestFileMeta manifest)
            {
                readManifests.add(manifest.fileName());
                String min = (String) manifest.partitionStats().minValues().get(0, DataTypeParser.parse("STRING"));
                String max = (String) manifest.partitionStats().maxValues().get(0, DataTypeParser.parse("STRING"));
                return min.compareTo(day) <= 0 && max.compareTo(day) >= 0
                        && (manifest.minBucket().isEmpty() || manifest.minBucket().getAsInt() <= bucket)
                        && (manifest.maxBucket().isEmpty() || manifest.maxBucket().getAsInt() >= bucket);
            }

            @Override
            public boolean matchesPartition(BinaryRow partition)
            {
                return partition.equals(wantedPartition);
            }

            @Override
            public boolean matchesBucket(int entryBucket, int totalBuckets)
            {
                return entryBucket == bucket;
            }
        };
        for (String tableName : List.of(PaimonTestTables.MULTI_COMMIT, PaimonTestTables.COMPACTED)) {
            SnapshotScan scan = new SnapshotScan(tables.fileSystem(), tableLocation(tableName));
            Snapshot snapshot = new SnapshotFiles(tables.fileSystem(), tableLocation(tableName)).latestSnapshot().orElseThrow();
            List<String> expected = scan.liveFiles(snapshot, ScanFilter.ALL).stream()
                    .filter(entry -> entry.partition().equals(wantedPartition) && entry.bucket() == bucket)
                    .map(TestSnapshotScan::describe)
                    .sorted()
                    .toList();
            assertThat(expected).isNotEmpty();
            assertThat(scan.liveFiles(snapshot, filter).stream().map(TestSnapshotScan::describe).sorted().toList()).isEqualTo(expected);
        }
        assertThat(readManifests).isNotEmpty();
    }

    @Test
    void corruptOrTruncatedManifestNamesTheFile()
            throws Exception
    {
        SnapshotScan scan = new SnapshotScan(tables.fileSystem(), tableLocation(PaimonTestTables.MULTI_COMMIT));
        Snapshot snapshot = new SnapshotFiles(tables.fileSystem(), tableLocation(PaimonTestTables.MULTI_COMMIT)).latestSnapshot().orElseThrow();
        ManifestFileMeta manifestMeta = scan.readManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize()).getFirst();
        String manifestName = manifestMeta.fileName();
        Path manifest = tables.root().resolve(scan.manifestLocation(manifestName).path());
        Path listFile = tables.root().resolve(scan.manifestLocation(snapshot.deltaManifestList()).path());
        byte[] original = Files.readAllBytes(manifest);
        byte[] originalList = Files.readAllBytes(listFile);
        try {
            Files.write(manifest, Arrays.copyOf(original, original.length - 20));
            assertThatThrownBy(() -> scan.readManifest(manifestMeta))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_METADATA.toErrorCode()))
                    .hasMessage("Invalid Paimon metadata file %s: file has %s bytes, its metadata says %s".formatted(scan.manifestLocation(manifestName), original.length - 20, original.length));
            // without a recorded size, the missing sync marker at the end gives the truncation away
            assertThatThrownBy(() -> AvroFiles.read(tables.fileSystem(), scan.manifestLocation(manifestName), java.util.OptionalLong.empty(), ManifestAvro::decodeManifestFileMeta))
                    .hasMessage("Invalid Paimon metadata file %s: file is truncated (it does not end with its Avro sync marker)".formatted(scan.manifestLocation(manifestName)));
            byte[] corrupt = original.clone();
            for (int i = corrupt.length / 2; i < corrupt.length; i++) {
                corrupt[i] = (byte) ~corrupt[i];
            }
            Files.write(manifest, corrupt);
            assertThatThrownBy(() -> scan.liveFiles(snapshot, ScanFilter.ALL))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_METADATA.toErrorCode()))
                    .hasMessageContaining(manifestName);
            Files.delete(listFile);
            assertThatThrownBy(() -> scan.liveFiles(snapshot, ScanFilter.ALL))
                    .hasMessage("Paimon metadata file is missing: " + scan.manifestLocation(snapshot.deltaManifestList()) + " (its snapshot may have expired while the query ran)");
        }
        finally {
            Files.write(manifest, original);
            Files.write(listFile, originalList);
        }
    }

    private List<ManifestEntry> latestLiveFiles(String tableName)
    {
        Snapshot snapshot = new SnapshotFiles(tables.fileSystem(), tableLocation(tableName)).latestSnapshot().orElseThrow();
        return new SnapshotScan(tables.fileSystem(), tableLocation(tableName)).liveFiles(snapshot, ScanFilter.ALL);
    }

    private static Location tableLocation(String tableName)
    {
        return Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, tableName));
    }

    private static String describe(ManifestEntry entry)
    {
        DataFileMeta file = entry.file();
        return String.join("|",
                entry.kind().name(),
                HEX.formatHex(entry.partition().bytes()),
                String.valueOf(entry.bucket()),
                String.valueOf(entry.totalBuckets()),
                file.fileName(),
                String.valueOf(file.fileSize()),
                String.valueOf(file.rowCount()),
                HEX.formatHex(file.minKey().bytes()),
                HEX.formatHex(file.maxKey().bytes()),
                describe(file.keyStats()),
                describe(file.valueStats()),
                String.valueOf(file.minSequenceNumber()),
                String.valueOf(file.maxSequenceNumber()),
                String.valueOf(file.schemaId()),
                String.valueOf(file.level()),
                String.valueOf(file.extraFiles()),
                String.valueOf(file.deleteRowCount().isPresent() ? file.deleteRowCount().getAsLong() : null),
                String.valueOf(file.fileSource().isPresent() ? file.fileSource().getAsInt() : null),
                String.valueOf(file.valueStatsColumns().orElse(null)),
                String.valueOf(file.externalPath().orElse(null)),
                String.valueOf(file.creationTimeMillis().isPresent() ? file.creationTimeMillis().getAsLong() : null));
    }

    private static String describe(SimpleStats stats)
    {
        return HEX.formatHex(stats.minValues().bytes()) + "/" + HEX.formatHex(stats.maxValues().bytes()) + "/" + stats.nullCounts().orElse(null);
    }

    private static String describe(org.apache.paimon.manifest.ManifestEntry entry)
    {
        org.apache.paimon.io.DataFileMeta file = entry.file();
        return String.join("|",
                entry.kind().name(),
                HEX.formatHex(entry.partition().toBytes()),
                String.valueOf(entry.bucket()),
                String.valueOf(entry.totalBuckets()),
                file.fileName(),
                String.valueOf(file.fileSize()),
                String.valueOf(file.rowCount()),
                HEX.formatHex(file.minKey().toBytes()),
                HEX.formatHex(file.maxKey().toBytes()),
                describe(file.keyStats()),
                describe(file.valueStats()),
                String.valueOf(file.minSequenceNumber()),
                String.valueOf(file.maxSequenceNumber()),
                String.valueOf(file.schemaId()),
                String.valueOf(file.level()),
                String.valueOf(file.extraFiles()),
                String.valueOf(file.deleteRowCount().orElse(null)),
                String.valueOf(file.fileSource().map(source -> (int) source.toByteValue()).orElse(null)),
                String.valueOf(file.valueStatsCols()),
                String.valueOf(file.externalPath().orElse(null)),
                String.valueOf(file.creationTime() == null ? null : file.creationTime().getMillisecond()));
    }

    private static String describe(org.apache.paimon.stats.SimpleStats stats)
    {
        InternalArray nullCounts = stats.nullCounts();
        List<Long> counts = null;
        if (nullCounts != null) {
            counts = new ArrayList<>();
            for (int i = 0; i < nullCounts.size(); i++) {
                counts.add(nullCounts.isNullAt(i) ? null : nullCounts.getLong(i));
            }
        }
        return HEX.formatHex(stats.minValues().toBytes()) + "/" + HEX.formatHex(stats.maxValues().toBytes()) + "/" + Objects.toString(counts);
    }
}
