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

import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files of the size the table asks for, and the changelog Paimon's writer writes: a sorted run rolls over to its next
 * file at {@code target-file-size} (checked every 1000 records, as Paimon's rolling writer does), each file described
 * exactly and the files of one run holding disjoint, ascending key ranges; append tables roll too; with
 * {@code changelog-producer} = {@code input} an INSERT also writes its input as changelog files, which Paimon Java's
 * streaming read returns exactly as it returns the changelog Paimon Java writes for the same rows. The first commit
 * leaves the snapshot hints Paimon Java leaves.
 */
final class TestInsertFileRolling
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "rolling";
    // 20,000 rows of about 70 bytes that compress poorly: some 1.4 MB, so about twenty files of 64 kB
    private static final String ROWS = """
            SELECT CAST(id AS integer), to_hex(md5(to_utf8(CAST(id AS varchar)))) || to_hex(sha1(to_utf8(CAST(id AS varchar))))
            FROM (SELECT x * 100 + y AS id FROM UNNEST(sequence(0, 199)) a(x) CROSS JOIN UNNEST(sequence(0, 99)) b(y))
            """;

    TestInsertFileRolling()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        paimon.createTable(DATABASE, "keyed", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("target-file-size", "64kB")
                .build());
        paimon.createTable(DATABASE, "appended", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .option("target-file-size", "64kB")
                .build());
        for (String table : List.of("changelog_trino", "changelog_paimon")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("changelog-producer", "input")
                    .build());
        }
        paimon.createTable(DATABASE, "rolled_changelog", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("changelog-producer", "input")
                .option("target-file-size", "64kB")
                .build());
        for (String table : List.of("hints_trino", "hints_paimon")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .build());
        }
    }

    @Test
    void sortedRunRollsAtTargetFileSize()
    {
        // the files of the flushed run as written: each level-0 file counts as a sorted run, so compaction on write
        // would rewrite these twenty at once
        Session uncompacted = withoutCompactionOnWrite();
        assertUpdate(uncompacted, "INSERT INTO keyed " + ROWS, 20_000);
        List<DataFileMeta> files = liveFiles("keyed").stream()
                .sorted(Comparator.comparingInt(file -> file.minKey().getInt(0)))
                .toList();
        assertThat(files).hasSizeGreaterThan(5);
        // one sorted run over the keys 0..19999: consecutive files continue the keys where the previous one stopped
        int nextKey = 0;
        long rows = 0;
        for (int i = 0; i < files.size(); i++) {
            DataFileMeta file = files.get(i);
            assertThat(file.level()).isZero();
            assertThat(file.minKey().getInt(0)).isEqualTo(nextKey);
            assertThat(file.rowCount()).isEqualTo(file.maxKey().getInt(0) - file.minKey().getInt(0) + 1);
            // the size is checked every 1000 records, and 1000 of these rows are more than 64 kB
            if (i < files.size() - 1) {
                assertThat(file.rowCount()).isEqualTo(1000);
            }
            assertThat(file.keyStats().minValues().getInt(0)).isEqualTo(file.minKey().getInt(0));
            assertThat(file.keyStats().maxValues().getInt(0)).isEqualTo(file.maxKey().getInt(0));
            // each key was written once and took one of the statement's sequence numbers 0..19999
            assertThat(file.minSequenceNumber()).isBetween(0L, 19_999L);
            assertThat(file.maxSequenceNumber()).isBetween(file.minSequenceNumber() + file.rowCount() - 1, 19_999L);
            nextKey = file.maxKey().getInt(0) + 1;
            rows += file.rowCount();
        }
        assertThat(nextKey).isEqualTo(20_000);
        assertThat(rows).isEqualTo(20_000);
        assertThat(fsck("keyed")).isEmpty();
        assertThat(paimonRows("keyed")).hasSize(20_000).contains("+I(0, CFCD208495D565EF66E7DFF9F98764DAB6589FC6AB0DC82CF12099D1C2D40AB994E8410C)");
        assertQuery("SELECT count(*), count(DISTINCT v), min(id), max(id) FROM keyed", "VALUES (20000, 20000, 0, 19999)");
    }

    @Test
    void appendTableRollsAtTargetFileSize()
    {
        assertUpdate("INSERT INTO appended " + ROWS, 20_000);
        List<DataFileMeta> files = liveFiles("appended");
        assertThat(files).hasSizeGreaterThan(5);
        assertThat(files.stream().mapToLong(DataFileMeta::rowCount).sum()).isEqualTo(20_000);
        // each row takes its writer's next sequence number (writers of a bucket-unaware table count on their own, as
        // Paimon's do): a file holds consecutive numbers
        for (DataFileMeta file : files) {
            assertThat(file.minSequenceNumber()).isNotNegative();
            assertThat(file.maxSequenceNumber() - file.minSequenceNumber() + 1).isEqualTo(file.rowCount());
        }
        assertThat(fsck("appended")).isEmpty();
        assertThat(paimonRows("appended")).hasSize(20_000);
        assertQuery("SELECT count(*), count(DISTINCT v), min(id), max(id) FROM appended", "VALUES (20000, 20000, 0, 19999)");
    }

    @Test
    void inputChangelogReadsAsPaimonJavasChangelog()
    {
        // the first statement writes key 1 twice: the data keeps the last version, the changelog both
        assertUpdate("INSERT INTO changelog_trino VALUES (1, 'a'), (2, 'b'), (1, 'c'), (3, 'd')", 4);
        assertUpdate("INSERT INTO changelog_trino VALUES (2, 'b2'), (4, 'e')", 2);
        Table paimonTable = paimon().getTable(DATABASE, "changelog_paimon");
        PaimonJavaCatalog.write(paimonTable, List.of(row(1, "a"), row(2, "b"), row(1, "c"), row(3, "d")));
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "changelog_paimon"), List.of(row(2, "b2"), row(4, "e")));

        List<String> expected = List.of("+I(1, a)", "+I(1, c)", "+I(2, b)", "+I(2, b2)", "+I(3, d)", "+I(4, e)");
        assertThat(sorted(PaimonJavaCatalog.readChangelog(paimon().getTable(DATABASE, "changelog_paimon")))).isEqualTo(expected);
        assertThat(sorted(PaimonJavaCatalog.readChangelog(paimon().getTable(DATABASE, "changelog_trino")))).isEqualTo(expected);
        // per snapshot, in the order Paimon Java's reader returns each bucket's changelog
        assertThat(PaimonJavaCatalog.readChangelog(paimon().getTable(DATABASE, "changelog_trino")))
                .isEqualTo(PaimonJavaCatalog.readChangelog(paimon().getTable(DATABASE, "changelog_paimon")));

        FileStoreTable ours = (FileStoreTable) paimon().getTable(DATABASE, "changelog_trino");
        FileStoreTable theirs = (FileStoreTable) paimon().getTable(DATABASE, "changelog_paimon");
        for (long id = 1; id <= 2; id++) {
            Snapshot our = ours.snapshotManager().snapshot(id);
            Snapshot their = theirs.snapshotManager().snapshot(id);
            assertThat(our.changelogManifestList()).as("snapshot %s", id).isNotNull();
            assertThat(our.changelogRecordCount()).as("snapshot %s", id).isEqualTo(their.changelogRecordCount()).isEqualTo(id == 1 ? 4L : 2L);
            assertThat(our.deltaRecordCount()).isEqualTo(their.deltaRecordCount());
        }
        List<ManifestEntry> changelogFiles = ours.store().newScan().withSnapshot(1).withKind(org.apache.paimon.table.source.ScanMode.CHANGELOG).plan().files();
        assertThat(changelogFiles).isNotEmpty().allSatisfy(entry -> {
            assertThat(entry.file().fileName()).matches("changelog-[0-9a-f-]{36}-\\d+\\.parquet");
            assertThat(entry.file().level()).isZero();
            assertThat(entry.file().fileSource()).hasValue(org.apache.paimon.manifest.FileSource.APPEND);
            assertThat(Files.exists(tableFolder("changelog_trino").resolve("bucket-" + entry.bucket()).resolve(entry.file().fileName()))).isTrue();
        });
        assertThat(changelogFiles.stream().mapToLong(entry -> entry.file().rowCount()).sum()).isEqualTo(4);
        // the data files hold one version per key
        assertThat(paimonRows("changelog_trino")).containsExactly("+I(1, c)", "+I(2, b2)", "+I(3, d)", "+I(4, e)");
        assertThat(fsck("changelog_trino")).isEmpty();

        // an overwrite commits no changelog, as Paimon's overwrite commit drops it; no changelog file is left behind
        assertUpdate(
                io.trino.Session.builder(getSession()).setCatalogSessionProperty("paimon", "insert_existing_partitions_behavior", "OVERWRITE").build(),
                "INSERT INTO changelog_trino VALUES (5, 'f')",
                1);
        Snapshot overwrite = ours.snapshotManager().latestSnapshot();
        assertThat(overwrite.commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(overwrite.changelogManifestList()).isNull();
        assertThat(fsck("changelog_trino")).isEmpty();
    }

    @Test
    void changelogFilesRollToo()
    {
        assertUpdate("INSERT INTO rolled_changelog " + ROWS, 20_000);
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "rolled_changelog");
        List<ManifestEntry> changelogFiles = table.store().newScan().withSnapshot(1).withKind(org.apache.paimon.table.source.ScanMode.CHANGELOG).plan().files();
        assertThat(changelogFiles).hasSizeGreaterThan(5);
        assertThat(changelogFiles.stream().mapToLong(entry -> entry.file().rowCount()).sum()).isEqualTo(20_000);
        assertThat(PaimonJavaCatalog.readChangelog(table)).hasSize(20_000);
        assertThat(fsck("rolled_changelog")).isEmpty();
    }

    @Test
    void firstCommitLeavesTheHintsPaimonJavaLeaves()
    {
        assertUpdate("INSERT INTO hints_trino VALUES (1, 'a')", 1);
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "hints_paimon"), List.of(row(1, "a")));
        for (String hint : List.of("LATEST", "EARLIEST")) {
            assertThat(Files.exists(tableFolder("hints_trino").resolve("snapshot").resolve(hint)))
                    .as(hint)
                    .isEqualTo(Files.exists(tableFolder("hints_paimon").resolve("snapshot").resolve(hint)));
        }
    }

    private static GenericRow row(int id, String value)
    {
        return GenericRow.of(id, BinaryString.fromString(value));
    }

    /** The changelog Paimon Java's streaming read returns from snapshot 1 on, one row kind and row per record. */
    private static List<String> sorted(List<String> rows)
    {
        return rows.stream().sorted().toList();
    }

    private List<DataFileMeta> liveFiles(String table)
    {
        return ((FileStoreTable) paimon().getTable(DATABASE, table)).store().newScan().plan().files().stream()
                .map(ManifestEntry::file)
                .toList();
    }

    private List<String> fsck(String table)
    {
        Table paimonTable = paimon().getTable(DATABASE, table);
        List<String> violations = new ArrayList<>(Fsck.check(new LocalFileSystem(root()), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table)), paimonTable));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable));
        return violations;
    }

    private Path tableFolder(String table)
    {
        return root().resolve("warehouse/%s.db/%s".formatted(DATABASE, table));
    }

    private List<String> paimonRows(String table)
    {
        return PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table));
    }
}
