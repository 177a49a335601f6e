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
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.apache.paimon.deletionvectors.DeletionVectorsIndexFile.DELETION_VECTORS_INDEX;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lookup compaction that follows a write to a deletion-vector or first-row table: a bucket of 3000 rows in one file
 * at the highest level is not rewritten by later statements; the rows they supersede in it are marked in a deletion
 * vector (counted by hand), and Paimon Java reads the rows computed by hand, and writes and compacts after us.
 */
final class TestLookupCompaction
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "lookup";
    private static final int ROWS = 3000;

    private FaultFs faultFs;

    TestLookupCompaction()
    {
        super(DATABASE);
    }

    @Override
    protected Optional<TrinoFileSystemFactory> fileSystemFactory(Path root)
    {
        faultFs = FaultFs.local(root, 13);
        return Optional.of(faultFs);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        for (String name : List.of("dedup", "dedup_bitmap64", "dedup_race")) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("deletion-vectors.enabled", "true");
            if (name.equals("dedup_bitmap64")) {
                schema.option("deletion-vectors.bitmap64", "true");
            }
            paimon.createTable(DATABASE, name, schema.build());
        }
        paimon.createTable(DATABASE, "partial", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("deletion-vectors.enabled", "true")
                .build());
        paimon.createTable(DATABASE, "aggregation", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("deletion-vectors.enabled", "true")
                .build());
        paimon.createTable(DATABASE, "first_row", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "first-row")
                .build());
    }

    @Test
    void deduplicateMarksSupersededRows()
    {
        deduplicate("dedup");
    }

    @Test
    void deduplicateWithBitmap64()
    {
        deduplicate("dedup_bitmap64");
    }

    private void deduplicate(String table)
    {
        assertUpdate("INSERT INTO %s SELECT x, 'a' FROM UNNEST(sequence(1, %s)) t(x)".formatted(table, ROWS), ROWS);
        String top = topFile(table);
        assertThat(deletedRows(table)).isEmpty();
        List<String> expected = rows(id -> "+I(%s, a)".formatted(id));

        // ids 2 and 4 replaced, 9001 new: two rows of the top file marked
        assertUpdate("INSERT INTO %s VALUES (2, 'B'), (4, 'd'), (9001, 'n')".formatted(table), 3);
        expected.set(1, "+I(2, B)");
        expected.set(3, "+I(4, d)");
        expected.add("+I(9001, n)");
        assertState(table, top, 2, expected);

        assertUpdate("UPDATE %s SET v = 'C' WHERE id = 3".formatted(table), 1);
        expected.set(2, "+I(3, C)");
        assertState(table, top, 3, expected);

        assertUpdate("DELETE FROM %s WHERE id IN (1, 9001)".formatted(table), 2);
        expected.remove("+I(1, a)");
        expected.remove("+I(9001, n)");
        assertState(table, top, 4, expected);

        // 2 lives above the top file since the first INSERT, 6 in it, 9002 is new
        assertUpdate("""
                MERGE INTO %s t USING (VALUES (2, 'x'), (6, 'F'), (9002, 'e')) s(id, v) ON t.id = s.id
                WHEN MATCHED AND s.id = 2 THEN DELETE
                WHEN MATCHED THEN UPDATE SET v = s.v
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)""".formatted(table), 3);
        expected.remove("+I(2, B)");
        expected.set(expected.indexOf("+I(6, a)"), "+I(6, F)");
        expected.add("+I(9002, e)");
        assertState(table, top, 5, expected);

        // Paimon Java writes and compacts after us, marking rows of the files we wrote and of the top file
        PaimonJavaCatalog.write(paimonTable(table), List.of(GenericRow.of(4, s("P")), GenericRow.of(7, s("Q"))));
        expected.set(expected.indexOf("+I(4, d)"), "+I(4, P)");
        expected.set(expected.indexOf("+I(7, a)"), "+I(7, Q)");
        assertRowsInPaimonJavaAndTrino(table, expected);
        assertThat(deletedRows(table).get(top)).isEqualTo(6L);
        assertUpdate("INSERT INTO %s VALUES (7, 'R'), (8, 'S')".formatted(table), 2);
        expected.set(expected.indexOf("+I(7, Q)"), "+I(7, R)");
        expected.set(expected.indexOf("+I(8, a)"), "+I(8, S)");
        assertState(table, top, 7, expected);
        assertIntact(table);
    }

    @Test
    void partialUpdateMergesTheRowFound()
    {
        assertUpdate("INSERT INTO partial SELECT x, 'a', x FROM UNNEST(sequence(1, %s)) t(x)".formatted(ROWS), ROWS);
        String top = topFile("partial");
        List<String> expected = rows(id -> "+I(%s, a, %s)".formatted(id, id));

        // a NULL keeps the value found above
        assertUpdate("INSERT INTO partial VALUES (1, NULL, 7), (2, 'b', NULL), (9001, 'n', NULL)", 3);
        expected.set(0, "+I(1, a, 7)");
        expected.set(1, "+I(2, b, 2)");
        expected.add("+I(9001, n, null)");
        assertState("partial", top, 2, expected);

        assertUpdate("UPDATE partial SET b = 30 WHERE id IN (3, 9001)", 2);
        expected.set(2, "+I(3, a, 30)");
        expected.set(expected.indexOf("+I(9001, n, null)"), "+I(9001, n, 30)");
        assertState("partial", top, 3, expected);

        PaimonJavaCatalog.write(paimonTable("partial"), List.of(GenericRow.of(5, s("p"), null)));
        expected.set(4, "+I(5, p, 5)");
        assertRowsInPaimonJavaAndTrino("partial", expected);
        assertUpdate("INSERT INTO partial VALUES (5, NULL, 50)", 1);
        expected.set(4, "+I(5, p, 50)");
        assertRowsInPaimonJavaAndTrino("partial", expected);
        assertThat(names("partial", 5)).containsExactly(top);
        assertIntact("partial");
    }

    @Test
    void aggregationAddsTheRowFound()
    {
        assertUpdate("INSERT INTO aggregation SELECT x, x FROM UNNEST(sequence(1, %s)) t(x)".formatted(ROWS), ROWS);
        String top = topFile("aggregation");
        List<String> expected = rows(id -> "+I(%s, %s)".formatted(id, id));

        assertUpdate("INSERT INTO aggregation VALUES (1, 5), (2, 5), (9001, 1)", 3);
        expected.set(0, "+I(1, 6)");
        expected.set(1, "+I(2, 7)");
        expected.add("+I(9001, 1)");
        assertState("aggregation", top, 2, expected);

        // 1 lives above the top file now: the new value joins it there, nothing more is marked in the top file
        assertUpdate("INSERT INTO aggregation VALUES (1, 10), (3, 100)", 2);
        expected.set(0, "+I(1, 16)");
        expected.set(2, "+I(3, 103)");
        assertState("aggregation", top, 3, expected);

        PaimonJavaCatalog.write(paimonTable("aggregation"), List.of(GenericRow.of(3, 1000L)));
        expected.set(2, "+I(3, 1103)");
        assertRowsInPaimonJavaAndTrino("aggregation", expected);
        assertIntact("aggregation");
    }

    @Test
    void firstRowDropsNewerRecordsOfKnownKeys()
    {
        assertUpdate("INSERT INTO first_row SELECT x, 'a' FROM UNNEST(sequence(1, %s)) t(x)".formatted(ROWS), ROWS);
        String top = topFile("first_row");
        List<String> expected = rows(id -> "+I(%s, a)".formatted(id));

        // 2 and 3 exist: only 9001 is written, the top file is left as it is, and no deletion vector is needed
        assertUpdate("INSERT INTO first_row VALUES (2, 'B'), (3, 'C'), (9001, 'n')", 3);
        expected.add("+I(9001, n)");
        assertRowsInPaimonJavaAndTrino("first_row", expected);
        assertThat(names("first_row", 5)).containsExactly(top);
        assertThat(computeActual("SELECT sum(record_count) FROM \"first_row$files\" WHERE level BETWEEN 1 AND 4").getOnlyValue()).isEqualTo(1L);
        assertThat(computeActual("SELECT count(*) FROM \"first_row$files\" WHERE level = 0").getOnlyValue()).isEqualTo(0L);

        assertUpdate("INSERT INTO first_row VALUES (9001, 'N'), (9002, 'm')", 2);
        expected.add("+I(9002, m)");
        assertRowsInPaimonJavaAndTrino("first_row", expected);
        PaimonJavaCatalog.write(paimonTable("first_row"), List.of(GenericRow.of(9002, s("M")), GenericRow.of(9003, s("o"))));
        expected.add("+I(9003, o)");
        assertRowsInPaimonJavaAndTrino("first_row", expected);
        assertThat(names("first_row", 5)).containsExactly(top);
        assertThat(deletedRows("first_row")).isEmpty();
        assertIntact("first_row");
    }

    /**
     * Paimon Java writes and compacts the bucket while our compaction after an INSERT is under way: ours loses the
     * race (the level-0 file it moves up is gone) and is done again from the newest snapshot, and no row is lost.
     */
    @Test
    void concurrentCompactionOfTheBucketLosesNoRow()
            throws Exception
    {
        assertUpdate("INSERT INTO dedup_race SELECT x, 'a' FROM UNNEST(sequence(1, %s)) t(x)".formatted(ROWS), ROWS);
        List<String> expected = rows(id -> "+I(%s, a)".formatted(id));
        // the compaction after the commit, on the coordinator: in the page sinks it would run before the statement's
        // commit, and Paimon Java's commit would make it stale instead of making it lose a race
        // (TestCompactionInPageSinks.rivalCommitBeforeTheCommitMakesTheCoordinatorCompact)
        Session coordinatorCompacts = Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "false")
                .build();
        // the statement's rows are committed; its compaction holds before writing the deletion vectors
        Optional<RuntimeException> failure = new HeldRace(faultFs, Operation.CREATE_OR_OVERWRITE, "**/dedup_race/index/index-*").run(
                () -> getQueryRunner().execute(coordinatorCompacts, "INSERT INTO dedup_race VALUES (2, 'B'), (9001, 'n')"),
                () -> PaimonJavaCatalog.write(paimonTable("dedup_race"), List.of(GenericRow.of(3, s("P")), GenericRow.of(9002, s("q")))));
        assertThat(failure).isEmpty();
        expected.set(1, "+I(2, B)");
        expected.set(2, "+I(3, P)");
        expected.add("+I(9001, n)");
        expected.add("+I(9002, q)");
        assertRowsInPaimonJavaAndTrino("dedup_race", expected);
        assertIntact("dedup_race");
    }

    /** Both readers see the rows, no level-0 file is left, the top file is live and has the vector counted by hand. */
    private void assertState(String table, String top, long deletedInTop, List<String> expected)
    {
        assertRowsInPaimonJavaAndTrino(table, expected);
        assertThat(computeActual("SELECT count(*) FROM \"%s$files\" WHERE level = 0".formatted(table)).getOnlyValue())
                .as("level-0 files of %s", table)
                .isEqualTo(0L);
        assertThat(names(table, 5)).as("files at the highest level of %s", table).containsExactly(top);
        assertThat(deletedRows(table).get(top)).as("rows of %s deleted in its top file", table).isEqualTo(deletedInTop);
    }

    private void assertIntact(String table)
    {
        assertThat(fsckViolations(table)).as("fsck of %s", table).isEmpty();
    }

    private String topFile(String table)
    {
        List<String> names = names(table, 5);
        assertThat(names).as("files at the highest level of %s", table).hasSize(1);
        return names.getFirst();
    }

    private List<String> names(String table, int level)
    {
        return computeActual("SELECT file_path FROM \"%s$files\" WHERE level = %s".formatted(table, level)).getOnlyColumn()
                .map(path -> ((String) path).substring(((String) path).lastIndexOf('/') + 1))
                .toList();
    }

    /** The deleted rows of each data file with a deletion vector, as Paimon Java reads them. */
    private Map<String, Long> deletedRows(String table)
    {
        IndexFileHandler index = ((FileStoreTable) paimonTable(table)).store().newIndexFileHandler();
        Map<String, Long> deleted = new HashMap<>();
        for (IndexManifestEntry entry : index.scan(DELETION_VECTORS_INDEX)) {
            IndexFileMeta file = entry.indexFile();
            for (Map.Entry<String, DeletionVector> vector : index.readAllDeletionVectors(entry).entrySet()) {
                assertThat(deleted.put(vector.getKey(), vector.getValue().getCardinality())).as("vectors of %s in %s", vector.getKey(), file.fileName()).isNull();
            }
        }
        return deleted;
    }

    private static List<String> rows(IntFunction<String> row)
    {
        return new ArrayList<>(IntStream.rangeClosed(1, ROWS).mapToObj(row).toList());
    }

    private Table paimonTable(String name)
    {
        return paimon().getTable(DATABASE, name);
    }

    private static BinaryString s(String value)
    {
        return BinaryString.fromString(value);
    }
}
