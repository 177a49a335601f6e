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
package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.RowText;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code SELECT} through Trino returns exactly the rows Paimon Java reads from the same snapshot: several level-0
 * runs, mixed levels after a full compaction, deletion vectors, several schema versions, an append table.
 */
final class TestPaimonReads
        extends AbstractPaimonJavaQueryTest
{
    TestPaimonReads()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        new PaimonTestTables(paimon, root().toString()).createAll();
    }

    @Test
    void selectAllEqualsPaimonJava()
    {
        for (String table : PaimonTestTables.ALL) {
            List<String> expected = RowText.paimonText(paimon().getTable(DATABASE, table));
            assertThat(expected).as(table).isNotEmpty();
            assertThat(RowText.paimonText(computeActual("SELECT * FROM " + table))).as(table).isEqualTo(expected);
        }
    }

    @Test
    void columnsRenamedAndDroppedAfterFilesWereWritten()
    {
        // files of schema 0 and 1 know full_name as name, and still hold the dropped score
        assertThat(computeActual("SELECT column_name FROM information_schema.columns WHERE table_name = '%s'".formatted(PaimonTestTables.EVOLVED)).getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("dt", "id", "full_name", "extra");
        // rows of each schema version, counted in what Paimon Java reads (columns dt, id, full_name, extra)
        List<List<Object>> rows = PaimonJavaValues.readValues(paimon().getTable(DATABASE, PaimonTestTables.EVOLVED));
        long renamed = rows.stream().filter(row -> "renamed".equals(row.get(2))).count();
        long written = rows.stream().filter(row -> row.get(2) instanceof String name && name.startsWith("n")).count();
        assertThat(computeScalar("SELECT count(*) FROM %s WHERE full_name = 'renamed'".formatted(PaimonTestTables.EVOLVED))).isEqualTo(renamed);
        assertThat(computeScalar("SELECT count(*) FROM %s WHERE full_name LIKE 'n%%'".formatted(PaimonTestTables.EVOLVED))).isEqualTo(written);
        // and the three versions all still have rows, so the counts above are about each of them
        assertThat(computeScalar("SELECT count(*) FROM %s WHERE full_name = 'after'".formatted(PaimonTestTables.EVOLVED)))
                .isEqualTo(rows.stream().filter(row -> "after".equals(row.get(2))).count());
        assertThat(List.of(renamed, written)).allMatch(count -> count > 0);
    }

    @Test
    void projectionsAndCountsEqualPaimonJava()
    {
        for (String table : List.of(PaimonTestTables.MULTI_COMMIT, PaimonTestTables.COMPACTED, PaimonTestTables.DELETION_VECTORS)) {
            List<String> expected = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table));
            assertThat(computeScalar("SELECT count(*) FROM " + table)).isEqualTo((long) expected.size());
            // the name column alone, and a column order other than the table's
            List<String> names = expected.stream().map(row -> row.split(", ")[2]).sorted().toList();
            assertThat(computeActual("SELECT name FROM " + table).getOnlyColumn().map(String.class::cast).sorted().toList()).isEqualTo(names);
            List<String> reordered = computeActual("SELECT score, id, dt FROM " + table).getMaterializedRows().stream()
                    .map(row -> row.getField(2) + "|" + row.getField(1) + "|" + row.getField(0))
                    .sorted()
                    .toList();
            assertThat(reordered).isEqualTo(expected.stream()
                    .map(row -> row.substring(3, row.length() - 1).split(", "))
                    .map(fields -> fields[0] + "|" + fields[1] + "|" + fields[3])
                    .sorted()
                    .toList());
        }
    }
}
