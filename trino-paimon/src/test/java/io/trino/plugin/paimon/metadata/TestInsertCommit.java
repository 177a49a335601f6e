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
package io.trino.plugin.paimon.metadata;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.read.KeyLookup;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.IntPredicate;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.TestingConnectorSession.SESSION;
import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Commits of INSERT racing with other writers: a rival commit that wrote a key the statement wrote since the snapshot
 * it read fails the statement and removes its files, leaving the table as the rival left it; a rival commit to other
 * buckets, or to other keys of the same buckets, is committed on top of.
 */
final class TestInsertCommit
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "commits";

    TestInsertCommit()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createTable(DATABASE, "raced", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        paimon.createTable(DATABASE, "raced_keys", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        paimon.createTable(DATABASE, "overwritten", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
    }

    @Test
    void overwriteFailsWhenAnotherWriterChangedTheTableMeanwhile()
            throws IOException
    {
        // another writer commits a row to one bucket; the overwrite writes only the other bucket, but replaces the
        // whole (unpartitioned) table, so the rival row would vanish unseen
        Race race = race("overwritten", 1);
        List<String> afterRival = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "overwritten"));
        ManifestEntry otherBucket = copy(race.location(), race.baseFile(bucket -> bucket != race.rivalBucket()));

        PaimonInsertTableHandle handle = new PaimonInsertTableHandle(
                new PaimonTable(new SchemaTableName(DATABASE, "overwritten"), race.location(), race.schema()),
                OptionalLong.of(race.base().id()),
                List.of(),
                Optional.empty(),
                UUID.randomUUID().toString(),
                true);
        assertThatThrownBy(() -> new InsertCommit(race.fileSystem(), new SnapshotFiles(race.fileSystem(), handle.table().location())::commit, handle, keyLookup(handle)).commit(List.of(otherBucket), List.of(), "query-3"))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(TRANSACTION_CONFLICT.toErrorCode()))
                .hasMessageContaining("conflicts with a concurrent commit: snapshot %s".formatted(race.rival().id()));
        assertThat(race.snapshots().latestSnapshotId().getAsLong()).isEqualTo(race.rival().id());
        assertThat(Files.exists(dataFile(race.location(), otherBucket))).isFalse();
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "overwritten"))).isEqualTo(afterRival);
    }

    @Test
    void rivalCommitToTheSameBucketFailsTheStatementAndToAnotherBucketDoesNot()
            throws IOException
    {
        // another writer commits a row to one bucket after this statement read snapshot 1
        Race race = race("raced", 1);
        assertThat(race.baseFiles()).extracting(ManifestEntry::bucket).containsExactlyInAnyOrder(0, 1);
        List<String> afterRival = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "raced"));

        // the statement's files: copies of the base files under new names, one per bucket
        ManifestEntry sameBucket = copy(race.location(), race.baseFile(bucket -> bucket == race.rivalBucket()));
        ManifestEntry otherBucket = copy(race.location(), race.baseFile(bucket -> bucket != race.rivalBucket()));

        assertThatThrownBy(() -> insertCommit("raced", race).commit(List.of(sameBucket, otherBucket), List.of(), "query-1"))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(TRANSACTION_CONFLICT.toErrorCode()))
                .hasMessageContaining("Write to Paimon table commits.raced conflicts with a concurrent commit: snapshot %s".formatted(race.rival().id()))
                .hasMessageContaining("wrote key [1] in bucket %s".formatted(race.rivalBucket()));
        assertThat(race.snapshots().latestSnapshotId().getAsLong()).isEqualTo(race.rival().id());
        assertThat(Files.exists(dataFile(race.location(), sameBucket))).isFalse();
        assertThat(Files.exists(dataFile(race.location(), otherBucket))).isFalse();
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "raced"))).isEqualTo(afterRival);

        // a statement writing only the other bucket lands on top of the rival commit
        ManifestEntry otherBucketAgain = copy(race.location(), race.baseFile(bucket -> bucket != race.rivalBucket()));
        InsertCommit commit = insertCommit("raced", race);
        commit.commit(List.of(otherBucketAgain), List.of(), "query-2");
        Snapshot committed = race.snapshots().latestSnapshot().orElseThrow();
        assertThat(committed.id()).isEqualTo(race.rival().id() + 1);
        assertThat(committed.properties().orElseThrow()).containsEntry(Snapshot.TRINO_QUERY_ID_PROPERTY, "query-2");
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "raced"))).isEqualTo(afterRival);
    }

    /**
     * A rival commit that added a key to a bucket the statement also wrote, where the statement's file holds other
     * keys: the statement lands on top of it, and Paimon Java reads both writes.
     */
    @Test
    void rivalCommitOfOtherKeysToTheSameBucketLandsBoth()
            throws IOException
    {
        // the rival adds key 21, which no file of the statement holds
        Race race = race("raced_keys", 21);
        // the statement's file: keys 1..20 of that bucket again
        ManifestEntry sameBucket = copy(race.location(), race.baseFile(bucket -> bucket == race.rivalBucket()));

        insertCommit("raced_keys", race).commit(List.of(sameBucket), List.of(), "query-4");
        assertThat(race.snapshots().latestSnapshotId().getAsLong()).isEqualTo(race.rival().id() + 1);
        assertThat(Files.exists(dataFile(race.location(), sameBucket))).isTrue();
        List<String> expected = java.util.stream.IntStream.rangeClosed(1, 21).mapToObj(key -> "+I(%s, %s)".formatted(key, key == 21 ? "rival" : "trino")).sorted().toList();
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "raced_keys")).stream().sorted().toList()).isEqualTo(expected);
        assertThat(RowText.paimonText(computeActual("SELECT * FROM raced_keys"))).hasSize(21);
    }

    /**
     * Keys 1..20 written by Trino (the snapshot a statement reads: {@code base}), then one row of {@code rivalKey}
     * committed by Paimon Java (the rival).
     */
    private Race race(String table, int rivalKey)
    {
        assertUpdate("INSERT INTO %s SELECT CAST(x AS integer), 'trino' FROM UNNEST(sequence(1, 20)) t(x)".formatted(table), 20);
        TrinoFileSystem fileSystem = new LocalFileSystem(root());
        Location location = Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table));
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, location);
        SnapshotScan scan = new SnapshotScan(fileSystem, location);
        Snapshot base = snapshots.latestSnapshot().orElseThrow();
        List<ManifestEntry> baseFiles = scan.liveFiles(base, ScanFilter.ALL);
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, table), List.of(GenericRow.of(rivalKey, BinaryString.fromString("rival"))));
        Snapshot rival = snapshots.latestSnapshot().orElseThrow();
        TableSchema schema = new SchemaFiles(fileSystem, location).readSchema(base.schemaId());
        return new Race(fileSystem, location, snapshots, base, baseFiles, rival, deltaEntries(scan, rival).getFirst().bucket(), schema);
    }

    private record Race(
            TrinoFileSystem fileSystem,
            Location location,
            SnapshotFiles snapshots,
            Snapshot base,
            List<ManifestEntry> baseFiles,
            Snapshot rival,
            int rivalBucket,
            TableSchema schema)
    {
        ManifestEntry baseFile(IntPredicate bucket)
        {
            return baseFiles.stream().filter(entry -> bucket.test(entry.bucket())).findFirst().orElseThrow();
        }
    }

    // the commit of a statement into the table that read the race's base snapshot
    private InsertCommit insertCommit(String table, Race race)
    {
        PaimonInsertTableHandle handle = new PaimonInsertTableHandle(
                new PaimonTable(new SchemaTableName(DATABASE, table), race.location(), race.schema()),
                OptionalLong.of(race.base().id()),
                List.of(),
                Optional.empty(),
                UUID.randomUUID().toString(),
                false);
        return new InsertCommit(race.fileSystem(), new SnapshotFiles(race.fileSystem(), handle.table().location())::commit, handle, keyLookup(handle));
    }

    private KeyLookup keyLookup(PaimonInsertTableHandle handle)
    {
        return new PaimonPageSourceProvider(TableFileSystemFactory.sharedBy(new LocalFileSystemFactory(root())), TESTING_TYPE_MANAGER).createKeyLookup(SESSION, handle.table());
    }

    private static List<ManifestEntry> deltaEntries(SnapshotScan scan, Snapshot snapshot)
    {
        return scan.readManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize()).stream()
                .flatMap(manifest -> scan.readManifest(manifest).stream())
                .toList();
    }

    private ManifestEntry copy(Location location, ManifestEntry entry)
            throws IOException
    {
        String name = "data-" + UUID.randomUUID() + "-0.parquet";
        Path bucketDirectory = root().resolve("warehouse").resolve(DATABASE + ".db").resolve(location.fileName()).resolve("bucket-" + entry.bucket());
        Files.copy(bucketDirectory.resolve(entry.file().fileName()), bucketDirectory.resolve(name));
        DataFileMeta file = entry.file();
        DataFileMeta renamed = new DataFileMeta(name, file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(),
                file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTimeMillis(), file.deleteRowCount(),
                file.embeddedIndex(), file.fileSource(), file.valueStatsColumns(), file.externalPath(), file.firstRowId(), file.writeColumns());
        return new ManifestEntry(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), renamed);
    }

    private Path dataFile(Location location, ManifestEntry entry)
    {
        return root().resolve("warehouse").resolve(DATABASE + ".db").resolve(location.fileName()).resolve("bucket-" + entry.bucket()).resolve(entry.file().fileName());
    }
}
