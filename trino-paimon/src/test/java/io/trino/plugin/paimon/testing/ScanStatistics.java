package io.trino.plugin.paimon.testing;

import io.trino.execution.QueryStats;
import io.trino.operator.OperatorStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;

import static io.trino.plugin.paimon.read.PaimonPageSource.FILES_OPENED_METRIC;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * A query's result with what its table scans read: splits (one per bucket of a primary-key table; a scan with no
 * split still runs one driver), data files opened and bytes read, and its elapsed time on the coordinator, from
 * the query's final statistics.
 */
public record ScanStatistics(MaterializedResult result, long splits, long filesOpened, long physicalInputBytes, long elapsedNanos)
{
    public ScanStatistics
    {
        requireNonNull(result, "result is null");
    }

    public static ScanStatistics execute(QueryRunner queryRunner, String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) queryRunner;
        QueryRunner.MaterializedResultWithPlan result = runner.executeWithPlan(runner.getDefaultSession(), sql);
        QueryStats stats = runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats();
        long splits = 0;
        long filesOpened = 0;
        for (OperatorStats operator : stats.getOperatorSummaries()) {
            // a scan runs one driver per split
            if (operator.getOperatorType().equals("TableScanOperator") || operator.getOperatorType().equals("ScanFilterAndProjectOperator")) {
                splits += operator.getTotalDrivers();
            }
            if (operator.getConnectorMetrics().getMetrics().get(FILES_OPENED_METRIC) instanceof LongCount count) {
                filesOpened += count.getTotal();
            }
        }
        return new ScanStatistics(result.result(), splits, filesOpened, stats.getPhysicalInputDataSize().toBytes(), stats.getElapsedTime().roundTo(NANOSECONDS));
    }
}
