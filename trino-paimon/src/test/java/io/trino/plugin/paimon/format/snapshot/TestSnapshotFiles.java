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
package io.trino.plugin.paimon.format.snapshot;

import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchemaJson;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.TrinoException;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.utils.SnapshotManager;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Snapshots and schemas Paimon Java 1.4.2 wrote, read with our codecs and compared with Paimon's own view.
 */
@TestInstance(PER_CLASS)
final class TestSnapshotFiles
{
    @AutoClose
    private final TempWarehouse tables = PaimonTestTables.inTempWarehouse();

    @Test
    void everySnapshotEqualsPaimonsView()
    {
        for (String tableName : PaimonTestTables.ALL) {
            SnapshotManager paimonSnapshots = ((FileStoreTable) tables.paimon().getTable(DATABASE, tableName)).snapshotManager();
            SnapshotFiles snapshots = snapshots(tableName);
            List<Long> ids = snapshots.listSnapshotIds();
            assertThat(ids).as(tableName).isNotEmpty();
            assertThat(snapshots.latestSnapshotId()).isEqualTo(OptionalLong.of(paimonSnapshots.latestSnapshotId()));
            assertThat(snapshots.earliestSnapshotId()).isEqualTo(OptionalLong.of(paimonSnapshots.earliestSnapshotId()));
            for (long id : ids) {
                Snapshot ours = snapshots.readSnapshot(id);
                org.apache.paimon.Snapshot theirs = paimonSnapshots.snapshot(id);
                assertThat(ours.id()).isEqualTo(theirs.id());
                assertThat(ours.version()).isEqualTo(theirs.version());
                assertThat(ours.schemaId()).isEqualTo(theirs.schemaId());
                assertThat(ours.baseManifestList()).isEqualTo(theirs.baseManifestList());
                assertThat(ours.baseManifestListSize()).isEqualTo(optional(theirs.baseManifestListSize()));
                assertThat(ours.deltaManifestList()).isEqualTo(theirs.deltaManifestList());
                assertThat(ours.deltaManifestListSize()).isEqualTo(optional(theirs.deltaManifestListSize()));
                assertThat(ours.changelogManifestList()).isEqualTo(Optional.ofNullable(theirs.changelogManifestList()));
                assertThat(ours.indexManifest()).isEqualTo(Optional.ofNullable(theirs.indexManifest()));
                assertThat(ours.commitUser()).isEqualTo(theirs.commitUser());
                assertThat(ours.commitIdentifier()).isEqualTo(theirs.commitIdentifier());
                assertThat(ours.commitKind().name()).isEqualTo(theirs.commitKind().name());
                assertThat(ours.timeMillis()).isEqualTo(theirs.timeMillis());
                assertThat(ours.totalRecordCount()).isEqualTo(optional(theirs.totalRecordCount()));
                assertThat(ours.deltaRecordCount()).isEqualTo(optional(theirs.deltaRecordCount()));
                assertThat(ours.nextRowId()).isEqualTo(optional(theirs.nextRowId()));
            }
        }
        // the deletion-vector table keeps its vectors in an index manifest
        assertThat(snapshots(PaimonTestTables.DELETION_VECTORS).latestSnapshot().orElseThrow().indexManifest()).isPresent();
    }

