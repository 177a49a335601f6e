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
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.tag.Tag;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code create_tag}, {@code delete_tag}, {@code rename_tag}, {@code create_branch} and {@code delete_branch} from
 * Trino, with Paimon Java 1.4.2 as the oracle: it lists the same tags and branches and reads the same rows at each of
 * them, takes a tag's retention for its own tag expiry, and writes to a branch Trino made; Trino manages the tags and
 * branches Paimon Java made. Bad arguments fail naming the table and the tag or branch.
 */
final class TestTagAndBranchProcedures
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "versions";

    TestTagAndBranchProcedures()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("tagged", "retained", "renamed", "branched", "from_java", "rolled", "rolled_race", "forwarded", "from_time", "expired")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .build());
        }
    }

    @Test
    void createTagTagsTheSnapshotPaimonJavaReads()
    {
        assertUpdate("INSERT INTO tagged VALUES (1, 'one')", 1);
        assertUpdate("INSERT INTO tagged VALUES (2, 'two')", 1);
        long latest = latestSnapshotIdOf("tagged");
        call("create_tag", "tagged", "tag => 'first', snapshot_id => 1");
        call("create_tag", "tagged", "tag => 'newest'");

        FileStoreTable table = table("tagged");
        assertThat(table.tagManager().allTagNames()).containsExactlyInAnyOrder("first", "newest");
        Tag first = table.tagManager().getOrThrow("first");
        assertThat(first.id()).isEqualTo(1);
        assertThat(first.getTagTimeRetained()).isNull();
        assertThat(computeActual("SELECT create_time, time_retained FROM \"tagged$tags\" WHERE tag_name = 'first'").getMaterializedRows().getFirst().getFields()).containsExactly(null, null);
        assertThat(table.tagManager().getOrThrow("newest").id()).isEqualTo(latest);
        assertThat(rowsAtTag(table, "first")).containsExactly("+I(1, one)");
        assertThat(rowsAtTag(table, "newest")).containsExactly("+I(1, one)", "+I(2, two)");
        assertThat(tableRows("tagged FOR VERSION AS OF 'first'")).isEqualTo(List.of("(1, one)"));

        assertQueryFails(callText("create_tag", "tagged", "tag => 'first'"), "Tag 'first' of Paimon table versions.tagged already exists");
        assertQueryFails(callText("create_tag", "tagged", "tag => 'missing', snapshot_id => 99"), ".*snapshot 99 does not exist");
        assertQueryFails(callText("create_tag", "tagged", "tag => ' '"), "Invalid tag name ' ' for Paimon table versions.tagged.*");
        assertQueryFails(callText("create_tag", "tagged$snapshots", "tag => 'x'"), "create_tag: 'tagged\\$snapshots' is a system table of Paimon table versions.tagged, not a table");
        assertQueryFails(callText("create_tag", "absent", "tag => 'x'"), ".*Table versions.absent does not exist");
    }

    /** A tag's retention is written as Paimon's {@code expire_tags} reads it: a tag past its retention expires there. */
    @Test
    void tagRetentionIsWhatPaimonJavaExpiresBy()
            throws Exception
    {
        assertUpdate("INSERT INTO retained VALUES (1, 'one')", 1);
        LocalDateTime before = LocalDateTime.now().minusSeconds(1);
        call("create_tag", "retained", "tag => 'day', time_retained => '1 d'");
        call("create_tag", "retained", "tag => 'brief', time_retained => '1 ms'");
        LocalDateTime after = LocalDateTime.now().plusSeconds(1);
        assertQueryFails(callText("create_tag", "retained", "tag => 'bad', time_retained => 'soon'"), ".*time_retained.*");

        FileStoreTable table = table("retained");
        Tag day = table.tagManager().getOrThrow("day");
        assertThat(day.getTagTimeRetained()).isEqualTo(Duration.ofDays(1));
        assertThat(day.getTagCreateTime()).isBetween(before, after);
        assertThat(table.tagManager().getOrThrow("brief").getTagTimeRetained()).isEqualTo(Duration.ofMillis(1));
        // $tags shows them as Paimon's $tags does: the creation time to the millisecond, the retention as Java prints it
        List<MaterializedRow> tags = computeActual("SELECT tag_name, create_time, time_retained FROM \"retained$tags\" ORDER BY tag_name").getMaterializedRows();
        assertThat(tags).hasSize(2);
        assertThat(tags.get(1).getFields()).containsExactly("day", day.getTagCreateTime().truncatedTo(ChronoUnit.MILLIS), "PT24H");
        assertThat(tags.get(0).getField(2)).isEqualTo(table.tagManager().getOrThrow("brief").getTagTimeRetained().toString()).isEqualTo("PT0.001S");

        Thread.sleep(20);
        FileStoreTable expiring = table.copy(Map.of("tag.time-expire-enabled", "true"));
        expiring.store().newTagAutoManager(expiring).getTagTimeExpire().expire();
        assertThat(table("retained").tagManager().allTagNames()).containsExactly("day");
    }

    /** The snapshot tagged is the one Paimon Java's {@code laterOrEqualTimeMills} finds for the time. */
    @Test
    void createTagFromTimestampTagsTheFirstSnapshotAtOrAfterIt()
            throws Exception
    {
        for (int row = 1; row <= 3; row++) {
            assertUpdate("INSERT INTO from_time VALUES (%s, 'v%s')".formatted(row, row), 1);
            Thread.sleep(5);
        }
        FileStoreTable table = table("from_time");
        long second = table.snapshotManager().snapshot(2).timeMillis();
        long latest = table.snapshotManager().latestSnapshot().timeMillis();
        call("create_tag_from_timestamp", "from_time", "tag => 'at_second', timestamp => %s".formatted(second));
        call("create_tag_from_timestamp", "from_time", "tag => 'after_first', timestamp => %s, time_retained => '1 h'".formatted(table.snapshotManager().snapshot(1).timeMillis() + 1));

        table = table("from_time");
        assertThat(table.tagManager().getOrThrow("at_second").id()).isEqualTo(table.snapshotManager().laterOrEqualTimeMills(second).id());
        assertThat(table.tagManager().getOrThrow("after_first").id()).isEqualTo(2);
        assertThat(table.tagManager().getOrThrow("after_first").getTagTimeRetained()).isEqualTo(Duration.ofHours(1));
        assertThat(tableRows("from_time FOR VERSION AS OF 'at_second'")).isEqualTo(List.of("(1, v1)", "(2, v2)"));

        assertQueryFails(callText("create_tag_from_timestamp", "from_time", "tag => 'none', timestamp => %s".formatted(latest + 60_000)),
                "Cannot create tag 'none' of Paimon table versions.from_time: no snapshot was committed at or after %s .*".formatted(latest + 60_000));
        assertQueryFails(callText("create_tag_from_timestamp", "from_time", "tag => 'at_second', timestamp => %s".formatted(second)),
                "Tag 'at_second' of Paimon table versions.from_time already exists");
    }

    /**
     * {@code expire_tags} deletes the tags past their retention, and with {@code older_than} those made before it (a
     * tag without a retention by its file's time); Paimon Java's own tag expiry then finds nothing left to expire.
     */
    @Test
    void expireTagsDeletesWhatPaimonJavaWouldExpire()
            throws Exception
    {
        assertUpdate("INSERT INTO expired VALUES (1, 'one')", 1);
        call("create_tag", "expired", "tag => 'plain'");
        call("create_tag", "expired", "tag => 'brief', time_retained => '1 ms'");
        Thread.sleep(50);
        LocalDateTime between = LocalDateTime.now();
        Thread.sleep(50);
        call("create_tag", "expired", "tag => 'day', time_retained => '1 d'");
        call("create_tag", "expired", "tag => 'later'");

        call("expire_tags", "expired", "older_than => NULL");
        assertThat(table("expired").tagManager().allTagNames()).containsExactlyInAnyOrder("plain", "day", "later");

        String olderThan = between.toString().replace('T', ' ');
        call("expire_tags", "expired", "older_than => '%s'".formatted(olderThan));
        assertThat(table("expired").tagManager().allTagNames()).containsExactlyInAnyOrder("day", "later");
        FileStoreTable expiring = table("expired").copy(Map.of("tag.time-expire-enabled", "true"));
        assertThat(expiring.store().newTagAutoManager(expiring).getTagTimeExpire().withOlderThanTime(between).expire()).isEmpty();
        assertThat(tableRows("expired FOR VERSION AS OF 'day'")).isEqualTo(List.of("(1, one)"));

        assertQueryFails(callText("expire_tags", "expired", "older_than => 'yesterday'"),
                "expire_tags of Paimon table versions.expired: older_than 'yesterday' is not a date and time such as '2026-12-07 10:00:00'");
    }

    @Test
    void deleteAndRenameTagsAsPaimonJavaSeesThem()
    {
        assertUpdate("INSERT INTO renamed VALUES (1, 'one')", 1);
        for (String tag : List.of("a", "b", "c")) {
            call("create_tag", "renamed", "tag => '%s'".formatted(tag));
        }
        assertQueryFails(callText("delete_tag", "renamed", "tag => 'a,missing'"), "Paimon table versions.renamed has no tag 'missing'");
        assertThat(table("renamed").tagManager().allTagNames()).containsExactlyInAnyOrder("a", "b", "c");
        call("delete_tag", "renamed", "tag => 'a, b'");
        assertThat(table("renamed").tagManager().allTagNames()).containsExactly("c");

        long tagged = table("renamed").tagManager().getOrThrow("c").id();
        call("rename_tag", "renamed", "tag => 'c', target_tag => 'd'");
        assertThat(table("renamed").tagManager().allTagNames()).containsExactly("d");
        assertThat(table("renamed").tagManager().getOrThrow("d").id()).isEqualTo(tagged);
        assertThat(tableRows("renamed FOR VERSION AS OF 'd'")).isEqualTo(List.of("(1, one)"));

        call("create_tag", "renamed", "tag => 'e'");
        assertQueryFails(callText("rename_tag", "renamed", "tag => 'd', target_tag => 'e'"), "Tag 'e' of Paimon table versions.renamed already exists");
        assertQueryFails(callText("rename_tag", "renamed", "tag => 'x', target_tag => 'y'"), "Paimon table versions.renamed has no tag 'x'");
    }

    /**
     * An empty branch and one from a tag, as Paimon Java lists and reads them; Paimon Java writes to the empty one and
     * Trino reads what it wrote, while the main branch stays as it was.
     */
    @Test
    void branchesArePaimonJavasBranches()
    {
        assertUpdate("INSERT INTO branched VALUES (1, 'one')", 1);
        call("create_tag", "branched", "tag => 'base'");
        assertUpdate("INSERT INTO branched VALUES (2, 'two')", 1);
        call("create_branch", "branched", "branch => 'empty'");
        call("create_branch", "branched", "branch => 'from_base', tag => 'base'");

        assertThat(table("branched").branchManager().branches()).containsExactlyInAnyOrder("empty", "from_base");
        assertThat(PaimonJavaCatalog.readRows(uncachedPaimon().getTable(DATABASE, "branched$branch_from_base"))).containsExactly("+I(1, one)");
        assertThat(tableRows("\"branched$branch_from_base\"")).isEqualTo(List.of("(1, one)"));
        assertThat(PaimonJavaCatalog.readRows(uncachedPaimon().getTable(DATABASE, "branched$branch_empty"))).isEmpty();

        Table empty = uncachedPaimon().getTable(DATABASE, "branched$branch_empty");
        PaimonJavaCatalog.write(empty, List.of(GenericRow.of(7, BinaryString.fromString("on the branch"))));
        assertThat(tableRows("\"branched$branch_empty\"")).isEqualTo(List.of("(7, on the branch)"));
        assertThat(tableRows("branched")).isEqualTo(List.of("(1, one)", "(2, two)"));

        assertQueryFails(callText("create_branch", "branched", "branch => 'main'"), "Invalid branch name 'main' for Paimon table versions.branched: it names the main branch");
        assertQueryFails(callText("create_branch", "branched", "branch => '123'"), "Invalid branch name '123' for Paimon table versions.branched: a branch name is not only digits");
        assertQueryFails(callText("create_branch", "branched", "branch => 'empty'"), "Branch 'empty' of Paimon table versions.branched already exists");
        assertQueryFails(callText("create_branch", "branched", "branch => 'other', tag => 'missing'"), "Cannot create branch 'other' of Paimon table versions.branched: it has no tag 'missing'");

        call("delete_branch", "branched", "branch => 'empty'");
        assertThat(table("branched").branchManager().branches()).containsExactly("from_base");
        assertQueryFails(callText("delete_branch", "branched", "branch => 'empty'"), "Paimon table versions.branched has no branch 'empty'");
        assertQueryFails("SELECT * FROM \"branched$branch_empty\"", ".*Table versions.branched has no branch 'empty'");
    }

    /** Tags and branches Paimon Java made are Trino's to delete, and a tag of a branch is the branch's. */
    @Test
    void paimonJavasTagsAndBranchesAreManagedFromTrino()
    {
        Table table = uncachedPaimon().getTable(DATABASE, "from_java");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, BinaryString.fromString("one"))));
        FileStoreTable fileStoreTable = table("from_java");
        fileStoreTable.createTag("java_tag");
        fileStoreTable.createBranch("java_branch", "java_tag");

        call("create_tag", "from_java$branch_java_branch", "tag => 'on_branch'");
        assertThat(((FileStoreTable) uncachedPaimon().getTable(DATABASE, "from_java$branch_java_branch")).tagManager().allTagNames()).containsExactlyInAnyOrder("java_tag", "on_branch");
        assertThat(table("from_java").tagManager().allTagNames()).containsExactly("java_tag");

        call("delete_tag", "from_java", "tag => 'java_tag'");
        call("delete_branch", "from_java", "branch => 'java_branch'");
        assertThat(table("from_java").tagManager().allTagNames()).isEmpty();
        assertThat(table("from_java").branchManager().branches()).isEmpty();
        assertThat(tableRows("from_java")).isEqualTo(List.of("(1, one)"));
    }

    /**
     * {@code rollback_to} a snapshot and a tag: Paimon Java then reads the table at that version, as its latest, with
     * the later snapshots and tags gone, and commits after it; expiry and orphan removal leave every version readable.
     */
    @Test
    void rollbackToMakesTheVersionTheLatest()
    {
        Map<Long, List<String>> versions = new HashMap<>();
        for (int i = 1; i <= 4; i++) {
            assertUpdate(withoutCompactionOnWrite(), "INSERT INTO rolled VALUES (%s, 'v%s')".formatted(i, i), 1);
            versions.put(latestSnapshotIdOf("rolled"), tableRows("rolled"));
        }
        call("create_tag", "rolled", "tag => 'second', snapshot_id => 2");
        call("create_tag", "rolled", "tag => 'fourth', snapshot_id => 4");

        call("rollback_to", "rolled", "snapshot_id => 3");
        FileStoreTable table = table("rolled");
        assertThat(table.snapshotManager().latestSnapshotId()).isEqualTo(3);
        assertThat(table.snapshotManager().snapshotExists(4)).isFalse();
        assertThat(table.tagManager().allTagNames()).containsExactly("second");
        assertThat(rowsOf(table)).isEqualTo(versions.get(3L));
        assertThat(tableRows("rolled")).isEqualTo(versions.get(3L));

        call("rollback_to", "rolled", "tag => 'second'");
        assertThat(table("rolled").snapshotManager().latestSnapshotId()).isEqualTo(2);
        assertThat(tableRows("rolled")).isEqualTo(versions.get(2L));

        // the next commit continues from the rolled-back version, read the same by Paimon Java
        assertUpdate("INSERT INTO rolled VALUES (9, 'after')", 1);
        assertThat(table("rolled").snapshotManager().latestSnapshotId()).isEqualTo(3);
        assertThat(rowsOf(table("rolled"))).isEqualTo(tableRows("rolled"));
        assertThat(tableRows("rolled")).contains("(9, after)").doesNotContain("(3, v3)");

        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty("paimon", "expire_snapshots_min_retention", "0s").build(),
                "ALTER TABLE rolled EXECUTE expire_snapshots(retention_threshold => '0s')");
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty("paimon", "remove_orphan_files_min_retention", "0s").build(),
                "ALTER TABLE rolled EXECUTE remove_orphan_files(retention_threshold => '0s')");
        assertThat(tableRows("rolled FOR VERSION AS OF 'second'")).isEqualTo(versions.get(2L));
        assertThat(rowsAtTag(table("rolled"), "second")).isEqualTo(versions.get(2L).stream().map(row -> "+I" + row).sorted().toList());
        assertThat(rowsOf(table("rolled"))).isEqualTo(tableRows("rolled"));

        assertQueryFails(callText("rollback_to", "rolled", "snapshot_id => 1, tag => 'second'"), "rollback_to: give either snapshot_id or tag");
        assertQueryFails(callText("rollback_to", "rolled", "snapshot_id => 99"), "Cannot roll back Paimon table versions.rolled to snapshot 99: it does not exist");
    }

    /** {@code fast_forward}: the main branch takes the history Paimon Java wrote on a branch, and Trino writes on from there. */
    @Test
    void fastForwardPublishesTheBranch()
    {
        assertUpdate("INSERT INTO forwarded VALUES (1, 'main')", 1);
        call("create_tag", "forwarded", "tag => 'base'");
        call("create_branch", "forwarded", "branch => 'backfill', tag => 'base'");
        Table branch = uncachedPaimon().getTable(DATABASE, "forwarded$branch_backfill");
        PaimonJavaCatalog.write(branch, List.of(GenericRow.of(2, BinaryString.fromString("backfilled"))));
        PaimonJavaCatalog.write(uncachedPaimon().getTable(DATABASE, "forwarded$branch_backfill"), List.of(GenericRow.of(1, BinaryString.fromString("fixed"))));
        List<String> backfilled = PaimonJavaCatalog.readRows(uncachedPaimon().getTable(DATABASE, "forwarded$branch_backfill")).stream().sorted().toList();
        assertThat(backfilled).containsExactly("+I(1, fixed)", "+I(2, backfilled)");

        call("fast_forward", "forwarded", "branch => 'backfill'");
        assertThat(rowsOf(table("forwarded"))).isEqualTo(List.of("(1, fixed)", "(2, backfilled)"));
        assertThat(tableRows("forwarded")).isEqualTo(List.of("(1, fixed)", "(2, backfilled)"));
        assertThat(table("forwarded").snapshotManager().latestSnapshotId())
                .isEqualTo(((FileStoreTable) uncachedPaimon().getTable(DATABASE, "forwarded$branch_backfill")).snapshotManager().latestSnapshotId());

        assertUpdate("INSERT INTO forwarded VALUES (3, 'after')", 1);
        assertThat(rowsOf(table("forwarded"))).isEqualTo(List.of("(1, fixed)", "(2, backfilled)", "(3, after)"));
        assertQueryFails(callText("fast_forward", "forwarded", "branch => 'main'"), ".*name a branch other than main");
        assertQueryFails(callText("fast_forward", "forwarded", "branch => 'absent'"), "Paimon table versions.forwarded has no branch 'absent'");
    }

    /**
     * A Paimon Java commit that lands while {@code rollback_to} runs: the rollback fails with
     * {@code TRANSACTION_CONFLICT}, the commit stays the table's latest version for Paimon Java and Trino alike, and the
     * rollback run again succeeds.
     */
    @Test
    void rollbackRacingACommitFailsAndLeavesTheCommitLatest()
            throws Exception
    {
        for (int i = 1; i <= 3; i++) {
            assertUpdate(withoutCompactionOnWrite(), "INSERT INTO rolled_race VALUES (%s, 'v%s')".formatted(i, i), 1);
        }
        // the rollback holds as it points the LATEST hint at snapshot 1, having read snapshot 3 as the latest: Paimon
        // Java's commit lands as snapshot 4, which the hint then hides, and which the rollback does not delete
        Optional<RuntimeException> failure = new HeldRace(faultFs(), Operation.CREATE_OR_OVERWRITE, "**/rolled_race/snapshot/LATEST").run(
                () -> call("rollback_to", "rolled_race", "snapshot_id => 1"),
                () -> PaimonJavaCatalog.write(table("rolled_race"), List.of(GenericRow.of(9, BinaryString.fromString("raced")))));
        assertThat(failure).hasValueSatisfying(e -> {
            assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT);
            assertThat(e).hasMessageContaining("raced snapshot 4 committed meanwhile, which stays the latest");
        });
        List<String> raced = List.of("(1, v1)", "(2, v2)", "(3, v3)", "(9, raced)");
        assertThat(table("rolled_race").snapshotManager().latestSnapshotId()).isEqualTo(4);
        assertThat(rowsOf(table("rolled_race"))).isEqualTo(raced);
        assertThat(tableRows("rolled_race")).isEqualTo(raced);

        call("rollback_to", "rolled_race", "snapshot_id => 1");
        assertThat(table("rolled_race").snapshotManager().latestSnapshotId()).isEqualTo(1);
        assertThat(rowsOf(table("rolled_race"))).isEqualTo(List.of("(1, v1)"));
        assertThat(tableRows("rolled_race")).isEqualTo(List.of("(1, v1)"));
    }

    // Paimon Java's rows of the table, as Trino's rows are printed
    private static List<String> rowsOf(FileStoreTable table)
    {
        return PaimonJavaCatalog.readRows(table).stream().map(row -> row.substring(row.indexOf('('))).sorted().toList();
    }

    private FileStoreTable table(String name)
    {
        return (FileStoreTable) uncachedPaimon().getTable(DATABASE, name);
    }

    private static List<String> rowsAtTag(FileStoreTable table, String tag)
    {
        return PaimonJavaCatalog.readRows(table.copy(Map.of("scan.tag-name", tag))).stream().sorted().toList();
    }

    private void call(String procedure, String table, String arguments)
    {
        getQueryRunner().execute(callText(procedure, table, arguments));
    }

    private static String callText(String procedure, String table, String arguments)
    {
        return "CALL paimon.system.%s(schema_name => '%s', table_name => '%s', %s)".formatted(procedure, DATABASE, table, arguments);
    }
}
