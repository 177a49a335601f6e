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
package io.trino.plugin.paimon.metadata;

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.stats.ColStats;
import org.apache.paimon.stats.Statistics;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code SHOW STATS} of tables Trino wrote, against exact answers: row counts and ranges computed by hand from the
 * rows inserted, and the merged row count read back by {@code count(*)}. A primary-key table's row count is an
 * estimate that must lie between its merged rows and its records (the documented bound), and is exact once the
 * table is fully compacted.
 */
final class TestTableStatistics
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "stats";

    TestTableStatistics()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon) {}

    @Test
    void appendTableCountsAndRanges()
    {
        assertUpdate("CREATE TABLE events (id bigint, amount double, day date, note varchar)");
        assertUpdate("INSERT INTO events VALUES (1, 2.5, DATE '2024-01-01', 'a'), (2, NULL, DATE '2024-01-03', NULL)", 2);
        assertUpdate("INSERT INTO events VALUES (3, -1.5, DATE '2024-01-02', 'c'), (4, 10.0, NULL, 'd')", 2);

        assertThat(rowCount("events")).isEqualTo(4.0);
        assertThat(column("events", "id")).containsExactly(0.0, "1", "4");
        assertThat(column("events", "amount")).containsExactly(0.25, "-1.5", "10.0");
        assertThat(column("events", "day")).containsExactly(0.25, "2024-01-01", "2024-01-03");
        // no range for strings, only the nulls fraction
        assertThat(column("events", "note")).containsExactly(0.25, null, null);
    }

    @Test
    void primaryKeyRowCountLiesBetweenRowsAndRecords()
    {
        assertUpdate("CREATE TABLE orders (id bigint, amount integer) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO orders VALUES (1, 10), (2, 20)", 2);
        assertUpdate("INSERT INTO orders VALUES (2, 25), (3, NULL)", 2);

        long rows = (long) computeActual("SELECT count(*) FROM orders").getOnlyValue();
        assertThat(rows).isEqualTo(3);
        // 4 records, 3 rows: the estimate counts every record that is not a deletion
        assertThat(rowCount("orders")).isBetween(3.0, 4.0).isEqualTo(4.0);
        // the merged amounts 10, 25, NULL lie within the records' range
        assertThat(column("orders", "amount")).containsExactly(0.25, "10", "25");
        assertThat(rowCount("orders FOR VERSION AS OF 1")).isEqualTo(2.0);

        PaimonJavaCatalog.compact(paimon().getTable(DATABASE, "orders"), root(), 1, _ -> true);
        assertThat(rowCount("orders")).isEqualTo(3.0);
        assertThat(column("orders", "amount")).containsExactly(1.0 / 3, "10", "25");
    }

    @Test
    void aggregatedColumnsHaveNoRange()
    {
        assertUpdate("CREATE TABLE totals (id bigint, total bigint) WITH (primary_key = ARRAY['id'], bucket = 1, merge_engine = 'aggregation', " +
                "options = ARRAY['fields.total.aggregate-function=sum'])");
        assertUpdate("INSERT INTO totals VALUES (1, 10), (2, 20)", 2);
        assertUpdate("INSERT INTO totals VALUES (1, 15)", 1);
        // the merged total of key 1 is 25, outside every record's [10, 20]: no range may be claimed
        assertThat(computeActual("SELECT max(total) FROM totals").getOnlyValue()).isEqualTo(25L);
        assertThat(column("totals", "total")).containsExactly(0.0, null, null);
        assertThat(column("totals", "id")).containsExactly(0.0, "1", "2");
    }

    @Test
    void partitionFilterNarrowsTheCount()
    {
        assertUpdate("CREATE TABLE daily (id bigint, dt varchar) WITH (partitioned_by = ARRAY['dt'])");
        assertUpdate("INSERT INTO daily VALUES (1, 'a'), (2, 'a'), (3, 'b')", 3);
        assertThat(rowCount("daily")).isEqualTo(3.0);
        assertThat(statisticsRow("daily", "dt").getField(2)).isEqualTo(2.0);
        // the partition pruned away is not counted, and the one read holds one value of dt: 2 rows, not 3 / 2
        assertThat(rowCount("daily WHERE dt = 'a'")).isEqualTo(2.0);
    }

    @Test
    void analyzeWritesStatisticsPaimonReads()
    {
        assertUpdate("CREATE TABLE analyzed (id bigint, score integer, price decimal(10, 2), day date, name varchar) " +
                "WITH (primary_key = ARRAY['id'], bucket = 2)");
        assertUpdate("INSERT INTO analyzed VALUES (1, 5, 1.50, DATE '2024-01-01', 'ab'), (2, 7, 2.25, DATE '2024-01-05', NULL), (3, 5, NULL, DATE '2024-01-02', 'abcd')", 3);
        // key 2 updated, key 4 added: 4 merged rows of 5 records
        assertUpdate("INSERT INTO analyzed VALUES (2, 9, 3.00, DATE '2024-01-03', 'xyz'), (4, NULL, 0.75, DATE '2024-01-04', 'a')", 2);
        assertThat(rowCount("analyzed")).isEqualTo(5.0);
        assertUpdate("ANALYZE analyzed", 4);

        // Paimon Java finds the statistics in its latest snapshot and reads them back, values typed by the schema
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "analyzed");
        assertThat(table.snapshotManager().latestSnapshot().commitKind()).isEqualTo(Snapshot.CommitKind.ANALYZE);
        Statistics statistics = table.statistics().orElseThrow();
        assertThat(statistics.snapshotId()).isEqualTo(2);
        assertThat(statistics.mergedRecordCount()).hasValue(4);
        // the merged rows: scores 5, 9, 5, NULL; prices 1.50, 3.00, NULL, 0.75; days 01-01, 01-03, 01-02, 01-04; names ab, xyz, abcd, a
        assertColumn(statistics.colStats().get("score"), 2, 5, 9, 1);
        assertColumn(statistics.colStats().get("price"), 3, Decimal.fromBigDecimal(new BigDecimal("0.75"), 10, 2), Decimal.fromBigDecimal(new BigDecimal("3.00"), 10, 2), 1);
        assertColumn(statistics.colStats().get("day"), 4, (int) LocalDate.parse("2024-01-01").toEpochDay(), (int) LocalDate.parse("2024-01-04").toEpochDay(), 0);
        ColStats<?> name = statistics.colStats().get("name");
        assertThat(name.distinctCount()).hasValue(4);
        assertThat(name.nullCount()).hasValue(0);
        assertThat(name.maxLen()).hasValue(4);
        // 10 bytes over 4 values
        assertThat(name.avgLen()).hasValue(2);
        assertThat(name.min()).isEmpty();

        // SHOW STATS takes the merged row count and distinct counts from the analysis
        assertThat(rowCount("analyzed")).isEqualTo(4.0);
        assertThat(statisticsRow("analyzed", "score").getField(2)).isEqualTo(2.0);
        assertThat(statisticsRow("analyzed", "score").getField(3)).isEqualTo(0.25);
        assertThat(statisticsRow("analyzed", "name").getField(2)).isEqualTo(4.0);

        // new data makes the row count stale: back to the records; distinct counts still guide, and are carried forward
        assertUpdate("INSERT INTO analyzed VALUES (5, 1, 1.00, DATE '2024-01-06', 'q')", 1);
        assertThat(rowCount("analyzed")).isEqualTo(6.0);
        assertThat(statisticsRow("analyzed", "score").getField(2)).isEqualTo(2.0);
        table = (FileStoreTable) paimon().getTable(DATABASE, "analyzed");
        assertThat(table.snapshotManager().latestSnapshot().commitKind()).isEqualTo(Snapshot.CommitKind.APPEND);
        assertThat(table.statistics()).isPresent();

        // as in Paimon, a schema change ends the inheritance
        assertUpdate("ALTER TABLE analyzed ADD COLUMN extra integer");
        assertUpdate("INSERT INTO analyzed VALUES (6, 1, 1.00, DATE '2024-01-07', 'r', 1)", 1);
        assertThat(((FileStoreTable) paimon().getTable(DATABASE, "analyzed")).statistics()).isEmpty();
        assertThat(statisticsRow("analyzed", "score").getField(2)).isNull();
    }

    @Test
    void showStatsReadsStatisticsPaimonWrote()
            throws Exception
    {
        assertUpdate("CREATE TABLE spark_analyzed (id bigint, kind varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO spark_analyzed VALUES (1, 'a'), (2, 'b'), (3, 'a')", 3);
        assertUpdate("INSERT INTO spark_analyzed VALUES (3, 'b')", 1);
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "spark_analyzed");
        long analyzedSnapshot = table.snapshotManager().latestSnapshotId();
        long schemaId = table.schema().id();
        // what Spark's ANALYZE would record: 3 merged rows, kind with 2 distinct values
        ColStats<?> kind = ColStats.newColStats(1, 2L, null, null, 0L, 1L, 1L);
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.updateStatistics(new Statistics(analyzedSnapshot, schemaId, 3L, 100L, Map.of("kind", kind)));
        }
        assertThat(rowCount("spark_analyzed")).isEqualTo(3.0);
        assertThat(statisticsRow("spark_analyzed", "kind").getField(2)).isEqualTo(2.0);
        // a filter on the key keeps the analyzed count in the share of records it leaves (all of them here)
        assertThat(rowCount("spark_analyzed WHERE id > 0")).isEqualTo(3.0);
    }

    @Test
    void createTableAsRecordsStatisticsAsAnalyzeWould()
    {
        assertUpdate("CREATE TABLE loaded WITH (primary_key = ARRAY['id'], bucket = 2) AS " +
                "SELECT * FROM (VALUES (1, 'a', 5, DATE '2024-01-02'), (2, 'bb', 7, NULL), (3, 'a', NULL, DATE '2024-01-09'), (4, 'dddd', 5, DATE '2024-01-01')) t(id, kind, score, day)", 4);

        // the snapshot of the CREATE TABLE AS names the statistics, and Paimon Java reads them as Spark's ANALYZE's
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "loaded");
        assertThat(table.snapshotManager().latestSnapshot().commitKind()).isEqualTo(Snapshot.CommitKind.APPEND);
        Statistics statistics = table.statistics().orElseThrow();
        assertThat(statistics.snapshotId()).isEqualTo(table.snapshotManager().latestSnapshotId());
        // a primary-key table's written rows may replace each other: no merged count is claimed
        assertThat(statistics.mergedRecordCount()).isEmpty();
        assertColumn(statistics.colStats().get("id"), 4, 1, 4, 0);
        assertColumn(statistics.colStats().get("score"), 2, 5, 7, 1);
        assertColumn(statistics.colStats().get("day"), 3, (int) LocalDate.parse("2024-01-01").toEpochDay(), (int) LocalDate.parse("2024-01-09").toEpochDay(), 1);
        ColStats<?> kind = statistics.colStats().get("kind");
        assertThat(kind.distinctCount()).hasValue(3);
        assertThat(kind.maxLen()).hasValue(4);
        // 1 + 2 + 1 + 4 bytes over 4 values
        assertThat(kind.avgLen()).hasValue(2);

        // the optimizer gets the distinct counts without an ANALYZE
        assertThat(statisticsRow("loaded", "kind").getField(2)).isEqualTo(3.0);
        assertThat(statisticsRow("loaded", "score").getField(2)).isEqualTo(2.0);
        // and the size of a string column: an average of 2 bytes over the 4 rows
        assertThat(statisticsRow("loaded", "kind").getField(1)).isEqualTo(8.0);
    }

    @Test
    void insertsMergeTheirStatisticsIntoTheTables()
    {
        assertUpdate("CREATE TABLE appended (id bigint, price double, tag varchar)");
        assertUpdate("INSERT INTO appended VALUES (1, 2.5, 'x'), (2, NULL, 'yy'), (3, 1.0, 'x')", 3);
        Statistics first = ((FileStoreTable) paimon().getTable(DATABASE, "appended")).statistics().orElseThrow();
        // the first rows of an append table are its rows: their count and size are the table's
        assertThat(first.mergedRecordCount()).hasValue(3);
        assertThat(first.mergedRecordSize()).isPresent();
        assertColumn(first.colStats().get("price"), 2, 1.0, 2.5, 1);

        assertUpdate("INSERT INTO appended VALUES (4, 9.0, 'zzzz'), (5, NULL, NULL)", 2);
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "appended");
        Statistics merged = table.statistics().orElseThrow();
        assertThat(merged.snapshotId()).isEqualTo(table.snapshotManager().latestSnapshotId());
        assertThat(merged.mergedRecordCount()).isEmpty();
        // distinct counts: the larger of 3 and 2 ids; nulls add up; bounds widen to both inserts'
        assertColumn(merged.colStats().get("id"), 3, 1L, 5L, 0);
        assertColumn(merged.colStats().get("price"), 2, 1.0, 9.0, 2);
        ColStats<?> tag = merged.colStats().get("tag");
        assertThat(tag.distinctCount()).hasValue(2);
        assertThat(tag.nullCount()).hasValue(1);
        assertThat(tag.maxLen()).hasValue(4);
        // the file keeps whole averages: 4 bytes over 3 values recorded as 1, then (1 × 3 + 4 × 1) / 4 values
        assertThat(first.colStats().get("tag").avgLen()).hasValue(1);
        assertThat(tag.avgLen()).hasValue(1);
        assertThat(statisticsRow("appended", "id").getField(2)).isEqualTo(3.0);
    }

    @Test
    void writesRecordNoStatisticsTheyCannotStandBy()
    {
        // rows Paimon Java wrote were never described: an INSERT's own rows would describe only a part of the table
        assertUpdate("CREATE TABLE shared (id bigint, v varchar)");
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "shared"), List.of(GenericRow.of(1L, BinaryString.fromString("a"))));
        assertUpdate("INSERT INTO shared VALUES (2, 'b')", 1);
        assertThat(((FileStoreTable) paimon().getTable(DATABASE, "shared")).statistics()).isEmpty();

        // an aggregation merges records into rows none of them is
        assertUpdate("CREATE TABLE summed WITH (primary_key = ARRAY['id'], bucket = 1, merge_engine = 'aggregation', " +
                "options = ARRAY['fields.total.aggregate-function=sum']) AS SELECT * FROM (VALUES (1, 10), (1, 15)) t(id, total)", 2);
        assertThat(((FileStoreTable) paimon().getTable(DATABASE, "summed")).statistics()).isEmpty();

        Session noStatistics = Session.builder(getSession()).setCatalogSessionProperty("paimon", "collect_statistics_on_write", "false").build();
        assertUpdate(noStatistics, "CREATE TABLE unmeasured AS SELECT 1 id", 1);
        assertThat(((FileStoreTable) paimon().getTable(DATABASE, "unmeasured")).statistics()).isEmpty();
    }

    @Test
    void analyzeOfChosenColumns()
    {
        assertUpdate("CREATE TABLE some_columns (id bigint, a integer, b integer)");
        assertUpdate("INSERT INTO some_columns VALUES (1, 1, 1), (2, 1, 2)", 2);
        assertUpdate("ANALYZE some_columns WITH (columns = ARRAY['b'])", 2);
        Statistics statistics = ((FileStoreTable) paimon().getTable(DATABASE, "some_columns")).statistics().orElseThrow();
        assertThat(statistics.colStats().keySet()).containsExactly("b");
        assertThat(statistics.colStats().get("b").distinctCount()).hasValue(2);
        assertQueryFails("ANALYZE some_columns WITH (columns = ARRAY['nope'])", ".*Invalid columns specified for analysis of Paimon table stats.some_columns: nope");
    }

    private static void assertColumn(ColStats<?> column, long distinct, Object min, Object max, long nulls)
    {
        assertThat(column.distinctCount()).hasValue(distinct);
        assertThat(column.min().map(Object.class::cast)).contains(min);
        assertThat(column.max().map(Object.class::cast)).contains(max);
        assertThat(column.nullCount()).hasValue(nulls);
    }

    private double rowCount(String from)
    {
        MaterializedResult stats = computeActual("SHOW STATS FOR (SELECT * FROM %s)".formatted(from));
        MaterializedRow summary = stats.getMaterializedRows().stream().filter(row -> row.getField(0) == null).findFirst().orElseThrow();
        return (double) summary.getField(4);
    }

    // nulls fraction, low value, high value
    private List<Object> column(String table, String column)
    {
        MaterializedRow row = statisticsRow(table, column);
        return Arrays.asList(row.getField(3), row.getField(5), row.getField(6));
    }

    private MaterializedRow statisticsRow(String table, String column)
    {
        MaterializedResult stats = computeActual("SHOW STATS FOR " + table);
        return stats.getMaterializedRows().stream().filter(candidate -> column.equals(candidate.getField(0))).findFirst().orElseThrow();
    }
}
