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
import io.trino.operator.OperatorStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

import java.util.Map;
import java.util.TreeMap;

/**
 * The connector's count metrics of a query, summed over its operators, from the query's final statistics: what
 * {@code EXPLAIN ANALYZE VERBOSE} shows per operator.
 */
public final class ConnectorMetrics
{
    private ConnectorMetrics() {}

    /** Runs the query and returns its counts whose names start with {@code prefix}. */
    public static Map<String, Long> run(QueryRunner queryRunner, Session session, String sql, String prefix)
    {
        QueryId queryId = ((DistributedQueryRunner) queryRunner).executeWithPlan(session, sql).queryId();
        return of(queryRunner, queryId, prefix);
    }

    /** The counts of a query that ran, whose names start with {@code prefix}. */
    public static Map<String, Long> of(QueryRunner queryRunner, QueryId queryId, String prefix)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) queryRunner;
        Map<String, Long> totals = new TreeMap<>();
        for (OperatorStats operator : runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId).getQueryStats().getOperatorSummaries()) {
            operator.getConnectorMetrics().getMetrics().forEach((name, metric) -> {
                if (name.startsWith(prefix) && metric instanceof LongCount count) {
                    totals.merge(name, count.getTotal(), Long::sum);
                }
            });
        }
        return totals;
    }
}