    @Test
    void writtenJsonIsByteForBytePaimons()
            throws Exception
    {
        for (String tableName : PaimonTestTables.ALL) {
            Path tableFolder = tables.warehouse().resolve(DATABASE + ".db").resolve(tableName);
            for (long id : snapshots(tableName).listSnapshotIds()) {
                byte[] file = Files.readAllBytes(tableFolder.resolve("snapshot/snapshot-" + id));
                assertThat(new String(SnapshotJson.toJson(SnapshotJson.parse(file)), UTF_8)).isEqualTo(new String(file, UTF_8));
            }
            SchemaFiles schemas = new SchemaFiles(tables.fileSystem(), tableLocation(tableName));
            for (long id : schemas.listSchemaIds()) {
                byte[] file = Files.readAllBytes(tableFolder.resolve("schema/schema-" + id));
                assertThat(new String(TableSchemaJson.toJson(TableSchemaJson.parse(file)), UTF_8)).isEqualTo(new String(file, UTF_8));
            }
        }
        assertThat(new SchemaFiles(tables.fileSystem(), tableLocation(PaimonTestTables.EVOLVED)).listSchemaIds()).containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void findsSnapshotsByTimeAsPaimonDoes()
    {
        SnapshotManager paimonSnapshots = ((FileStoreTable) tables.paimon().getTable(DATABASE, PaimonTestTables.MULTI_COMMIT)).snapshotManager();
        SnapshotFiles snapshots = snapshots(PaimonTestTables.MULTI_COMMIT);
        List<Long> ids = snapshots.listSnapshotIds();
        long first = snapshots.readSnapshot(ids.getFirst()).timeMillis();
        long last = snapshots.readSnapshot(ids.getLast()).timeMillis();
        for (long time = first - 2; time <= last + 2; time++) {
            org.apache.paimon.Snapshot theirs = paimonSnapshots.earlierOrEqualTimeMills(time);
            assertThat(snapshots.snapshotAtOrBefore(time).map(Snapshot::id))
                    .as("time %s", time)
                    .isEqualTo(Optional.ofNullable(theirs).map(org.apache.paimon.Snapshot::id));
        }
    }

    @Test
    void toleratesStaleAndMissingHints()
            throws Exception
    {
        try (TempWarehouse scratch = TempWarehouse.create()) {
            Path copy = scratch.root();
            Path source = tables.warehouse().resolve(DATABASE + ".db").resolve(PaimonTestTables.MULTI_COMMIT).resolve("snapshot");
            Path snapshotFolder = Files.createDirectories(copy.resolve("t/snapshot"));
            try (var files = Files.list(source)) {
                for (Path file : files.toList()) {
                    Files.copy(file, snapshotFolder.resolve(file.getFileName()));
                }
            }
            SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(copy), Location.of("local:///t"));
            long latest = snapshots.listSnapshotIds().getLast();

            Files.writeString(snapshotFolder.resolve("LATEST"), "1");
            assertThat(snapshots.latestSnapshotId()).isEqualTo(OptionalLong.of(latest));
            Files.writeString(snapshotFolder.resolve("LATEST"), "not a number");
            assertThat(snapshots.latestSnapshotId()).isEqualTo(OptionalLong.of(latest));
            Files.delete(snapshotFolder.resolve("LATEST"));
            assertThat(snapshots.latestSnapshotId()).isEqualTo(OptionalLong.of(latest));

            // expire snapshot 1 by hand, leaving a stale EARLIEST
            Files.delete(snapshotFolder.resolve("snapshot-1"));
            Files.writeString(snapshotFolder.resolve("EARLIEST"), "1");
            assertThat(snapshots.earliestSnapshotId()).isEqualTo(OptionalLong.of(2));
            Files.deleteIfExists(snapshotFolder.resolve("EARLIEST"));
            assertThat(snapshots.earliestSnapshotId()).isEqualTo(OptionalLong.of(2));
        }
    }

    @Test
    void commitRefusesAnExistingSnapshotId()
            throws Exception
    {
        try (TempWarehouse scratch = TempWarehouse.create()) {
            Path copy = scratch.root();
            SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(copy), Location.of("local:///t"));
            Snapshot original = snapshots(PaimonTestTables.MULTI_COMMIT).readSnapshot(1);
            assertThat(snapshots.commit(original)).isTrue();
            // a rival's snapshot 1 is refused; publishing the same snapshot again finds it published (read back)
            Snapshot rival = SnapshotJson.parse(new String(SnapshotJson.toJson(original), UTF_8).replace(original.commitUser(), "rival-writer").getBytes(UTF_8));
            assertThat(snapshots.commit(rival)).isFalse();
            assertThat(snapshots.commit(original)).isTrue();
            assertThat(snapshots.latestSnapshotId()).isEqualTo(OptionalLong.of(1));
            assertThat(Files.readString(copy.resolve("t/snapshot/LATEST"))).isEqualTo("1");
            try (var files = Files.list(copy.resolve("t/snapshot"))) {
                assertThat(files.map(file -> file.getFileName().toString()).toList()).containsExactlyInAnyOrder("snapshot-1", "LATEST");
            }
        }
    }

    @Test
    void corruptOrTruncatedSnapshotNamesTheFile()
            throws Exception
    {
        try (TempWarehouse scratch = TempWarehouse.create()) {
            Path copy = scratch.root();
            Path folder = Files.createDirectories(copy.resolve("t/snapshot"));
            byte[] valid = Files.readAllBytes(tables.warehouse().resolve(DATABASE + ".db").resolve(PaimonTestTables.MULTI_COMMIT).resolve("snapshot/snapshot-1"));
            Files.write(folder.resolve("snapshot-1"), java.util.Arrays.copyOf(valid, valid.length / 2));
            Files.writeString(folder.resolve("snapshot-2"), "{\"version\": 3, \"id\": 2}");
            SnapshotFiles snapshots = new SnapshotFiles(new LocalFileSystem(copy), Location.of("local:///t"));
            assertThatThrownBy(() -> snapshots.readSnapshot(1))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_METADATA.toErrorCode()))
                    .hasMessageStartingWith("Invalid Paimon snapshot file local:///t/snapshot/snapshot-1: not valid JSON");
            assertThatThrownBy(() -> snapshots.readSnapshot(2))
                    .hasMessage("Invalid Paimon snapshot file local:///t/snapshot/snapshot-2: missing integer 'schemaId'");
            assertThatThrownBy(() -> snapshots.readSnapshot(3))
                    .hasMessage("Paimon metadata file is missing: local:///t/snapshot/snapshot-3 (its snapshot may have expired while the query ran)");
        }
    }

    private SnapshotFiles snapshots(String tableName)
    {
        return new SnapshotFiles(tables.fileSystem(), tableLocation(tableName));
    }

    private static Location tableLocation(String tableName)
    {
        return Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, tableName));
    }

    private static OptionalLong optional(Long value)
    {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
