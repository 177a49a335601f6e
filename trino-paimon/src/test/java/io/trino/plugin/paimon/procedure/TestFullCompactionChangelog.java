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
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables with {@code changelog-producer} = {@code full-compaction}: each statement compacts the buckets it wrote fully
 * and commits the changelog of that compaction, which Paimon Java's streaming read returns exactly as it returns the
 * changelog of Paimon Java's own full compactions after the same writes (and as worked out by hand); {@code optimize}
 * writes it too.
 */
final class TestFullCompactionChangelog
        extends AbstractChangelogProducerTest
{
    private static final String DATABASE = "full_changelog";

    TestFullCompactionChangelog()
    {
        super(DATABASE, "full-compaction");
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String table : List.of("kept_trino", "kept_paimon", "optimized", "large_trino", "large_paimon")) {
            paimon.createTable(DATABASE, table, keyValueSchema().build());
        }
        paimon.createTable(DATABASE, "counted", keyValueSchema()
                .option("full-compaction.delta-commits", "3")
                .build());
        paimon.createTable(DATABASE, "deduplicated", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .column("updated", DataTypes.INT())
                .primaryKey("k")
                .option("bucket", "2")
                .option("changelog-producer", "full-compaction")
                .option("changelog-producer.row-deduplicate", "true")
                .option("changelog-producer.row-deduplicate-ignore-fields", "updated")
                .build());
        for (String table : List.of("summed_trino", "summed_paimon")) {
            paimon.createTable(DATABASE, table, summedSchema().build());
        }
    }

    @Test
    void deduplicateChangelogEqualsPaimonJavas()
    {
        assertUpdate("INSERT INTO kept_trino VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        assertUpdate("INSERT INTO kept_trino VALUES (1, 'a2'), (4, 'd')", 2);
        assertUpdate("DELETE FROM kept_trino WHERE k = 2", 1);
        // an unchanged row is still an update without row deduplication
        assertUpdate("INSERT INTO kept_trino VALUES (3, 'c')", 1);

        Table paimonTable = paimon().getTable(DATABASE, "kept_paimon");
        writeAndCompactFully(paimonTable, List.of(row(1, "a"), row(2, "b"), row(3, "c")));
        writeAndCompactFully(paimonTable, List.of(row(1, "a2"), row(4, "d")));
        writeAndCompactFully(paimonTable, List.of(GenericRow.ofKind(RowKind.DELETE, 2, BinaryString.fromString("b"))));
        writeAndCompactFully(paimonTable, List.of(row(3, "c")));

        List<String> ours = changelog("kept_trino");
        assertThat(sorted(ours)).isEqualTo(sorted(List.of(
                "+I(1, a)", "+I(2, b)", "+I(3, c)",
                "-U(1, a)", "+U(1, a2)", "+I(4, d)",
                "-D(2, b)",
                "-U(3, c)", "+U(3, c)")));
        assertThat(ours).isEqualTo(changelog("kept_paimon"));
        assertThat(tableRows("kept_trino")).containsExactly("(1, a2)", "(3, c)", "(4, d)");

        // each statement: an APPEND snapshot without changelog, then a COMPACT snapshot with it, every bucket at the highest level
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "kept_trino");
        Snapshot latest = table.snapshotManager().latestSnapshot();
        assertThat(latest.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(latest.changelogManifestList()).isNotNull();
        assertThat(table.snapshotManager().snapshot(latest.id() - 1).changelogManifestList()).isNull();
        List<ManifestEntry> changelogFiles = table.store().newScan().withSnapshot(latest.id()).withKind(ScanMode.CHANGELOG).plan().files();
        assertThat(changelogFiles).isNotEmpty().allSatisfy(entry -> {
            assertThat(entry.file().fileName()).matches("changelog-[0-9a-f-]{36}-\\d+\\.parquet");
            assertThat(entry.file().level()).isEqualTo(5);
            assertThat(entry.file().fileSource()).hasValue(org.apache.paimon.manifest.FileSource.APPEND);
        });
        assertThat(changelogFiles.stream().mapToLong(entry -> entry.file().rowCount()).sum()).isEqualTo(2);
        assertThat(table.store().newScan().withSnapshot(latest.id()).plan().files())
                .allSatisfy(entry -> assertThat(entry.file().level()).isEqualTo(5));
        assertThat(fsckViolations("kept_trino")).isEmpty();
    }

    /**
     * {@code full-compaction.delta-commits} counts the checkpoints of a streaming job; the commit at the end of a batch
     * job (identifier {@code Long.MAX_VALUE}) always compacts fully, and each statement is such a job. Paimon's
     * {@code compacted-full} scan, which starts from the newest full compaction by that same rule, finds ours.
     */
    @Test
    void everyStatementCompactsFullyWhateverTheDeltaCommits()
    {
        assertUpdate("INSERT INTO counted VALUES (1, 'a'), (2, 'b')", 2);
        assertUpdate("INSERT INTO counted VALUES (2, 'b2'), (3, 'c')", 2);
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "counted");
        Snapshot latest = table.snapshotManager().latestSnapshot();
        assertThat(latest.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(latest.commitIdentifier()).isEqualTo(Long.MAX_VALUE);
        assertThat(RowText.paimonText(table.copy(Map.of("scan.mode", "compacted-full")))).containsExactly("(1, a)", "(2, b2)", "(3, c)");
        assertThat(sorted(PaimonJavaCatalog.readChangelog(table))).isEqualTo(sorted(List.of("+I(1, a)", "+I(2, b)", "-U(2, b)", "+U(2, b2)", "+I(3, c)")));
    }

    @Test
    void changelogOfManyPagesEqualsPaimonJavas()
    {
        // 10,000 keys over two buckets: the merge, the old records and the changelog each span several pages
        assertUpdate("INSERT INTO large_trino SELECT k, 'v' || CAST(k AS varchar) FROM UNNEST(sequence(1, 10000)) t(k)", 10_000);
        assertUpdate("INSERT INTO large_trino SELECT k, 'w' || CAST(k AS varchar) FROM UNNEST(sequence(2, 10000, 2)) t(k)", 5_000);
        Table paimonTable = paimon().getTable(DATABASE, "large_paimon");
        writeAndCompactFully(paimonTable, IntStream.rangeClosed(1, 10_000).mapToObj(k -> row(k, "v" + k)).toList());
        writeAndCompactFully(paimonTable, IntStream.rangeClosed(1, 5_000).mapToObj(i -> row(2 * i, "w" + 2 * i)).toList());

        List<String> ours = changelog("large_trino");
        assertThat(ours).hasSize(20_000);
        assertThat(ours.stream().filter(row -> row.startsWith("-U(")).count()).isEqualTo(5_000);
        assertThat(ours).contains("-U(10000, v10000)", "+U(10000, w10000)", "+I(9999, v9999)");
        assertThat(ours).isEqualTo(changelog("large_paimon"));
    }

    @Test
    void rowDeduplicationLeavesOutUnchangedRows()
    {
        assertUpdate("INSERT INTO deduplicated VALUES (1, 'a', 1), (2, 'b', 1)", 2);
        // key 1 changes only in the ignored field, key 2 not at all, key 3 is new
        assertUpdate("INSERT INTO deduplicated VALUES (1, 'a', 2), (2, 'b', 1), (3, 'c', 1)", 3);
        assertUpdate("INSERT INTO deduplicated VALUES (2, 'b2', 3)", 1);
        assertThat(changelog("deduplicated")).containsExactlyInAnyOrder(
                "+I(1, a, 1)", "+I(2, b, 1)",
                "+I(3, c, 1)",
                "-U(2, b, 1)", "+U(2, b2, 3)");
        assertThat(tableRows("deduplicated")).containsExactly("(1, a, 2)", "(2, b2, 3)", "(3, c, 1)");
    }

    @Test
    void aggregationChangelogEqualsPaimonJavas()
    {
        assertUpdate("INSERT INTO summed_trino VALUES (1, 10), (1, 5), (2, 1)", 3);
        assertUpdate("INSERT INTO summed_trino VALUES (1, 7), (3, 4)", 2);

        Table paimonTable = paimon().getTable(DATABASE, "summed_paimon");
        writeAndCompactFully(paimonTable, List.of(GenericRow.of(1, 10L), GenericRow.of(1, 5L), GenericRow.of(2, 1L)));
        writeAndCompactFully(paimonTable, List.of(GenericRow.of(1, 7L), GenericRow.of(3, 4L)));

        List<String> ours = changelog("summed_trino");
        assertThat(sorted(ours)).isEqualTo(sorted(List.of(
                "+I(1, 15)", "+I(2, 1)",
                "-U(1, 15)", "+U(1, 22)", "+I(3, 4)")));
        assertThat(ours).isEqualTo(changelog("summed_paimon"));
        assertThat(fsckViolations("summed_trino")).isEmpty();
    }

    @Test
    void optimizeWritesTheChangelogOfWritesThatDidNotCompact()
    {
        Session withoutCompaction = withoutCompactionOnWrite();
        assertUpdate("INSERT INTO optimized VALUES (1, 'a'), (2, 'b')", 2);
        assertUpdate(withoutCompaction, "INSERT INTO optimized VALUES (1, 'a2'), (3, 'c')", 2);
        assertUpdate(withoutCompaction, "DELETE FROM optimized WHERE k = 2", 1);
        assertThat(changelog("optimized")).containsExactlyInAnyOrder("+I(1, a)", "+I(2, b)");

        assertUpdate("ALTER TABLE optimized EXECUTE optimize");
        // the writes since the last full compaction, folded per key against what that compaction published
        assertThat(changelog("optimized")).containsExactlyInAnyOrder(
                "+I(1, a)", "+I(2, b)",
                "-U(1, a)", "+U(1, a2)", "-D(2, b)", "+I(3, c)");
        assertThat(tableRows("optimized")).containsExactly("(1, a2)", "(3, c)");
        assertThat(fsckViolations("optimized")).isEmpty();

        // an overwrite adds no changelog, as Paimon's overwrite commit drops it, but its rows are compacted fully, so
        // the next write's changelog updates them
        List<String> beforeOverwrite = changelog("optimized");
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty("paimon", "insert_existing_partitions_behavior", "OVERWRITE").build(), "INSERT INTO optimized VALUES (5, 'e')", 1);
        assertThat(changelog("optimized")).isEqualTo(beforeOverwrite);
        assertUpdate("INSERT INTO optimized VALUES (5, 'e2')", 1);
        List<String> afterOverwrite = changelog("optimized");
        assertThat(afterOverwrite.subList(beforeOverwrite.size(), afterOverwrite.size())).containsExactly("-U(5, e)", "+U(5, e2)");
        assertThat(tableRows("optimized")).containsExactly("(5, e2)");
        assertThat(fsckViolations("optimized")).isEmpty();
    }

    /** A batch write, then a full compaction of both buckets, as a Flink batch job of a full-compaction table ends. */
    private void writeAndCompactFully(Table table, List<GenericRow> rows)
    {
        PaimonJavaCatalog.write(table, rows);
        PaimonJavaCatalog.compact(paimon().getTable(DATABASE, table.name()), root(), 2, bucket -> true);
    }
}
