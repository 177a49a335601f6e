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
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables with {@code changelog-producer} = {@code lookup}: the compaction after each statement moves level 0 up,
 * looking up the keys' older records, and commits the changelog Paimon's lookup compaction writes, which Paimon Java's
 * streaming read returns exactly as it returns the changelog of Paimon Java's own writes of the same rows (and as
 * worked out by hand), under deduplicate (with and without deletion vectors), aggregation and first-row; and
 * {@code optimize} of writes that did not compact.
 */
final class TestLookupChangelog
        extends AbstractChangelogProducerTest
{
    private static final String DATABASE = "lookup_changelog";

    TestLookupChangelog()
    {
        super(DATABASE, "lookup");
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String engine : List.of("kept", "vectors")) {
            for (String writer : List.of("trino", "paimon")) {
                Schema.Builder schema = keyValueSchema();
                if (engine.equals("vectors")) {
                    schema.option("deletion-vectors.enabled", "true");
                }
                paimon.createTable(DATABASE, engine + "_" + writer, schema.build());
            }
        }
        for (String writer : List.of("trino", "paimon")) {
            paimon.createTable(DATABASE, "summed_" + writer, summedSchema().build());
            paimon.createTable(DATABASE, "first_" + writer, keyValueSchema()
                    .option("merge-engine", "first-row")
                    .build());
        }
        paimon.createTable(DATABASE, "optimized", keyValueSchema().build());
    }

    @Test
    void deduplicateChangelogEqualsPaimonJavas()
    {
        for (String table : List.of("kept", "vectors")) {
            assertUpdate("INSERT INTO %s_trino VALUES (1, 'a'), (2, 'b'), (3, 'c')".formatted(table), 3);
            assertUpdate("INSERT INTO %s_trino VALUES (1, 'a2'), (4, 'd')".formatted(table), 2);
            assertUpdate("DELETE FROM %s_trino WHERE k = 2".formatted(table), 1);
            // an unchanged row is still an update without row deduplication
            assertUpdate("INSERT INTO %s_trino VALUES (3, 'c')".formatted(table), 1);

            write(table + "_paimon", List.of(row(1, "a"), row(2, "b"), row(3, "c")));
            write(table + "_paimon", List.of(row(1, "a2"), row(4, "d")));
            write(table + "_paimon", List.of(GenericRow.ofKind(RowKind.DELETE, 2, BinaryString.fromString("b"))));
            write(table + "_paimon", List.of(row(3, "c")));

            List<String> ours = changelog(table + "_trino");
            assertThat(sorted(ours)).as(table).isEqualTo(sorted(List.of(
                    "+I(1, a)", "+I(2, b)", "+I(3, c)",
                    "-U(1, a)", "+U(1, a2)", "+I(4, d)",
                    "-D(2, b)",
                    "-U(3, c)", "+U(3, c)")));
            assertThat(ours).as(table).isEqualTo(changelog(table + "_paimon"));
            assertThat(tableRows(table + "_trino")).as(table).containsExactly("(1, a2)", "(3, c)", "(4, d)");
            assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table + "_trino"))).as(table).containsExactly("+I(1, a2)", "+I(3, c)", "+I(4, d)");
            assertThat(fsckViolations(table + "_trino")).as(table).isEmpty();
        }

        // each statement: an APPEND snapshot without changelog, then a COMPACT snapshot with it and no level-0 file left
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "kept_trino");
        Snapshot latest = table.snapshotManager().latestSnapshot();
        assertThat(latest.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(table.snapshotManager().snapshot(latest.id() - 1).changelogManifestList()).isNull();
        List<ManifestEntry> changelogFiles = table.store().newScan().withSnapshot(latest.id()).withKind(ScanMode.CHANGELOG).plan().files();
        assertThat(changelogFiles).isNotEmpty().allSatisfy(entry -> {
            assertThat(entry.file().fileName()).matches("changelog-[0-9a-f-]{36}-\\d+\\.parquet");
            assertThat(entry.file().level()).isPositive();
            assertThat(entry.file().fileSource()).hasValue(org.apache.paimon.manifest.FileSource.APPEND);
        });
        assertThat(changelogFiles.stream().mapToLong(entry -> entry.file().rowCount()).sum()).isEqualTo(2);
        assertThat(table.store().newScan().withSnapshot(latest.id()).plan().files())
                .allSatisfy(entry -> assertThat(entry.file().level()).isPositive());
    }

    @Test
    void aggregationChangelogEqualsPaimonJavas()
    {
        assertUpdate("INSERT INTO summed_trino VALUES (1, 10), (1, 5), (2, 1)", 3);
        assertUpdate("INSERT INTO summed_trino VALUES (1, 7), (3, 4)", 2);
        write("summed_paimon", List.of(GenericRow.of(1, 10L), GenericRow.of(1, 5L), GenericRow.of(2, 1L)));
        write("summed_paimon", List.of(GenericRow.of(1, 7L), GenericRow.of(3, 4L)));

        List<String> ours = changelog("summed_trino");
        assertThat(sorted(ours)).isEqualTo(sorted(List.of(
                "+I(1, 15)", "+I(2, 1)",
                "-U(1, 15)", "+U(1, 22)", "+I(3, 4)")));
        assertThat(ours).isEqualTo(changelog("summed_paimon"));
        // the older record stays at its level; reads take the shallowest, so nothing is counted twice
        assertThat(tableRows("summed_trino")).containsExactly("(1, 22)", "(2, 1)", "(3, 4)");
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "summed_trino"))).containsExactly("+I(1, 22)", "+I(2, 1)", "+I(3, 4)");
        assertThat(fsckViolations("summed_trino")).isEmpty();
    }

    @Test
    void firstRowChangelogHasOnlyNewKeys()
    {
        assertUpdate("INSERT INTO first_trino VALUES (1, 'a'), (2, 'b')", 2);
        assertUpdate("INSERT INTO first_trino VALUES (1, 'x'), (3, 'c')", 2);
        write("first_paimon", List.of(row(1, "a"), row(2, "b")));
        write("first_paimon", List.of(row(1, "x"), row(3, "c")));

        List<String> ours = changelog("first_trino");
        assertThat(sorted(ours)).isEqualTo(List.of("+I(1, a)", "+I(2, b)", "+I(3, c)"));
        assertThat(ours).isEqualTo(changelog("first_paimon"));
        assertThat(tableRows("first_trino")).containsExactly("(1, a)", "(2, b)", "(3, c)");
        assertThat(fsckViolations("first_trino")).isEmpty();
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
        assertThat(changelog("optimized")).containsExactlyInAnyOrder(
                "+I(1, a)", "+I(2, b)",
                "-U(1, a)", "+U(1, a2)", "-D(2, b)", "+I(3, c)");
        assertThat(tableRows("optimized")).containsExactly("(1, a2)", "(3, c)");
        assertThat(fsckViolations("optimized")).isEmpty();

        // an overwrite and its compaction add no changelog, as Paimon's overwrite commit drops it
        List<String> beforeOverwrite = changelog("optimized");
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty("paimon", "insert_existing_partitions_behavior", "OVERWRITE").build(), "INSERT INTO optimized VALUES (5, 'e')", 1);
        assertThat(tableRows("optimized")).containsExactly("(5, e)");
        assertThat(changelog("optimized")).isEqualTo(beforeOverwrite);
        assertThat(fsckViolations("optimized")).isEmpty();
    }

    private void write(String table, List<GenericRow> rows)
    {
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, table), rows);
    }
}
