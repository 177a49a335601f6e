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
