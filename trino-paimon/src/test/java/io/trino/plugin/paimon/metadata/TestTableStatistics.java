package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

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
