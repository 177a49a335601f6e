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
package io.trino.plugin.paimon.testing;

import io.trino.Session;
import io.trino.execution.QueryStats;
import io.trino.operator.OperatorStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;

import static io.trino.plugin.paimon.read.PaimonPageSource.FILES_OPENED_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.ROW_GROUPS_READ_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.ROW_GROUPS_SKIPPED_METRIC;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * A query's result with what its table scans read: splits (one per bucket of a primary-key table; a scan with no
 * split still runs one driver), data files opened, their Parquet row groups read and skipped, bytes read, rows
 * the scans returned, and the query's elapsed time on the coordinator, from the query's final statistics.
 */
public record ScanStatistics(MaterializedResult result, long splits, long filesOpened, long physicalInputBytes, long elapsedNanos, long rowGroupsRead, long rowGroupsSkipped, long physicalInputRows)
{
    public ScanStatistics
    {
        requireNonNull(result, "result is null");
    }

    public static ScanStatistics execute(QueryRunner queryRunner, String sql)
    {
        return execute(queryRunner, queryRunner.getDefaultSession(), sql);
    }

    public static ScanStatistics execute(QueryRunner queryRunner, Session session, String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) queryRunner;
        QueryRunner.MaterializedResultWithPlan result = runner.executeWithPlan(session, sql);
        QueryStats stats = runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats();
        long splits = 0;
        long filesOpened = 0;
        long rowGroupsRead = 0;
        long rowGroupsSkipped = 0;
        for (OperatorStats operator : stats.getOperatorSummaries()) {
            // a scan runs one driver per split
            if (operator.getOperatorType().equals("TableScanOperator") || operator.getOperatorType().equals("ScanFilterAndProjectOperator")) {
                splits += operator.getTotalDrivers();
            }
            if (operator.getConnectorMetrics().getMetrics().get(FILES_OPENED_METRIC) instanceof LongCount count) {
                filesOpened += count.getTotal();
            }
            if (operator.getConnectorMetrics().getMetrics().get(ROW_GROUPS_READ_METRIC) instanceof LongCount count) {
                rowGroupsRead += count.getTotal();
            }
            if (operator.getConnectorMetrics().getMetrics().get(ROW_GROUPS_SKIPPED_METRIC) instanceof LongCount count) {
                rowGroupsSkipped += count.getTotal();
            }
        }
        return new ScanStatistics(result.result(), splits, filesOpened, stats.getPhysicalInputDataSize().toBytes(), stats.getElapsedTime().roundTo(NANOSECONDS),
                rowGroupsRead, rowGroupsSkipped, stats.getPhysicalInputPositions());
    }
}
