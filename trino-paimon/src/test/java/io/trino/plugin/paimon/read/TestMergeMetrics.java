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
import io.trino.plugin.paimon.testing.ConnectorMetrics;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

import static io.trino.plugin.paimon.read.PaimonPageSource.FILES_OPENED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_READ_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_VALUES_UNREAD_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.ROWS_RETURNED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SECTIONS_MERGED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SECTIONS_PASSED_THROUGH_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SORTED_RUNS_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.VALUE_PAGES_UNREAD_METRIC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page source's merge metrics, which {@code EXPLAIN ANALYZE VERBOSE} shows, on one-bucket tables whose sorted runs
 * Paimon Java wrote with known key ranges, so each count follows by hand from the runs.
 */
final class TestMergeMetrics
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "merge_metrics";

    TestMergeMetrics()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // keys 1..10, then 5..12: the runs overlap, one section of two runs
        Table overlapping = paimon.createTable(DATABASE, "overlapping", schema());
        PaimonJavaCatalog.write(overlapping, rows(1, 10));
        PaimonJavaCatalog.write(overlapping, rows(5, 12));

        // keys 1..5, then 10..15: disjoint, two sections of one run each
        Table disjoint = paimon.createTable(DATABASE, "disjoint", schema());
        PaimonJavaCatalog.write(disjoint, rows(1, 5));
        PaimonJavaCatalog.write(disjoint, rows(10, 15));
    }

    private static Schema schema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("write-only", "true")
                .build();
    }

    private static List<GenericRow> rows(long first, long last)
    {
        return LongStream.rangeClosed(first, last).mapToObj(id -> GenericRow.of(id, null)).toList();
    }

    @Test
    void overlappingRunsAreMerged()
    {
        assertThat(scanMetrics("SELECT * FROM overlapping")).isEqualTo(Map.of(
                FILES_OPENED_METRIC, 2L,
                RECORDS_READ_METRIC, 10L + 8,
                // Trino's Parquet reader reads batches of 1, 2, 4, 8, ... rows: the older run's keys as 1 | 2 3 |
                // 4 5 6 7 | 8 9 10, and every key of the last batch has a newer record, so its values are never read
                RECORDS_VALUES_UNREAD_METRIC, 3L,
                VALUE_PAGES_UNREAD_METRIC, 0L,
                ROWS_RETURNED_METRIC, 12L,
                SORTED_RUNS_METRIC, 2L,
                SECTIONS_PASSED_THROUGH_METRIC, 0L,
                SECTIONS_MERGED_METRIC, 1L));
    }

    @Test
    void noValuesAreDeferredWhenNoneAreAskedFor()
    {
        // count(*) asks for no value column, so no page has values left unread
        assertThat(scanMetrics("SELECT count(*) FROM overlapping")).containsEntry(RECORDS_VALUES_UNREAD_METRIC, 0L).containsEntry(ROWS_RETURNED_METRIC, 12L);
    }

    @Test
    void disjointRunsArePassedThrough()
    {
        assertThat(scanMetrics("SELECT * FROM disjoint")).isEqualTo(Map.of(
                FILES_OPENED_METRIC, 2L,
                RECORDS_READ_METRIC, 5L + 6,
                RECORDS_VALUES_UNREAD_METRIC, 0L,
                VALUE_PAGES_UNREAD_METRIC, 0L,
                ROWS_RETURNED_METRIC, 11L,
                SORTED_RUNS_METRIC, 2L,
                SECTIONS_PASSED_THROUGH_METRIC, 2L,
                SECTIONS_MERGED_METRIC, 0L));
    }

    @Test
    void explainAnalyzeVerboseShowsThem()
    {
        String plan = (String) computeScalar("EXPLAIN ANALYZE VERBOSE SELECT count(*) FROM overlapping");
        assertThat(plan).contains(SECTIONS_MERGED_METRIC, SORTED_RUNS_METRIC, RECORDS_READ_METRIC, ROWS_RETURNED_METRIC);
    }

    private Map<String, Long> scanMetrics(String sql)
    {
        Map<String, Long> totals = new TreeMap<>(ConnectorMetrics.run(getQueryRunner(), getSession(), sql, "paimon."));
        totals.remove(PaimonPageSource.ROW_GROUPS_READ_METRIC);
        totals.remove(PaimonPageSource.ROW_GROUPS_SKIPPED_METRIC);
        return totals;
    }
}
