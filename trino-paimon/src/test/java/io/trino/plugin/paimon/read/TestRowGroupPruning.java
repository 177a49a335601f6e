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
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.ScanStatistics;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parquet row groups and pages of data files written by Paimon Java with small row groups are skipped by
 * primary-key predicates, and by value predicates only where rows are read without merging; the rows read equal
 * Paimon Java's rows filtered by the same predicate.
 */
final class TestRowGroupPruning
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "row_groups";
    private static final int ROWS = 20_000;

    TestRowGroupPruning()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // one sorted run: the bucket is read without merging
        Table singleRun = paimon.createTable(DATABASE, "single_run", keyedSchema());
        PaimonJavaCatalog.write(singleRun, rows(0, ROWS, 1, 0));

        // two sorted runs: the second changes the value of every even key, so the bucket is merged
        Table twoRuns = paimon.createTable(DATABASE, "two_runs", keyedSchema());
        PaimonJavaCatalog.write(twoRuns, rows(0, ROWS, 1, 0));
        PaimonJavaCatalog.write(twoRuns, rows(0, ROWS, 2, 1_000_000));

        Table append = paimon.createTable(DATABASE, "append", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .options(smallRowGroups())
                .build());
        PaimonJavaCatalog.write(append, rows(0, ROWS, 1, 0));
        PaimonJavaCatalog.write(append, rows(ROWS, 2 * ROWS, 1, 0));
    }

    private static Schema keyedSchema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("write-only", "true")
                .options(smallRowGroups())
                .build();
    }

    // Parquet checks the row group's size every 100 rows at first: row groups of a few hundred rows
    private static Map<String, String> smallRowGroups()
    {
        return Map.of("parquet.block.size", "2048", "parquet.page.size", "512");
    }

    private static List<GenericRow> rows(long from, long to, int step, int valueOffset)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = from; id < to; id += step) {
            rows.add(GenericRow.of(id, BinaryString.fromString("name-" + id), (int) id + valueOffset));
        }
        return rows;
    }

    @Test
    void pointLookupReadsOneRowGroupOfASortedRun()
    {
        ScanStatistics whole = assertRows("single_run", "id >= 0", _ -> true);
        ScanStatistics lookup = assertRows("single_run", "id = 4242", fields -> fields.get(0).equals("4242"));
        assertThat(whole.rowGroupsSkipped()).isZero();
        assertThat(whole.rowGroupsRead()).isGreaterThan(10);
        // the run is sorted by id: one row group holds 4242, and within it the pages around it
        assertThat(lookup.rowGroupsRead()).isEqualTo(1);
        assertThat(lookup.rowGroupsSkipped()).isEqualTo(whole.rowGroupsRead() - 1);
        // the reader returns only the pages the column index leaves (bytes are no measure here: Trino's reader
        // loads a file below 3 MB whole)
        assertThat(lookup.physicalInputRows()).isLessThan(whole.physicalInputRows() / 10);
    }

    @Test
    void keyPredicatesSkipRowGroupsOfEveryRunBeforeTheMerge()
    {
        ScanStatistics whole = assertRows("two_runs", "id >= 0", _ -> true);
        ScanStatistics lookup = assertRows("two_runs", "id = 4242", fields -> fields.get(0).equals("4242"));
        // one row group in each of the two runs
        assertThat(lookup.rowGroupsRead()).isEqualTo(2);
        assertThat(lookup.rowGroupsSkipped()).isEqualTo(whole.rowGroupsRead() - 2);
        ScanStatistics range = assertRows("two_runs", "id BETWEEN 10000 AND 10100", fields -> between(fields.get(0), 10000, 10100));
        assertThat(range.rowGroupsSkipped()).isGreaterThan(range.rowGroupsRead());
        assertRows("two_runs", "id IN (1, 2, 19998, 19999, 20000)", fields -> Set.of("1", "2", "19998", "19999").contains(fields.get(0)));
    }

    @Test
    void valuePredicatesNeverSkipRowGroupsOfAMergedBucket()
    {
        // 4242's value was 4242 in the first run and is 1004242 now: skipping the second run's row groups by value
        // would bring the old row back
        ScanStatistics old = assertRows("two_runs", "v = 4242", _ -> false);
        assertThat(old.rowGroupsSkipped()).isZero();
        assertRows("two_runs", "v = 4243", fields -> fields.get(0).equals("4243"));
        assertRows("two_runs", "v BETWEEN 1004000 AND 1004010", fields -> between(fields.get(2), 1004000, 1004010));
        assertRows("two_runs", "v < 10 AND id > 3", fields -> between(fields.get(0), 4, 9) && Long.parseLong(fields.get(0)) % 2 == 1);
    }

    @Test
    void valuePredicatesSkipRowGroupsWhereRowsAreReadWithoutMerging()
    {
        // a single sorted run holds each key once: its records are its rows
        ScanStatistics keyed = assertRows("single_run", "v = 4242", fields -> fields.get(2).equals("4242"));
        assertThat(keyed.rowGroupsRead()).isEqualTo(1);
        assertThat(keyed.rowGroupsSkipped()).isGreaterThan(10);
        ScanStatistics append = assertRows("append", "v BETWEEN 30000 AND 30010", fields -> between(fields.get(2), 30000, 30010));
        assertThat(append.rowGroupsRead()).isBetween(1L, 2L);
        assertThat(append.rowGroupsSkipped()).isGreaterThan(20);
        assertRows("append", "name = 'name-123'", fields -> fields.get(1).equals("name-123"));
    }

    @Test
    void limitStopsPlanningAndReading()
    {
        Set<String> appendRows = Set.copyOf(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "append")));
        ScanStatistics whole = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM append");
        ScanStatistics limited = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM append LIMIT 5");
        assertThat(limited.result().getRowCount()).isEqualTo(5);
        limited.result().getMaterializedRows().forEach(row -> assertThat(appendRows).contains("+I" + RowText.paimonText(row)));
        // each of the table's two files holds more than 5 rows: one is enough
        assertThat(whole.filesOpened()).isEqualTo(2);
        assertThat(limited.splits()).isEqualTo(1);
        assertThat(limited.filesOpened()).isEqualTo(1);

        // a merged bucket stops merging once it has returned the rows asked for
        Set<String> mergedRows = Set.copyOf(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "two_runs")));
        ScanStatistics limitedMerged = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM two_runs LIMIT 5");
        assertThat(limitedMerged.result().getRowCount()).isEqualTo(5);
        limitedMerged.result().getMaterializedRows().forEach(row -> assertThat(mergedRows).contains("+I" + RowText.paimonText(row)));
        assertThat(limitedMerged.physicalInputRows()).isEqualTo(5);
    }

    // the rows through Trino equal Paimon Java's rows of the whole table that the predicate (written in Java) keeps
    private ScanStatistics assertRows(String table, String predicate, Predicate<List<String>> expected)
    {
        List<String> expectedRows = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table)).stream()
                .filter(row -> expected.test(Arrays.asList(row.substring(3, row.length() - 1).split(", "))))
                .toList();
        ScanStatistics statistics = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM %s WHERE %s".formatted(table, predicate));
        List<String> actual = statistics.result().getMaterializedRows().stream()
                .map(row -> "+I" + RowText.paimonText(row))
                .sorted()
                .toList();
        assertThat(actual).as("%s WHERE %s", table, predicate).isEqualTo(expectedRows);
        return statistics;
    }

    private static boolean between(String value, long low, long high)
    {
        long number = Long.parseLong(value);
        return number >= low && number <= high;
    }
}
