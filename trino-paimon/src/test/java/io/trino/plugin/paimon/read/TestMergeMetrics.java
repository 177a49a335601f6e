package io.trino.plugin.paimon.read;

import io.trino.execution.QueryStats;
import io.trino.operator.OperatorStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.spi.metrics.Metric;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
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
import static io.trino.plugin.paimon.read.PaimonPageSource.ROWS_RETURNED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SECTIONS_MERGED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SECTIONS_PASSED_THROUGH_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.SORTED_RUNS_METRIC;
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
                ROWS_RETURNED_METRIC, 12L,
                SORTED_RUNS_METRIC, 2L,
                SECTIONS_PASSED_THROUGH_METRIC, 0L,
                SECTIONS_MERGED_METRIC, 1L));
    }

    @Test
    void disjointRunsArePassedThrough()
    {
        assertThat(scanMetrics("SELECT * FROM disjoint")).isEqualTo(Map.of(
                FILES_OPENED_METRIC, 2L,
                RECORDS_READ_METRIC, 5L + 6,
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
        QueryRunner queryRunner = getQueryRunner();
        DistributedQueryRunner runner = (DistributedQueryRunner) queryRunner;
        QueryStats stats = runner.getCoordinator().getQueryManager().getFullQueryInfo(runner.executeWithPlan(getSession(), sql).queryId()).getQueryStats();
        Map<String, Long> totals = new TreeMap<>();
        for (OperatorStats operator : stats.getOperatorSummaries()) {
            for (Map.Entry<String, Metric<?>> metric : operator.getConnectorMetrics().getMetrics().entrySet()) {
                if (metric.getKey().startsWith("paimon.") && metric.getValue() instanceof LongCount count) {
                    totals.merge(metric.getKey(), count.getTotal(), Long::sum);
                }
            }
        }
        totals.remove(PaimonPageSource.ROW_GROUPS_READ_METRIC);
        totals.remove(PaimonPageSource.ROW_GROUPS_SKIPPED_METRIC);
        return totals;
    }
}
