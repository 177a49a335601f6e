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
package io.trino.plugin.paimon.write;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.plugin.exchange.filesystem.FileSystemExchangePlugin;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes under {@code retry-policy = TASK} end to end (Trino 483, whose file-system exchange manager is served; 476's is
 * not): the exchange on the local disk, two workers, every stage's output spooled and its tasks scheduled as
 * fault-tolerant execution does. INSERT, MERGE and {@code optimize} must end exactly as the same statement without
 * retries, Paimon Java must read the same rows, and no file may stay that no snapshot references
 * ({@code remove_orphan_files} with zero retention removes nothing); so must writes whose page sinks compact the buckets
 * they wrote ({@code compaction_on_workers_enabled}). Task attempts fail on purpose through a fault file system that
 * every node writes through (Trino's own failure injection does not fire in this runner); discarded and speculative
 * attempts are played through the connector's interfaces in {@code TestFaultTolerantWrites}.
 */
final class TestTaskRetryWrites
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "task_retry";

    private TempWarehouse warehouse;
    private FaultFs faultFs;
    private Path exchange;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        warehouse.paimon().createDatabase(SCHEMA);
        exchange = Files.createTempDirectory("task-retry-exchange");
        // every node writes through one fault file system, so that a rule fails a task on whichever node runs it
        faultFs = FaultFs.local(warehouse.root(), 30);
        DistributedQueryRunner queryRunner = PaimonQueryRunner.create(faultFs, SCHEMA, 2, ImmutableMap.<String, String>builder()
                .put("retry-policy", "TASK")
                .put("retry-initial-delay", "0s")
                .put("task-retry-attempts-per-task", "2")
                .put("fault-tolerant-execution-task-memory", "1GB")
                .put("query.hash-partition-count", "3")
                .buildOrThrow());
        try {
            queryRunner.installPlugin(new FileSystemExchangePlugin());
            queryRunner.loadExchangeManager("filesystem", ImmutableMap.of("exchange.base-directories", exchange.toUri().toString()));
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    @AfterAll
    void removeFolders()
            throws Exception
    {
        try {
            warehouse.close();
        }
        finally {
            deleteRecursively(exchange, ALLOW_INSECURE);
        }
    }

    @Test
    void writesUnderTaskRetriesEqualACleanRun()
    {
        assertUpdate("CREATE TABLE source AS SELECT CAST(n AS bigint) id, 'p' || CAST(n % 3 AS varchar) part, 'v' || CAST(n AS varchar) v FROM UNNEST(sequence(1, 3000)) t(n)", 3000);
        for (String table : List.of("clean", "retried")) {
            assertUpdate("CREATE TABLE %s (id bigint, part varchar, v varchar) WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], bucket = 4)".formatted(table));
        }
        for (String statement : List.of(
                "INSERT INTO %s SELECT id, part, v FROM source WHERE id <= 2000",
                "INSERT INTO %s SELECT id, part, v || '-again' FROM source WHERE id > 1000",
                "MERGE INTO %s t USING (SELECT id, part, v FROM source WHERE id %% 4 = 0 UNION ALL SELECT id + 5000, part, v FROM source WHERE id %% 50 = 0) s " +
                        "ON t.id = s.id AND t.part = s.part WHEN MATCHED THEN UPDATE SET v = 'merged' WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.part, s.v)",
                "ALTER TABLE %s EXECUTE optimize")) {
            getQueryRunner().execute(withoutRetries(), statement.formatted("clean"));
            getQueryRunner().execute(statement.formatted("retried"));
            assertSameAsClean(statement);
        }
    }

    /**
     * The same with compaction in the page sinks, on a deletion-vector table: the sinks of each attempt compact the
     * buckets they wrote, and the result still equals a clean run, with no level-0 file left and no stray file.
     */
    @Test
    void sinkCompactedWritesUnderTaskRetriesEqualACleanRun()
    {
        assertUpdate("CREATE TABLE dv_source AS SELECT CAST(n AS bigint) id, 'p' || CAST(n % 3 AS varchar) part, 'v' || CAST(n AS varchar) v FROM UNNEST(sequence(1, 3000)) t(n)", 3000);
        for (String table : List.of("dv_clean", "dv_retried")) {
            assertUpdate("CREATE TABLE %s (id bigint, part varchar, v varchar) WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], bucket = 4, deletion_vectors_enabled = true)".formatted(table));
        }
        Session onWorkers = Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "true")
                .build();
        List<String> statements = List.of(
                "INSERT INTO %s SELECT id, part, v FROM dv_source",
                "INSERT INTO %s SELECT id, part, v || '-again' FROM dv_source WHERE id %% 3 = 0",
                "MERGE INTO %s t USING (SELECT id, part, v FROM dv_source WHERE id %% 4 = 0 UNION ALL SELECT id + 5000, part, v FROM dv_source WHERE id %% 50 = 0) s " +
                        "ON t.id = s.id AND t.part = s.part WHEN MATCHED THEN UPDATE SET v = 'merged' WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.part, s.v)");
        for (String statement : statements) {
            getQueryRunner().execute(Session.builder(onWorkers).setSystemProperty("retry_policy", "NONE").build(), statement.formatted("dv_clean"));
            getQueryRunner().execute(onWorkers, statement.formatted("dv_retried"));
            if (statement.equals(statements.getFirst())) {
                // the sinks compacted: every file of the first INSERT's snapshot is named after the statement (the
                // coordinator's compaction names each bucket's files anew)
                assertThat(computeActual("SELECT file_path FROM \"dv_retried$files\"").getOnlyColumn()
                        .map(path -> Location.of((String) path).fileName().substring("data-".length(), "data-".length() + 19))
                        .distinct())
                        .as("statement parts of the files of %s", statement)
                        .hasSize(1);
            }
            assertThat(computeScalar("SELECT count(*) FROM \"dv_retried$files\" WHERE level = 0")).as("level-0 files after %s", statement).isEqualTo(0L);
            assertSameAsClean("dv_clean", "dv_retried", statement);
        }
    }

    /**
     * Task attempts that fail on purpose: the first data file a task creates in the table fails, which fails that
     * attempt, and Trino runs the task again. INSERT, MERGE and {@code optimize}, and the writes of page sinks that
     * compact, must end exactly as the same statements without a failure, with the failed attempts' files removed.
     */
    @Test
    void failedTaskAttemptsAreRetriedToTheResultOfACleanRun()
    {
        assertUpdate("CREATE TABLE failing_source AS SELECT CAST(n AS bigint) id, 'p' || CAST(n % 3 AS varchar) part, 'v' || CAST(n AS varchar) v FROM UNNEST(sequence(1, 2000)) t(n)", 2000);
        List<String> statements = List.of(
                "INSERT INTO %s SELECT id, part, v FROM failing_source WHERE id <= 1500",
                "INSERT INTO %s SELECT id, part, v || '-again' FROM failing_source WHERE id > 1000",
                "MERGE INTO %s t USING (SELECT id, part, v FROM failing_source WHERE id %% 4 = 0 UNION ALL SELECT id + 5000, part, v FROM failing_source WHERE id %% 50 = 0) s " +
                        "ON t.id = s.id AND t.part = s.part WHEN MATCHED THEN UPDATE SET v = 'merged' WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.part, s.v)",
                "ALTER TABLE %s EXECUTE optimize");
        Session onWorkers = Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "true")
                .build();
        for (String kind : List.of("pk", "dv")) {
            String clean = "failing_%s_clean".formatted(kind);
            String retried = "failing_%s_retried".formatted(kind);
            for (String table : List.of(clean, retried)) {
                assertUpdate("CREATE TABLE %s (id bigint, part varchar, v varchar) WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], bucket = 4, deletion_vectors_enabled = %s)"
                        .formatted(table, kind.equals("dv")));
            }
            Session session = kind.equals("dv") ? onWorkers : getSession();
            for (String statement : statements) {
                getQueryRunner().execute(Session.builder(session).setSystemProperty("retry_policy", "NONE").build(), statement.formatted(clean));
                long injected = faultFs.injectedFaults();
                faultFs.addRule(Rule.nth(Operation.CREATE, "**/%s/**/data-*".formatted(retried), 1, Action.THROW_AFTER_WRITE));
                try {
                    getQueryRunner().execute(session, statement.formatted(retried));
                }
                finally {
                    faultFs.clearRules();
                }
                assertThat(faultFs.injectedFaults() - injected).as("task attempts failed on purpose in: %s", statement).isEqualTo(1);
                assertSameAsClean(clean, retried, statement);
            }
        }
    }

    private Session withoutRetries()
    {
        return Session.builder(getSession())
                .setSystemProperty("retry_policy", "NONE")
                .build();
    }

    private void assertSameAsClean(String statement)
    {
        assertSameAsClean("clean", "retried", statement);
    }

    private void assertSameAsClean(String clean, String retried, String statement)
    {
        List<String> expected = RowText.paimonText(computeActual("SELECT * FROM %s ORDER BY id, part".formatted(clean)));
        assertThat(RowText.paimonText(computeActual("SELECT * FROM %s ORDER BY id, part".formatted(retried)))).as(statement).isEqualTo(expected);
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(warehouse.warehouse())) {
            assertThat(RowText.paimonText(paimon.getTable(SCHEMA, retried))).as(statement).containsExactlyInAnyOrderElementsOf(expected);
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
        Set<String> files = tableFiles(retried);
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty(CATALOG, "remove_orphan_files_min_retention", "0s").build(),
                "ALTER TABLE %s EXECUTE remove_orphan_files(retention_threshold => '0s')".formatted(retried));
        assertThat(tableFiles(retried)).as("files no snapshot references after: %s", statement).isEqualTo(files);
    }

    private Set<String> tableFiles(String table)
    {
        Path folder = warehouse.warehouse().resolve("%s.db/%s".formatted(SCHEMA, table));
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).map(path -> folder.relativize(path).toString()).collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
