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
package io.trino.plugin.paimon.procedure;

import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static com.google.common.collect.Sets.difference;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static java.util.concurrent.TimeUnit.DAYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code expire_snapshots}, {@code remove_orphan_files} and the expiry after each commit, with Paimon Java 1.4.2 as the
 * oracle: the same procedure run by Paimon Java on a copy of the table leaves the same files; the retained snapshots
 * and tags read the same rows before and after, in Trino and in Paimon Java; the retention floors refuse short
 * thresholds; a reader pinned to a snapshot while it is expired gets its rows or a clear error (reliability.md T12).
 */
final class TestTableMaintenance
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "maintained";
    private static final String COPIES = "maintained_copies";
    private static final int DECOUPLED_CHANGELOG_RETAINED = 5;

    private FaultFs faultFs;

    TestTableMaintenance()
    {
        super(DATABASE);
    }

    @Override
    protected Optional<TrinoFileSystemFactory> fileSystemFactory(Path root)
    {
        faultFs = FaultFs.local(root, 1);
        return Optional.of(faultFs);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createDatabase(COPIES);
        for (String name : List.of("expired", "expired_changelog", "expired_dv", "littered", "staged", "pinned", "faulted", "branched", "untagged")) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("snapshot.num-retained.min", "2");
            if (name.equals("expired_changelog")) {
                schema.option("changelog-producer", "input");
            }
            if (name.equals("expired_dv")) {
                schema.option("deletion-vectors.enabled", "true");
            }
            paimon.createTable(DATABASE, name, schema.build());
        }
        for (String name : List.of("capped", "capped_by_paimon")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("snapshot.num-retained.min", "1")
                    .option("snapshot.num-retained.max", "3")
                    .build());
        }
        for (String producer : List.of("none", "input", "lookup")) {
            // changelog.num-retained.min above snapshot.num-retained.min: the changelog outlives the snapshots
            paimon.createTable(DATABASE, "decoupled_" + producer, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("changelog-producer", producer)
                    .option("snapshot.num-retained.min", "2")
                    .option("changelog.num-retained.min", String.valueOf(DECOUPLED_CHANGELOG_RETAINED))
                    .option("changelog.time-retained", "1 ms")
                    .build());
        }
        paimon.createTable(DATABASE, "decoupled_consumed", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("changelog-producer", "input")
                .option("snapshot.num-retained.min", "1")
                .option("changelog.num-retained.min", "3")
                .option("changelog.time-retained", "1 ms")
                .option("consumer.changelog-only", "true")
                .build());
        paimon.createTable(DATABASE, "floored", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
    }

    /**
     * Data files deleted by compactions, changelog files ({@code changelog-producer = input}) and deletion-vector
     * index files ({@code expired_dv}, written by Paimon Java alone, as Trino does not write such tables).
     */
    @ParameterizedTest
    @ValueSource(strings = {"expired", "expired_changelog", "expired_dv"})
    void expireSnapshotsDeletesWhatPaimonJavaDeletes(String name)
            throws Exception
    {
        writeHistory(name);
        long latest = snapshotIds(name).last();
        Map<Long, List<String>> before = new HashMap<>();
        for (long id : snapshotIds(name)) {
            before.put(id, rows("SELECT * FROM " + name + " FOR VERSION AS OF " + id));
        }
        List<String> taggedBefore = rows("SELECT * FROM " + name + " FOR VERSION AS OF 'kept'");
        Set<String> filesBefore = files(name);
        Path copy = copyTable(name);

        assertUpdate(lowFloors(), "ALTER TABLE " + name + " EXECUTE expire_snapshots(retention_threshold => '0s')");
        FileStoreTable twin = (FileStoreTable) uncachedPaimon().getTable(COPIES, name);
        twin.newExpireSnapshots().config(ExpireConfig.builder()
                        .snapshotRetainMin(2)
                        .snapshotRetainMax(Integer.MAX_VALUE)
                        .snapshotTimeRetain(Duration.ZERO)
                        .snapshotMaxDeletes(50)
                        .build())
                .expire();

        // snapshot.num-retained.min = 2 keeps the last two; the tag keeps the files of its snapshot
        assertThat(snapshotIds(name)).containsExactly(latest - 1, latest);
        assertThat(files(name)).isEqualTo(files(copy));
        Set<String> deleted = difference(filesBefore, files(name));
        assertThat(deleted).anyMatch(file -> file.startsWith("bucket-") && file.endsWith(".parquet"));
        assertThat(deleted).anyMatch(file -> file.startsWith("manifest/manifest-list-"));
        if (name.equals("expired_changelog")) {
            assertThat(deleted).anyMatch(file -> file.startsWith("bucket-") && file.contains("/changelog-"));
        }
        if (name.equals("expired_dv")) {
            assertThat(deleted).anyMatch(file -> file.startsWith("index/index-"));
        }
        else {
            assertThat(deleted).anyMatch(file -> file.startsWith("statistics/"));
        }
        assertThat(deleted).anyMatch(file -> file.startsWith("snapshot/snapshot-"));
        assertThat(Files.readString(tablePath(name).resolve("snapshot/EARLIEST"))).isEqualTo(String.valueOf(latest - 1));

        for (long id : List.of(latest - 1, latest)) {
            assertThat(rows("SELECT * FROM " + name + " FOR VERSION AS OF " + id)).isEqualTo(before.get(id));
            assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, name).copy(Map.of("scan.snapshot-id", String.valueOf(id))))).isEqualTo(before.get(id));
        }
        assertThat(rows("SELECT * FROM " + name + " FOR VERSION AS OF 'kept'")).isEqualTo(taggedBefore);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, name).copy(Map.of("scan.tag-name", "kept")))).isEqualTo(taggedBefore);
        assertThat(fsck(name)).isEmpty();

        // a second run finds nothing more to expire, and a threshold that keeps every snapshot changes nothing
        Set<String> filesAfter = files(name);
        assertUpdate(lowFloors(), "ALTER TABLE " + name + " EXECUTE expire_snapshots(retention_threshold => '0s')");
        assertUpdate("ALTER TABLE " + name + " EXECUTE expire_snapshots(retention_threshold => '7d')");
        assertThat(files(name)).isEqualTo(filesAfter);
    }

    /**
     * A table whose changelog outlives its snapshots ({@code changelog.num-retained.min} 5 against
     * {@code snapshot.num-retained.min} 2): expiry moves each expired snapshot to a long-lived changelog file and keeps
     * what it names (the changelog files for {@code input} and {@code lookup}, the appended data files and the base and
     * delta manifest lists for {@code none}), then expires the changelog files beyond their own retention. Paimon Java's
     * snapshot and changelog expiry on a copy leaves the same files, byte for byte in {@code changelog/}; a Trino commit
     * then expires as Paimon's commit would (Paimon's expiry finds nothing left to do after it); and remove_orphan_files
     * keeps what the changelog files name, as Paimon's orphan removal does.
     */
    @ParameterizedTest
    @ValueSource(strings = {"none", "input", "lookup"})
    void expiryKeepsTheLongLivedChangelogAsPaimonJavaDoes(String producer)
            throws Exception
    {
        String name = "decoupled_" + producer;
        writeHistory(name);
        long latest = snapshotIds(name).last();
        List<String> currentRows = rows("SELECT * FROM " + name);
        Path copy = copyTable(name, name);

        assertUpdate(lowFloors(), "ALTER TABLE " + name + " EXECUTE expire_snapshots(retention_threshold => '0s')");
        expireAsPaimonJava((FileStoreTable) uncachedPaimon().getTable(COPIES, name));

        assertThat(snapshotIds(name)).containsExactly(latest - 1, latest);
        // the changelog files of the snapshots within changelog.num-retained.min of the latest stay
        assertThat(changelogIds(tablePath(name))).containsExactly(latest - DECOUPLED_CHANGELOG_RETAINED + 1, latest - 3, latest - 2);
        assertThat(files(name)).isEqualTo(files(copy));
        assertThat(changelogContents(tablePath(name))).isEqualTo(changelogContents(copy));
        if (producer.equals("none")) {
            // a changelog file of a table without a changelog producer keeps its delta and the files it appended
            assertThat(files(name)).anyMatch(file -> file.startsWith("manifest/manifest-list-"));
        }
        else {
            assertThat(files(name)).anyMatch(file -> file.startsWith("bucket-") && file.contains("/changelog-"));
        }
        assertThat(rows("SELECT * FROM " + name)).isEqualTo(currentRows);
        assertThat(rows("SELECT * FROM " + name + " FOR VERSION AS OF 'kept'")).isEqualTo(RowText.paimonText(uncachedPaimon().getTable(DATABASE, name).copy(Map.of("scan.tag-name", "kept"))));
        assertThat(fsck(name)).isEmpty();

        // a commit from Trino expires the changelog as Paimon's commit does: Paimon's expiry then has nothing to do
        assertUpdate("INSERT INTO %s VALUES (40, 'after')".formatted(name), 1);
        assertUpdate("INSERT INTO %s VALUES (41, 'after')".formatted(name), 1);
        long newest = snapshotIds(name).last();
        // no snapshot expired (snapshot.time-retained is 1 h), so changelog expiry went on to the newest changelog file, which stays
        assertThat(changelogIds(tablePath(name))).containsExactly(latest - 2);
        Path afterCommits = copyTable(name, name + "_after_commits");
        // as Paimon's commit expires: by the table's options
        FileStoreTable committed = (FileStoreTable) uncachedPaimon().getTable(COPIES, name + "_after_commits");
        committed.newExpireSnapshots().config(committed.coreOptions().expireConfig()).expire();
        committed.newExpireChangelog().config(committed.coreOptions().expireConfig()).expire();
        assertThat(difference(files(name), files(afterCommits))).isEmpty();
        assertThat(difference(files(afterCommits), files(name))).isEmpty();

        // orphan removal: files no snapshot, tag or changelog file names go, what the changelog files name stays
        Path table = tablePath(name);
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - DAYS.toMillis(2));
        for (String orphan : List.of("bucket-0/data-00000000-0000-0000-0000-000000000000-0.parquet", "changelog/.changelog-99.00000000-0000-0000-0000-000000000000.tmp")) {
            Files.writeString(table.resolve(orphan), "left over");
        }
        try (Stream<Path> paths = Files.walk(table)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(path, old);
            }
        }
        Set<String> filesBefore = files(name);
        Path orphaned = copyTable(name, name + "_orphaned");
        assertUpdate(lowFloors(), "ALTER TABLE " + name + " EXECUTE remove_orphan_files(retention_threshold => '1d')");
        new LocalOrphanFilesClean((FileStoreTable) uncachedPaimon().getTable(COPIES, name + "_orphaned"), System.currentTimeMillis() - DAYS.toMillis(1), false).clean();
        assertThat(difference(filesBefore, files(name))).containsExactlyInAnyOrder(
                "bucket-0/data-00000000-0000-0000-0000-000000000000-0.parquet",
                "changelog/.changelog-99.00000000-0000-0000-0000-000000000000.tmp");
        assertThat(files(name)).isEqualTo(files(orphaned));
        assertThat(rows("SELECT * FROM " + name)).isEqualTo(rows("SELECT * FROM " + name + " FOR VERSION AS OF " + newest));
        assertThat(fsck(name)).isEmpty();
    }

    /**
     * A Paimon consumer reading from snapshot 3 holds back the long-lived changelog only, under
     * {@code consumer.changelog-only}: the snapshots expire past it, the changelog files from 3 on stay, as Paimon
     * Java's expiry leaves them on a copy.
     */
    @Test
    void aConsumerOfTheChangelogHoldsBackTheChangelogOnly()
            throws Exception
    {
        Table table = uncachedPaimon().getTable(DATABASE, "decoupled_consumed");
        for (int i = 1; i <= 8; i++) {
            PaimonJavaCatalog.write(table, List.of(GenericRow.of(i % 3, text("v" + i))));
        }
        Path path = tablePath("decoupled_consumed");
        Files.createDirectories(path.resolve("consumer"));
        Files.writeString(path.resolve("consumer/consumer-reader"), "{\"nextSnapshot\":3}");
        long latest = snapshotIds("decoupled_consumed").last();
        Path copy = copyTable("decoupled_consumed");

        assertUpdate(lowFloors(), "ALTER TABLE decoupled_consumed EXECUTE expire_snapshots(retention_threshold => '0s')");
        FileStoreTable twin = (FileStoreTable) uncachedPaimon().getTable(COPIES, "decoupled_consumed");
        ExpireConfig config = ExpireConfig.builder()
                .snapshotRetainMin(1)
                .snapshotRetainMax(Integer.MAX_VALUE)
                .snapshotTimeRetain(Duration.ZERO)
                .snapshotMaxDeletes(50)
                .changelogRetainMin(3)
                .changelogRetainMax(Integer.MAX_VALUE)
                .changelogTimeRetain(Duration.ofMillis(1))
                .changelogMaxDeletes(50)
                .consumerChangelogOnly(true)
                .build();
        twin.newExpireSnapshots().config(config).expire();
        twin.newExpireChangelog().config(config).expire();

        assertThat(snapshotIds("decoupled_consumed")).containsExactly(latest);
        // the changelog from the consumer's next snapshot on stays
        assertThat(changelogIds(path)).containsExactlyElementsOf(LongStream.range(3, latest).boxed().toList());
        assertThat(files("decoupled_consumed")).isEqualTo(files(copy));
        assertThat(changelogContents(path)).isEqualTo(changelogContents(copy));
    }

    /** Paimon's expiry after a commit of this table: its snapshots, then its long-lived changelog. */
    private static void expireAsPaimonJava(FileStoreTable table)
    {
        ExpireConfig config = ExpireConfig.builder()
                .snapshotRetainMin(2)
                .snapshotRetainMax(Integer.MAX_VALUE)
                .snapshotTimeRetain(Duration.ZERO)
                .snapshotMaxDeletes(50)
                .changelogRetainMin(DECOUPLED_CHANGELOG_RETAINED)
                .changelogRetainMax(Integer.MAX_VALUE)
                .changelogTimeRetain(Duration.ofMillis(1))
                .changelogMaxDeletes(50)
                .build();
        table.newExpireSnapshots().config(config).expire();
        table.newExpireChangelog().config(config).expire();
    }

    private static TreeSet<Long> changelogIds(Path table)
    {
        TreeSet<Long> ids = new TreeSet<>();
        for (String file : files(table)) {
            if (file.matches("changelog/changelog-\\d+")) {
                ids.add(Long.parseLong(file.substring("changelog/changelog-".length())));
            }
        }
        return ids;
    }

    /** The files of the {@code changelog/} folder with their text. */
    private static Map<String, String> changelogContents(Path table)
            throws IOException
    {
        Map<String, String> contents = new TreeMap<>();
        for (String file : files(table)) {
            if (file.startsWith("changelog/")) {
                contents.put(file, Files.readString(table.resolve(file)));
            }
        }
        return contents;
    }

    @Test
    void commitsExpireSnapshotsAsPaimonWritersDo()
            throws Exception
    {
        Table byPaimon = uncachedPaimon().getTable(DATABASE, "capped_by_paimon");
        for (int i = 1; i <= 5; i++) {
            assertUpdate("INSERT INTO capped VALUES (%s, 'v%s')".formatted(i, i), 1);
            PaimonJavaCatalog.write(byPaimon, List.of(GenericRow.of(i, text("v" + i))));
        }
        // snapshot.num-retained.max = 3: each commit expires what is more than 3 behind, as Paimon's writer does
        assertThat(snapshotIds("capped")).containsExactly(3L, 4L, 5L);
        assertThat(snapshotIds("capped")).isEqualTo(snapshotIds("capped_by_paimon"));
        assertThat(Files.readString(tablePath("capped").resolve("snapshot/EARLIEST"))).isEqualTo("3");
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "capped")))
                .containsExactly("(1, v1)", "(2, v2)", "(3, v3)", "(4, v4)", "(5, v5)");
        // nothing that only the expired snapshots used is left behind: Paimon Java finds no orphan in either table
        for (String table : List.of("capped", "capped_by_paimon")) {
            FileStoreTable paimonTable = (FileStoreTable) uncachedPaimon().getTable(DATABASE, table);
            long future = System.currentTimeMillis() + DAYS.toMillis(1);
            assertThat(new LocalOrphanFilesClean(paimonTable, future, true).clean().getDeletedFilesPath()).as(table).isEmpty();
        }
        assertThat(fsck("capped")).isEmpty();
    }

    /**
     * A branch made from a tag shares the tag's data files and manifests. Once the tag is deleted (its snapshot still
     * live, so Paimon deletes only the tag file) and a compaction replaced those files on the main branch, an expiry
     * that protects only tags, as Paimon 1.4.2's does, would delete what the branch reads. Ours keeps them, and the
     * orphan removal after it finds nothing of the branch's to remove.
     */
    @Test
    void expiryKeepsWhatABranchUses()
            throws Exception
    {
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "branched");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("a")), GenericRow.of(2, text("b")), GenericRow.of(3, text("c"))));
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, text("b2")), GenericRow.of(4, text("d"))));
        table.createTag("base", 2);
        table.createBranch("side", "base");
        table.deleteTag("base");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("a3"))));
        PaimonJavaCatalog.compact(table, root(), 2, _ -> true);
        // two more, so that snapshot.num-retained.min = 2 lets the compaction's deletions be expired
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(5, text("e"))));
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(6, text("f"))));
        List<String> branchRows = List.of("(1, a)", "(2, b2)", "(3, c)", "(4, d)");
        assertThat(rows("SELECT * FROM \"branched$branch_side\"")).isEqualTo(branchRows);
        assertThat(RowText.paimonText(table.switchToBranch("side"))).isEqualTo(branchRows);
        Set<String> filesBefore = files("branched");

        assertUpdate(lowFloors(), "ALTER TABLE branched EXECUTE expire_snapshots(retention_threshold => '0s')");
        assertThat(snapshotIds("branched")).containsExactly(5L, 6L);
        Set<String> deleted = difference(filesBefore, files("branched"));
        assertThat(deleted).anyMatch(file -> file.startsWith("snapshot/snapshot-"));
        // the file of snapshot 3 (key 1 = a3), which the compaction replaced and the branch never saw, goes
        assertThat(deleted).anyMatch(file -> file.startsWith("bucket-") && file.endsWith(".parquet"));
        assertThat(deleted).noneMatch(file -> file.startsWith("branch/"));
        assertThat(rows("SELECT * FROM \"branched$branch_side\"")).isEqualTo(branchRows);
        assertThat(RowText.paimonText(((FileStoreTable) uncachedPaimon().getTable(DATABASE, "branched")).switchToBranch("side"))).isEqualTo(branchRows);
        assertThat(rows("SELECT * FROM branched")).containsExactly("(1, a3)", "(2, b2)", "(3, c)", "(4, d)", "(5, e)", "(6, f)");
        assertThat(fsck("branched")).isEmpty();

        assertUpdate(lowFloors(), "ALTER TABLE branched EXECUTE remove_orphan_files(retention_threshold => '0s')");
        assertThat(rows("SELECT * FROM \"branched$branch_side\"")).isEqualTo(branchRows);
        assertThat(RowText.paimonText(((FileStoreTable) uncachedPaimon().getTable(DATABASE, "branched")).switchToBranch("side"))).isEqualTo(branchRows);

        // a branch whose files cannot be known stops the expiry, with an error that says so
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(7, text("g"))));
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(8, text("h"))));
        Files.createDirectories(tablePath("branched").resolve("branch/branch-broken"));
        Set<String> filesBeforeRefusal = files("branched");
        assertThatThrownBy(() -> getQueryRunner().execute(lowFloors(), "ALTER TABLE branched EXECUTE expire_snapshots(retention_threshold => '0s')"))
                .hasMessageContaining("Cannot expire snapshots of Paimon table maintained.branched: the files its branches use cannot be read, so nothing was expired")
                .hasMessageContaining("branch-broken");
        assertThat(files("branched")).isEqualTo(filesBeforeRefusal);
        Files.delete(tablePath("branched").resolve("branch/branch-broken"));
    }

    @Test
    void removeOrphanFilesDeletesWhatPaimonJavaDeletes()
            throws Exception
    {
        writeHistory("littered");
        // the tag keeps files that no snapshot left after this expiry references
        assertUpdate(lowFloors(), "ALTER TABLE littered EXECUTE expire_snapshots(retention_threshold => '0s')");
        List<String> rowsBefore = rows("SELECT * FROM littered");
        List<String> taggedBefore = rows("SELECT * FROM littered FOR VERSION AS OF 'kept'");

        Path table = tablePath("littered");
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - DAYS.toMillis(2));
        try (Stream<Path> paths = Files.walk(table)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(path, old);
            }
        }
        List<String> oldOrphans = List.of(
                "bucket-0/data-00000000-0000-0000-0000-000000000000-0.parquet",
                "bucket-1/data-00000000-0000-0000-0000-000000000001-0.parquet",
                "manifest/manifest-00000000-0000-0000-0000-000000000000-0",
                "manifest/manifest-list-00000000-0000-0000-0000-000000000000-0",
                "index/index-00000000-0000-0000-0000-000000000000-0",
                "statistics/stat-00000000-0000-0000-0000-000000000000-0",
                "snapshot/.snapshot-99.00000000-0000-0000-0000-000000000000.tmp");
        List<String> youngOrphans = List.of(
                "bucket-0/data-11111111-1111-1111-1111-111111111111-0.parquet",
                "manifest/manifest-11111111-1111-1111-1111-111111111111-0");
        for (String orphan : oldOrphans) {
            Path path = table.resolve(orphan);
            Files.createDirectories(path.getParent());
            Files.writeString(path, "left over");
            Files.setLastModifiedTime(path, old);
        }
        for (String orphan : youngOrphans) {
            Files.writeString(table.resolve(orphan), "being written");
        }
        Set<String> filesBefore = files("littered");
        Path copy = copyTable("littered");

        assertUpdate(lowFloors(), "ALTER TABLE littered EXECUTE remove_orphan_files(retention_threshold => '1d')");
        FileStoreTable twin = (FileStoreTable) uncachedPaimon().getTable(COPIES, "littered");
        new LocalOrphanFilesClean(twin, System.currentTimeMillis() - DAYS.toMillis(1), false).clean();

        assertThat(difference(filesBefore, files("littered"))).containsExactlyInAnyOrderElementsOf(oldOrphans);
        assertThat(files("littered")).isEqualTo(files(copy));
        assertThat(rows("SELECT * FROM littered")).isEqualTo(rowsBefore);
        assertThat(rows("SELECT * FROM littered FOR VERSION AS OF 'kept'")).isEqualTo(taggedBefore);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "littered").copy(Map.of("scan.tag-name", "kept")))).isEqualTo(taggedBefore);
        assertThat(fsck("littered")).isEmpty();
    }

    /**
     * An {@code optimize} whose server was killed leaves its staging folder ({@code _trino-optimize-<uuid>}, with the
     * {@code OPEN} marker and the results of the buckets that finished); remove_orphan_files removes such a folder
     * once every file in it is older than the retention, and leaves a running execution's folder and other folders.
     */
    @Test
    void removeOrphanFilesSweepsStagingFoldersOfKilledOptimizeExecutions()
            throws Exception
    {
        assertUpdate("INSERT INTO staged VALUES (1, 'a'), (2, 'b')", 2);
        List<String> rowsBefore = rows("SELECT * FROM staged");
        Path table = tablePath("staged");
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - DAYS.toMillis(2));
        Path killed = table.resolve("_trino-optimize-00000000-0000-0000-0000-000000000000");
        Path running = table.resolve("_trino-optimize-11111111-1111-1111-1111-111111111111");
        Path unrelated = table.resolve("_trino-other");
        for (Path file : List.of(killed.resolve("OPEN"), killed.resolve("0-1.json"), running.resolve("OPEN"), running.resolve("0-1.json"), unrelated.resolve("OPEN"))) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "{}");
            Files.setLastModifiedTime(file, old);
        }
        // the running execution has just left the result of one more bucket
        Files.writeString(running.resolve("1-1.json"), "{}");
        Set<String> filesBefore = files("staged");

        assertUpdate(lowFloors(), "ALTER TABLE staged EXECUTE remove_orphan_files(retention_threshold => '1d')");

        assertThat(killed).doesNotExist();
        assertThat(difference(filesBefore, files("staged"))).containsExactlyInAnyOrder(
                "_trino-optimize-00000000-0000-0000-0000-000000000000/OPEN",
                "_trino-optimize-00000000-0000-0000-0000-000000000000/0-1.json");
        assertThat(running.resolve("OPEN")).exists();
        assertThat(unrelated.resolve("OPEN")).exists();
        assertThat(rows("SELECT * FROM staged")).isEqualTo(rowsBefore);
        assertThat(fsck("staged")).isEmpty();
    }

    /**
     * reliability.md T6 for expiry: deletions that fail (a third of them, at random) and an EARLIEST hint that cannot be
     * written. The failed hint fails the statement after the snapshots are gone; the retained snapshots and the tag read
     * as before throughout, a second run completes, and what the failed deletions left behind is exactly what
     * remove_orphan_files then removes (Paimon Java finds no orphan after it).
     */
    @Test
    void expiryInterruptedByFailuresLeavesTheRetainedSnapshotsWhole()
            throws Exception
    {
        writeHistory("faulted");
        long latest = snapshotIds("faulted").last();
        List<String> latestBefore = rows("SELECT * FROM faulted");
        List<String> previousBefore = rows("SELECT * FROM faulted FOR VERSION AS OF " + (latest - 1));
        List<String> taggedBefore = rows("SELECT * FROM faulted FOR VERSION AS OF 'kept'");
        try {
            faultFs.addRule(FaultFs.Rule.random(Operation.DELETE, "**/faulted/**", 0.3, FaultFs.Action.THROW_BEFORE));
            faultFs.addRule(FaultFs.Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/faulted/snapshot/EARLIEST", 1, FaultFs.Action.THROW_BEFORE));
            assertThatThrownBy(() -> getQueryRunner().execute(lowFloors(), "ALTER TABLE faulted EXECUTE expire_snapshots(retention_threshold => '0s')"))
                    .hasMessageContaining("EARLIEST");
        }
        finally {
            faultFs.clearRules();
        }
        assertThat(faultFs.injectedFaults()).isGreaterThan(1);
        assertThat(rows("SELECT * FROM faulted")).isEqualTo(latestBefore);
        assertThat(rows("SELECT * FROM faulted FOR VERSION AS OF " + (latest - 1))).isEqualTo(previousBefore);
        assertThat(rows("SELECT * FROM faulted FOR VERSION AS OF 'kept'")).isEqualTo(taggedBefore);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "faulted").copy(Map.of("scan.tag-name", "kept")))).isEqualTo(taggedBefore);

        assertUpdate(lowFloors(), "ALTER TABLE faulted EXECUTE expire_snapshots(retention_threshold => '0s')");
        assertThat(Files.readString(tablePath("faulted").resolve("snapshot/EARLIEST"))).isEqualTo(String.valueOf(latest - 1));
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "faulted");
        long future = System.currentTimeMillis() + DAYS.toMillis(1);
        List<String> orphans = new LocalOrphanFilesClean(table, future, true).clean().getDeletedFilesPath().stream()
                .map(path -> tablePath("faulted").relativize(Path.of(path.toUri().getPath())).toString())
                .toList();
        assertThat(orphans).isNotEmpty();
        Set<String> filesBefore = files("faulted");
        assertUpdate(lowFloors(), "ALTER TABLE faulted EXECUTE remove_orphan_files(retention_threshold => '0s')");
        assertThat(difference(filesBefore, files("faulted"))).containsExactlyInAnyOrderElementsOf(orphans);
        assertThat(new LocalOrphanFilesClean((FileStoreTable) uncachedPaimon().getTable(DATABASE, "faulted"), future, true).clean().getDeletedFilesPath()).isEmpty();
        assertThat(rows("SELECT * FROM faulted")).isEqualTo(latestBefore);
        assertThat(rows("SELECT * FROM faulted FOR VERSION AS OF 'kept'")).isEqualTo(taggedBefore);
        assertThat(fsck("faulted")).isEmpty();
    }

    @Test
    void retentionBelowTheFloorIsRefused()
    {
        assertUpdate("INSERT INTO floored VALUES 1", 1);
        Set<String> files = files("floored");
        assertQueryFails("ALTER TABLE floored EXECUTE expire_snapshots(retention_threshold => '1d')",
                "\\QRetention specified (1.00d) is shorter than the minimum retention configured in the system (7.00d). " +
                        "Minimum retention can be changed with paimon.expire-snapshots.min-retention configuration property or paimon.expire_snapshots_min_retention session property");
        assertQueryFails("ALTER TABLE floored EXECUTE remove_orphan_files(retention_threshold => '6h')",
                "\\QRetention specified (6.00h) is shorter than the minimum retention configured in the system (7.00d). " +
                        "Minimum retention can be changed with paimon.remove-orphan-files.min-retention configuration property or paimon.remove_orphan_files_min_retention session property");
        assertThat(files("floored")).isEqualTo(files);
    }

    /**
     * reliability.md T12: a query reading an old snapshot is held on a data file while the snapshot is expired and the
     * orphans removed. With the default floors both procedures refuse and the query returns its rows; with the floors
     * lowered it returns its rows or fails naming what is gone, never other rows.
     */
    @Test
    void readerPinnedToAnExpiringSnapshot()
            throws Exception
    {
        for (int i = 0; i < 20; i++) {
            assertUpdate("INSERT INTO pinned VALUES (%s, 'a%s'), (%s, 'b%s')".formatted(i, i, i + 100, i), 2);
        }
        PaimonJavaCatalog.compact(uncachedPaimon().getTable(DATABASE, "pinned"), root(), 2, _ -> true);
        // after these, an expiry keeping two snapshots processes the compaction, which deleted the pinned snapshot's files
        assertUpdate("INSERT INTO pinned VALUES (1000, 'after')", 1);
        assertUpdate("INSERT INTO pinned VALUES (1001, 'after')", 1);
        long pinned = 5;
        List<String> expected = RowText.paimonText(uncachedPaimon().getTable(DATABASE, "pinned").copy(Map.of("scan.snapshot-id", String.valueOf(pinned))));
        assertThat(expected).hasSize(10);

        for (boolean lowered : List.of(false, true)) {
            Session session = lowered ? lowFloors() : getSession();
            Hang hang = faultFs.hang(Operation.OPEN, "**/pinned/bucket-*/data-*", 2);
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                Future<List<String>> query = executor.submit(() -> rows("SELECT * FROM pinned FOR VERSION AS OF " + pinned));
                assertThat(hang.awaitReached(60, TimeUnit.SECONDS)).isTrue();
                if (lowered) {
                    getQueryRunner().execute(session, "ALTER TABLE pinned EXECUTE expire_snapshots(retention_threshold => '0s')");
                    getQueryRunner().execute(session, "ALTER TABLE pinned EXECUTE remove_orphan_files(retention_threshold => '0s')");
                }
                else {
                    assertThatThrownBy(() -> getQueryRunner().execute(session, "ALTER TABLE pinned EXECUTE expire_snapshots(retention_threshold => '0s')"))
                            .hasMessageContaining("is shorter than the minimum retention configured in the system (7.00d)");
                    assertThatThrownBy(() -> getQueryRunner().execute(session, "ALTER TABLE pinned EXECUTE remove_orphan_files(retention_threshold => '0s')"))
                            .hasMessageContaining("is shorter than the minimum retention configured in the system (7.00d)");
                }
                hang.release();
                try {
                    assertThat(query.get()).isEqualTo(expected);
                }
                catch (ExecutionException e) {
                    assertThat(lowered).as("the default floors protect the reader").isTrue();
                    assertThat(e.getCause()).hasMessageMatching("(?s).*(Paimon data file is missing|Paimon metadata file is missing).*");
                }
            }
            finally {
                faultFs.clearRules();
                executor.shutdownNow();
            }
        }
        // the snapshot is gone now: reading it again fails with a clear error, and the table itself is whole
        assertThat(snapshotIds("pinned")).doesNotContain(pinned);
        assertThatThrownBy(() -> computeActual("SELECT * FROM pinned FOR VERSION AS OF " + pinned))
                .hasMessageMatching("(?s).*(missing|does not exist|expired).*");
        assertThat(fsck("pinned")).isEmpty();
    }

    /**
     * Paimon Java commits, a full compaction (which deletes files), two commits between two ANALYZEs, a tag, a delete,
     * another compaction and a last commit; the commits after the first compaction are Trino's (and the ANALYZEs are
     * made) unless the table is {@code expired_dv}.
     */
    /**
     * {@code delete_tag} of a tag whose snapshot expired while the tag held it deletes the files only that tag kept,
     * as Paimon Java's tag deletion does on a copy of the table; the previous tag and the snapshots read as before.
     */
    @Test
    void deleteTagDeletesWhatOnlyTheTagKeptAsPaimonJavaDoes()
            throws Exception
    {
        String name = "untagged";
        writeHistory(name);
        ((FileStoreTable) uncachedPaimon().getTable(DATABASE, name)).createTag("first", 1);
        assertUpdate("INSERT INTO %s VALUES (30, 'later')".formatted(name), 1);
        assertUpdate("INSERT INTO %s VALUES (31, 'later')".formatted(name), 1);
        assertUpdate(lowFloors(), "ALTER TABLE " + name + " EXECUTE expire_snapshots(retention_threshold => '0s')");
        long kept = ((FileStoreTable) uncachedPaimon().getTable(DATABASE, name)).tagManager().getOrThrow("kept").id();
        assertThat(snapshotIds(name).first()).isGreaterThan(kept);
        List<String> first = rows("SELECT * FROM " + name + " FOR VERSION AS OF 'first'");
        List<String> latest = rows("SELECT * FROM " + name);
        Set<String> filesBefore = files(name);
        Path copy = copyTable(name);

        assertUpdate("CALL paimon.system.delete_tag(schema_name => '%s', table_name => '%s', tag => 'kept')".formatted(DATABASE, name));
        ((FileStoreTable) uncachedPaimon().getTable(COPIES, name)).deleteTag("kept");

        assertThat(files(name)).isEqualTo(files(copy));
        Set<String> deleted = difference(filesBefore, files(name));
        assertThat(deleted).contains("tag/tag-kept");
        assertThat(deleted).anyMatch(file -> file.startsWith("bucket-") && file.endsWith(".parquet"));
        assertThat(deleted).anyMatch(file -> file.startsWith("manifest/manifest-list-"));
        assertThat(rows("SELECT * FROM " + name + " FOR VERSION AS OF 'first'")).isEqualTo(first);
        assertThat(rows("SELECT * FROM " + name)).isEqualTo(latest);
        assertThat(fsck(name)).isEmpty();
    }

    private void writeHistory(String name)
    {
        boolean trinoWrites = !name.equals("expired_dv");
        Table table = uncachedPaimon().getTable(DATABASE, name);
        for (int i = 0; i < 3; i++) {
            PaimonJavaCatalog.write(table, List.of(GenericRow.of(i, text("java" + i)), GenericRow.of(i + 10, text("java" + i))));
        }
        PaimonJavaCatalog.compact(uncachedPaimon().getTable(DATABASE, name), root(), 2, _ -> true);
        if (trinoWrites) {
            // each ANALYZE writes a statistics file, which later snapshots carry until the next ANALYZE
            getQueryRunner().execute("ANALYZE " + name);
            assertUpdate("INSERT INTO %s VALUES (1, 'trino'), (20, 'trino')".formatted(name), 2);
            assertUpdate("UPDATE %s SET v = 'updated' WHERE id = 2".formatted(name), 1);
            getQueryRunner().execute("ANALYZE " + name);
        }
        else {
            PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("java")), GenericRow.of(20, text("java"))));
            PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, text("updated"))));
        }
        ((FileStoreTable) uncachedPaimon().getTable(DATABASE, name)).createTag("kept", snapshotIds(name).last());
        if (trinoWrites) {
            assertUpdate("DELETE FROM %s WHERE id = 10".formatted(name), 1);
        }
        else {
            PaimonJavaCatalog.write(table, List.of(GenericRow.ofKind(RowKind.DELETE, 10, text("java0"))));
        }
        PaimonJavaCatalog.compact(uncachedPaimon().getTable(DATABASE, name), root(), 2, _ -> true);
        if (trinoWrites) {
            assertUpdate("INSERT INTO %s VALUES (30, 'last')".formatted(name), 1);
        }
        else {
            PaimonJavaCatalog.write(table, List.of(GenericRow.of(30, text("last"))));
        }
    }

    private Session lowFloors()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "expire_snapshots_min_retention", "0s")
                .setCatalogSessionProperty(CATALOG, "remove_orphan_files_min_retention", "0s")
                .build();
    }

    private List<String> rows(String query)
    {
        return RowText.paimonText(computeActual(query));
    }

    private Path tablePath(String table)
    {
        return paimon().warehouse().resolve(DATABASE + ".db").resolve(table);
    }

    private TreeSet<Long> snapshotIds(String table)
    {
        TreeSet<Long> ids = new TreeSet<>();
        try (Stream<Path> files = Files.list(tablePath(table).resolve("snapshot"))) {
            files.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("snapshot-\\d+"))
                    .forEach(name -> ids.add(Long.parseLong(name.substring("snapshot-".length()))));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ids;
    }

    private Set<String> files(String table)
    {
        return files(tablePath(table));
    }

    /** The files under a table folder, by path relative to it. */
    private static Set<String> files(Path table)
    {
        try (Stream<Path> paths = Files.walk(table)) {
            return paths.filter(Files::isRegularFile)
                    .map(path -> table.relativize(path).toString())
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A copy of the table, with the files' times, in the copies database under the same name. */
    private Path copyTable(String table)
            throws IOException
    {
        return copyTable(table, table);
    }

    private Path copyTable(String table, String copyName)
            throws IOException
    {
        Path source = tablePath(table);
        Path target = paimon().warehouse().resolve(COPIES + ".db").resolve(copyName);
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(source)) {
            paths = new ArrayList<>(walk.toList());
        }
        for (Path path : paths) {
            Path copied = target.resolve(source.relativize(path).toString());
            if (Files.isDirectory(path)) {
                Files.createDirectories(copied);
            }
            else {
                Files.copy(path, copied, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return target;
    }

    private List<String> fsck(String table)
    {
        Table paimonTable = uncachedPaimon().getTable(DATABASE, table);
        List<String> violations = new ArrayList<>(Fsck.check(new LocalFileSystem(root()), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table)), paimonTable));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable));
        return violations;
    }

    private static BinaryString text(String value)
    {
        return BinaryString.fromString(value);
    }
}
