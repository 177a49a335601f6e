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
package io.trino.plugin.paimon.benchmark;

import io.airlift.units.Duration;
import io.trino.Session;
import io.trino.execution.QueryStats;
import io.trino.operator.OperatorStats;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;

/**
 * An INSERT into an empty 8-bucket deletion-vector table (issue 30) on one node and on a coordinator and two workers,
 * with compaction in the page sinks off (the coordinator compacts after the commit) and on: the statement's wall time,
 * the CPU of its commit operator (TableFinishOperator, on the coordinator: the commit and, when the sinks do not
 * compact, the compaction) and the statement's total CPU. Run with {@code ./mvnw -B -DskipTests -Pbenchmark
 * -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkSinkCompaction package -pl testing -am}, {@code
 * -Dbenchmark.args="--rows N"} (default 1,000,000). The in-process query runner: its nodes share one JVM and the
 * machine's cores, so the wall times say little about a real cluster; the commit operator's CPU is the coordinator's work.
 */
public final class BenchmarkSinkCompaction
{
    private static final String SCHEMA = "sink_compaction";

    private BenchmarkSinkCompaction() {}

    public static void main(String[] args)
            throws Exception
    {
        int rows = 1_000_000;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rows")) {
                rows = Integer.parseInt(args[++i]);
            }
        }
        System.out.println("INSERT of %,d rows into an 8-bucket deletion-vector table; load %s".formatted(rows, LoadAverage.now()));
        System.out.println("| nodes | sink compaction | wall ms | commit operator CPU ms | statement CPU ms |");
        System.out.println("| --- | --- | --- | --- | --- |");
        for (int workers : new int[] {0, 2}) {
            Path root = Files.createTempDirectory("benchmark-sink-compaction");
            try {
                Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY));
                try (DistributedQueryRunner runner = workers == 0
                        ? (DistributedQueryRunner) PaimonQueryRunner.create(root, SCHEMA)
                        : PaimonQueryRunner.create(root, SCHEMA, workers, Map.of())) {
                    runner.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
                    // a warm-up write, so that neither measured statement pays for the JIT alone
                    runner.execute("CREATE TABLE warm_up (k bigint, v varchar) WITH (primary_key = ARRAY['k'], bucket = 8, deletion_vectors_enabled = true)");
                    runner.execute("INSERT INTO warm_up SELECT i * 1000 + j, 'value' FROM UNNEST(sequence(0, 99)) a(i) CROSS JOIN UNNEST(sequence(0, 999)) b(j)");
                    for (boolean onWorkers : new boolean[] {false, true}) {
                        String table = "t_%s_%s".formatted(workers, onWorkers);
                        runner.execute("CREATE TABLE %s (k bigint, v varchar) WITH (primary_key = ARRAY['k'], bucket = 8, deletion_vectors_enabled = true)".formatted(table));
                        Session session = Session.builder(runner.getDefaultSession())
                                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", Boolean.toString(onWorkers))
                                .build();
                        String sql = "INSERT INTO %s SELECT i * 1000 + j, 'value ' || CAST(i * 1000 + j AS varchar) FROM UNNEST(sequence(0, %s)) a(i) CROSS JOIN UNNEST(sequence(0, 999)) b(j)"
                                .formatted(table, rows / 1000 - 1);
                        long start = System.nanoTime();
                        QueryRunner.MaterializedResultWithPlan result = runner.executeWithPlan(session, sql);
                        long wallMillis = (System.nanoTime() - start) / 1_000_000;
                        QueryStats stats = runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats();
                        long commitCpu = 0;
                        for (OperatorStats operator : stats.getOperatorSummaries()) {
                            if (operator.getOperatorType().equals("TableFinishOperator")) {
                                commitCpu += millis(operator.getAddInputCpu()) + millis(operator.getGetOutputCpu()) + millis(operator.getFinishCpu());
                            }
                        }
                        long levelZero = (long) runner.execute("SELECT count(*) FROM \"%s$files\" WHERE level = 0".formatted(table)).getOnlyValue();
                        if (levelZero != 0) {
                            throw new IllegalStateException("%s: %s level-0 files left".formatted(table, levelZero));
                        }
                        // one println: the query runner's logging splits what print writes in parts
                        System.out.println("| %s | %s | %,d | %,d | %,d |".formatted(workers == 0 ? "1" : "1 + " + workers, onWorkers ? "on" : "off", wallMillis, commitCpu, millis(stats.getTotalCpuTime())));
                    }
                }
            }
            finally {
                deleteRecursively(root, ALLOW_INSECURE);
            }
        }
        System.out.println("load after: " + LoadAverage.now());
    }

    private static long millis(Duration duration)
    {
        return (long) duration.toMillis();
    }
}
