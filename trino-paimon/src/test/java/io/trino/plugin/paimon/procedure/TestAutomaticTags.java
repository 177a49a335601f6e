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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tags Paimon's commits create and expire on their own ({@code tag.automatic-creation}, {@code tag.*}), done by
 * Trino's commits: the tags of snapshots Paimon Java committed with watermarks, against the tags Paimon Java's own
 * commits make of the same snapshots; a daily tag of the commit time; tags past their retention deleted on commit.
 */
final class TestAutomaticTags
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "automatic_tags";
    private static final Map<String, String> BY_WATERMARK = Map.of(
            "tag.automatic-creation", "watermark",
            "tag.num-retained-max", "2",
            "tag.default-time-retained", "7 d");

    TestAutomaticTags()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("by_watermark", "by_watermark_java")) {
            paimon.createTable(DATABASE, name, schema().options(BY_WATERMARK).build());
        }
        for (String name : List.of("completed", "completed_java")) {
            paimon.createTable(DATABASE, name, schema()
                    .option("tag.automatic-creation", "watermark")
                    .option("tag.automatic-completion", "true")
                    .build());
        }
        paimon.createTable(DATABASE, "by_time", schema()
                .option("tag.automatic-creation", "process-time")
                .option("sink.process-time-zone", "UTC")
                .build());
        paimon.createTable(DATABASE, "expiring", schema().build());
        paimon.createTable(DATABASE, "write_only", schema().option("write-only", "true").build());
    }

    /**
     * Three days of snapshots by watermark, committed by a Paimon Java writer that makes no tags; Trino's next commit
     * tags each day's first snapshot after the day ended and keeps the newest two, exactly as Paimon Java's commits
     * tag the same snapshots of a twin table.
     */
    @Test
    void watermarkTagsAreThoseOfPaimonJavasCommits()
    {
        commitDaysAndTagFromTrino("by_watermark", "2026-01-01T10:00:00Z", "2026-01-02T10:00:00Z", "2026-01-03T10:00:00Z");

        // by hand: each day's tag names the day that ended, on the first snapshot after it; the oldest of three goes
        Map<String, Long> expected = Map.of("2026-01-01", 2L, "2026-01-02", 3L);
        assertThat(tagSnapshots("by_watermark")).isEqualTo(expected);
        assertThat(tagSnapshots("by_watermark_java")).isEqualTo(expected);
        for (String tag : expected.keySet()) {
            assertThat(table("by_watermark").tagManager().getOrThrow(tag).getTagTimeRetained()).isEqualTo(Duration.ofDays(7));
        }
        assertThat(tableRows("by_watermark FOR VERSION AS OF '2026-01-01'")).isEqualTo(List.of("(1, day 1)", "(2, day 2)"));
    }

    /**
     * With {@code tag.automatic-completion}, days without a snapshot are tagged on the snapshots that follow, one
     * day each: Trino's commit, which carries the latest watermark on, takes the fourth.
     */
    @Test
    void completionTagsTheSkippedDaysOnTheSnapshotsThatFollow()
    {
        commitDaysAndTagFromTrino("completed", "2026-01-01T10:00:00Z", "2026-01-04T10:00:00Z", "2026-01-05T10:00:00Z");

        Map<String, Long> expected = Map.of("2025-12-31", 1L, "2026-01-01", 2L, "2026-01-02", 3L, "2026-01-03", 4L);
        assertThat(tagSnapshots("completed")).isEqualTo(expected);
        assertThat(tagSnapshots("completed_java")).isEqualTo(expected);
    }

    // commits a row per watermark to the table by a Paimon Java writer that makes no tags, and to its "_java" twin by
    // one that does; then a row from Trino to the table and one from Paimon Java to the twin
    private void commitDaysAndTagFromTrino(String table, String... watermarks)
    {
        FileStoreTable untagged = table(table).copy(Map.of("tag.automatic-creation", "none"));
        for (int day = 0; day < watermarks.length; day++) {
            long watermark = Instant.parse(watermarks[day]).toEpochMilli();
            commitWithWatermark(untagged, day + 1, watermark);
            commitWithWatermark(table(table + "_java"), day + 1, watermark);
        }
        assertThat(table(table).tagManager().allTagNames()).isEmpty();
        assertUpdate("INSERT INTO %s VALUES (9, 'from trino')".formatted(table), 1);
        PaimonJavaCatalog.write(table(table + "_java"), List.of(GenericRow.of(9, BinaryString.fromString("from trino"))));
    }

    /** The first commit tags its own snapshot with the day before it (the period that ended), in the table's zone. */
    @Test
    void processTimeTagNamesTheDayThatEnded()
    {
        assertUpdate("INSERT INTO by_time VALUES (1, 'one')", 1);
        assertUpdate("INSERT INTO by_time VALUES (2, 'two')", 1);
        long committed = table("by_time").snapshotManager().snapshot(1).timeMillis();
        String dayBefore = LocalDate.ofInstant(Instant.ofEpochMilli(committed), ZoneOffset.UTC).minusDays(1).toString();
        assertThat(tagSnapshots("by_time")).isEqualTo(Map.of(dayBefore, 1L));
    }

    /** A commit deletes the tags past their retention, as Paimon's commits do ({@code tag.time-expire-enabled}); a write-only table's commits do not. */
    @Test
    void commitsExpireTagsPastTheirRetention()
            throws Exception
    {
        for (String table : List.of("expiring", "write_only")) {
            assertUpdate("INSERT INTO %s VALUES (1, 'one')".formatted(table), 1);
            for (String tag : List.of("brief", "day")) {
                getQueryRunner().execute("CALL paimon.system.create_tag(schema_name => '%s', table_name => '%s', tag => '%s', time_retained => '%s')"
                        .formatted(DATABASE, table, tag, tag.equals("brief") ? "1 ms" : "1 d"));
            }
        }
        Thread.sleep(20);
        assertUpdate("INSERT INTO expiring VALUES (2, 'two')", 1);
        assertUpdate("INSERT INTO write_only VALUES (2, 'two')", 1);
        assertThat(table("expiring").tagManager().allTagNames()).containsExactly("day");
        assertThat(table("write_only").tagManager().allTagNames()).containsExactlyInAnyOrder("brief", "day");
    }

    private static Schema.Builder schema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1");
    }

    // one row of the day, committed as a streaming job commits a checkpoint with its watermark
    private static void commitWithWatermark(FileStoreTable table, int day, long watermark)
    {
        StreamWriteBuilder builder = table.newStreamWriteBuilder();
        try (StreamTableWrite write = builder.newWrite(); TableCommitImpl commit = (TableCommitImpl) builder.newCommit()) {
            write.write(GenericRow.of(day, BinaryString.fromString("day " + day)));
            List<CommitMessage> messages = write.prepareCommit(false, day);
            commit.commit(new ManifestCommittable(day, watermark, messages));
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private Map<String, Long> tagSnapshots(String table)
    {
        Map<String, Long> tags = new TreeMap<>();
        table(table).tagManager().tags().forEach((snapshot, names) -> names.forEach(name -> tags.put(name, snapshot.id())));
        return tags;
    }

    private FileStoreTable table(String name)
    {
        return (FileStoreTable) uncachedPaimon().getTable(DATABASE, name);
    }
}
