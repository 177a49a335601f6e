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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Sets;
import io.airlift.slice.Slice;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.PaimonPlugin;
import io.trino.plugin.paimon.testing.ConnectorCalls;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.Page;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.BeginTableExecuteResult;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static com.google.common.collect.Iterables.getOnlyElement;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static io.trino.spi.transaction.IsolationLevel.READ_UNCOMMITTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes under fault-tolerant execution: statements under {@code retry_policy} = {@code QUERY}, and write tasks run
 * more than once (discarded, aborted and successful attempts) through the connector's interfaces. The result must
 * equal a clean run, Paimon Java must read the same rows, and no file of a discarded attempt may remain
 * ({@code remove_orphan_files} with zero retention removes nothing).
 */
final class TestFaultTolerantWrites
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "fte";

    private TempWarehouse warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        warehouse.paimon().createDatabase(SCHEMA);
        return PaimonQueryRunner.create(warehouse.root(), SCHEMA, 2, ImmutableMap.of());
    }

    @AfterAll
    void removeWarehouse()
            throws Exception
    {
        warehouse.close();
    }

    /**
     * Each statement kind once without retries and once, under {@code retry_policy = QUERY}, on a copy; the copy must
     * end as the table does, with no file left that no snapshot references. (Trino's failure injection, tried here,
     * fired too early in this runner to leave files of a failed attempt behind; the attempts are played through the
     * connector's interfaces below.)
     */
    @Test
    void statementsUnderQueryRetries()
    {
        createSource();
        String create = "CREATE TABLE %s WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], bucket = 4) AS SELECT id, part, v FROM source WHERE id <= 1000";
        assertUpdate(create.formatted("query_clean"), 1000);
        getQueryRunner().execute(retried(), create.formatted("query_retried"));
        assertSameAsClean("query_clean", "query_retried");
        for (String statement : List.of(
                "INSERT INTO %s SELECT id, part, v FROM source WHERE id > 1000",
                "UPDATE %s SET v = v || '-updated' WHERE id %% 5 = 0",
                "DELETE FROM %s WHERE id %% 7 = 0",
                "MERGE INTO %s t USING (SELECT id, part, v FROM source WHERE id %% 4 = 0 UNION ALL SELECT id + 5000, part, v FROM source WHERE id %% 50 = 0) s " +
                        "ON t.id = s.id AND t.part = s.part WHEN MATCHED THEN UPDATE SET v = 'merged' WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.part, s.v)",
                "ALTER TABLE %s EXECUTE optimize")) {
            getQueryRunner().execute(statement.formatted("query_clean"));
            getQueryRunner().execute(retried(), statement.formatted("query_retried"));
            assertSameAsClean("query_clean", "query_retried");
        }
    }

    /**
     * The engine's side of a retried write task, played through the connector's interfaces: each task runs twice, a
     * discarded attempt (failed after its files were written, or the slower of two speculative attempts) and the
     * successful one, and a third attempt is aborted; the commit gets the successful attempts' fragments only. Fixed-
     * bucket, dynamic-bucket (key index files) and {@code changelog-producer = input} tables (changelog files).
     */
    @Test
    void discardedAttemptsOfInsertTasks()
            throws Exception
    {
        for (String properties : List.of(
                "bucket = 4",
                "bucket = -1",
                "bucket = 2, changelog_producer = 'input'")) {
            String suffix = properties.contains("-1") ? "dynamic" : properties.contains("input") ? "changelog" : "fixed";
            String table = "attempts_" + suffix;
            String clean = "attempts_clean_" + suffix;
            for (String name : List.of(table, clean)) {
                assertUpdate("CREATE TABLE %s (id bigint, part varchar, v varchar) WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], %s)".formatted(name, properties));
            }
            List<Page> firstTask = List.of(page(1, 300), page(301, 600));
            List<Page> secondTask = List.of(page(601, 1000));
            // Trino routes the keys of a dynamic-bucket partition to one writer, which owns its bucket assignment
            List<List<Page>> tasks = suffix.equals("dynamic")
                    ? List.of(ImmutableList.<Page>builder().addAll(firstTask).addAll(secondTask).build())
                    : List.of(firstTask, secondTask);
            insertWithAttempts(table, tasks);
            assertUpdate("INSERT INTO %s SELECT CAST(n AS bigint), 'p' || CAST(n %% 3 AS varchar), 'v' || CAST(n AS varchar) FROM UNNEST(sequence(1, 1000)) t(n)".formatted(clean), 1000);
            assertSameAsClean(clean, table);
        }
    }

    /**
     * The same with compaction in the page sinks, on tables whose keys the INSERT partly rewrites: a deletion-vector
     * table, and a {@code changelog-producer} = {@code lookup} table, whose sink compactions write changelog files. Each attempt's sinks compact the buckets they wrote, writing compacted files, changelog
     * files and deletion-vector index files named after the statement; the commit keeps the successful attempts' and
     * deletes the discarded ones', and Paimon Java streams the changelog of a clean run.
     */
    @Test
    void discardedAttemptsOfInsertTasksThatCompactInTheirSinks()
            throws Exception
    {
        Session onWorkers = Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "true")
                .build();
        // a full-compaction table's sinks write their changelog files as a lookup table's do
        for (String properties : List.of("deletion_vectors_enabled = true", "changelog_producer = 'lookup'")) {
            String suffix = properties.contains("deletion") ? "vectors" : "lookup";
            String table = "attempts_sink_compacted_" + suffix;
            String clean = "attempts_clean_sink_compacted_" + suffix;
            for (String name : List.of(table, clean)) {
                assertUpdate("CREATE TABLE %s (id bigint, part varchar, v varchar) WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], bucket = 4, %s)".formatted(name, properties));
                // more rows than the INSERT below: its level-0 run moves up to a level of its own, superseded rows marked in deletion vectors
                assertUpdate(onWorkers, "INSERT INTO %s SELECT CAST(n AS bigint), 'p' || CAST(n %% 3 AS varchar), 'old' FROM UNNEST(sequence(1, 4000)) t(n)".formatted(name), 4000);
            }
            Set<String> filesBefore = liveFiles(table);
            Set<String> changelogBefore = changelogFiles(table);
            // one task: Trino routes a bucket's rows to one writer, whose compaction covers every file the statement adds there
            insertWithAttempts(table, List.of(List.of(page(1, 300), page(301, 600), page(601, 1000))), ImmutableMap.of("compaction_on_workers_enabled", true));
            assertUpdate(onWorkers, "INSERT INTO %s SELECT CAST(n AS bigint), 'p' || CAST(n %% 3 AS varchar), 'v' || CAST(n AS varchar) FROM UNNEST(sequence(1, 1000)) t(n)".formatted(clean), 1000);

            assertThat(computeScalar("SELECT count(*) FROM \"%s$files\" WHERE level = 0".formatted(table))).as("level-0 files left in %s", table).isEqualTo(0L);
            // the sinks compacted: every file the INSERT added to the snapshot is a compacted one named after the statement
            Set<String> added = Sets.difference(liveFiles(table), filesBefore);
            assertThat(added).as(table).isNotEmpty();
            assertThat(added.stream().map(name -> name.substring("data-".length(), "data-".length() + 19)).distinct()).as("statement parts of %s", added).hasSize(1);
            if (properties.contains("deletion")) {
                assertThat(tableFiles(table).stream().filter(file -> file.startsWith("index/"))).as("deletion-vector index files").isNotEmpty();
            }
            else {
                Set<String> changelog = Sets.difference(changelogFiles(table), changelogBefore);
                assertThat(changelog.stream().map(name -> name.substring("changelog-".length(), "changelog-".length() + 19)).distinct()).as("statement parts of %s", changelog).hasSize(1);
                try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(warehouse.warehouse())) {
                    assertThat(PaimonJavaCatalog.readChangelog(paimon.getTable(SCHEMA, table))).as(table)
                            .containsExactlyInAnyOrderElementsOf(PaimonJavaCatalog.readChangelog(paimon.getTable(SCHEMA, clean)));
                }
            }
            assertSameAsClean(clean, table);
        }
    }

    // the names of the changelog files in the table's folders
    private Set<String> changelogFiles(String table)
    {
        return tableFiles(table).stream()
                .map(file -> Location.of("local:///" + file).fileName())
                .filter(name -> name.startsWith("changelog-"))
                .collect(toImmutableSet());
    }

    // the names of the data files of the table's snapshot
    private Set<String> liveFiles(String table)
    {
        return computeActual("SELECT file_path FROM \"%s$files\"".formatted(table)).getOnlyColumn()
                .map(path -> Location.of((String) path).fileName())
                .collect(toImmutableSet());
    }

    private void insertWithAttempts(String table, List<List<Page>> tasks)
            throws Exception
    {
        insertWithAttempts(table, tasks, ImmutableMap.of());
    }

    // one INSERT whose every task (its pages) runs as a discarded attempt, an aborted one and the successful one
    private void insertWithAttempts(String table, List<List<Page>> tasks, Map<String, Object> sessionProperties)
            throws Exception
    {
        Connector connector = getOnlyElement(new PaimonPlugin().getConnectorFactories())
                .create(CATALOG, PaimonQueryRunner.catalogProperties(warehouse.root()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder()
                    .setPropertyMetadata(connector.getSessionProperties())
                    .setPropertyValues(sessionProperties)
                    .build();
            ConnectorTransactionHandle transaction = connector.beginTransaction(READ_UNCOMMITTED, false, true);
            ConnectorMetadata metadata = connector.getMetadata(session, transaction);
            ConnectorTableHandle tableHandle = metadata.getTableHandle(session, new SchemaTableName(SCHEMA, table), Optional.empty(), Optional.empty());
            List<ColumnHandle> columns = ImmutableList.copyOf(metadata.getColumnHandles(session, tableHandle).values());
            ConnectorInsertTableHandle insert = metadata.beginInsert(session, tableHandle, columns, RetryMode.RETRIES_ENABLED);
            ImmutableList.Builder<Slice> committed = ImmutableList.builder();
            long sinkId = 0;
            for (List<Page> pages : tasks) {
                // the discarded attempt finishes before the successful one, as a failed attempt does
                write(ConnectorCalls.insertPageSink(connector, transaction, session, insert, sinkId++), pages);
                ConnectorPageSink aborted = ConnectorCalls.insertPageSink(connector, transaction, session, insert, sinkId++);
                pages.forEach(aborted::appendPage);
                aborted.abort();
                committed.addAll(write(ConnectorCalls.insertPageSink(connector, transaction, session, insert, sinkId++), pages));
            }
            metadata.finishInsert(session, insert, List.of(), committed.build(), List.of());
            connector.commit(transaction);
        }
        finally {
            connector.shutdown();
        }
    }

    /**
     * {@code optimize} whose every bucket is compacted by two task attempts, each staging its own result: the commit
     * takes one per bucket and deletes the files of the other, and the table reads as before.
     */
    @Test
    void discardedAttemptsOfOptimizeTasks()
            throws Exception
    {
        assertUpdate("CREATE TABLE optimized (id bigint, part varchar, v varchar) WITH (primary_key = ARRAY['id', 'part'], partitioned_by = ARRAY['part'], bucket = 2)");
        for (int round = 0; round < 3; round++) {
            assertUpdate("INSERT INTO optimized SELECT CAST(n AS bigint), 'p' || CAST(n %% 3 AS varchar), 'v%s' || CAST(n AS varchar) FROM UNNEST(sequence(1, 300)) t(n)".formatted(round), 300);
        }
        List<String> before = RowText.paimonText(computeActual("SELECT * FROM optimized"));
        long snapshots = (long) computeScalar("SELECT count(*) FROM \"optimized$snapshots\"");

        Connector connector = getOnlyElement(new PaimonPlugin().getConnectorFactories())
                .create(CATALOG, PaimonQueryRunner.catalogProperties(warehouse.root()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            ConnectorTransactionHandle transaction = connector.beginTransaction(READ_UNCOMMITTED, false, true);
            ConnectorMetadata metadata = connector.getMetadata(session, transaction);
            ConnectorTableHandle tableHandle = metadata.getTableHandle(session, new SchemaTableName(SCHEMA, "optimized"), Optional.empty(), Optional.empty());
            ConnectorTableExecuteHandle execute = metadata.getTableHandleForExecute(session, null, tableHandle, "OPTIMIZE", ImmutableMap.of(), RetryMode.RETRIES_ENABLED).orElseThrow();
            BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> begun = metadata.beginTableExecute(session, execute, tableHandle);
            ConnectorCalls.Splits planned = ConnectorCalls.splits(connector, transaction, session, begun.getSourceHandle());
            List<ConnectorSplit> splits = planned.splits();
            List<Object> splitsInfo = planned.tableExecuteInfo().orElseThrow();
            assertThat(splits).hasSize(6);
            for (ConnectorSplit split : splits) {
                for (int attempt = 0; attempt < 2; attempt++) {
                    try (ConnectorPageSource source = ConnectorCalls.pageSource(connector, transaction, session, split, begun.getSourceHandle())) {
                        while (!source.isFinished()) {
                            source.getNextSourcePage();
                        }
                    }
                }
            }
            metadata.finishTableExecute(session, begun.getTableExecuteHandle(), List.of(), splitsInfo);
            connector.commit(transaction);
        }
        finally {
            connector.shutdown();
        }
        assertThat((long) computeScalar("SELECT count(*) FROM \"optimized$snapshots\"")).isEqualTo(snapshots + 1);
        assertThat(RowText.paimonText(computeActual("SELECT * FROM optimized"))).isEqualTo(before);
        assertSameAsClean("optimized", "optimized");
    }

    private static Collection<Slice> write(ConnectorPageSink sink, List<Page> pages)
    {
        pages.forEach(sink::appendPage);
        return sink.finish().join();
    }

    // rows id, 'p' || id % 3, 'v' || id for the ids from first to last
    private static Page page(int first, int last)
    {
        BlockBuilder ids = BIGINT.createBlockBuilder(null, last - first + 1);
        BlockBuilder parts = VARCHAR.createBlockBuilder(null, last - first + 1);
        BlockBuilder values = VARCHAR.createBlockBuilder(null, last - first + 1);
        for (int id = first; id <= last; id++) {
            BIGINT.writeLong(ids, id);
            VARCHAR.writeString(parts, "p" + id % 3);
            VARCHAR.writeString(values, "v" + id);
        }
        return new Page(ids.build(), parts.build(), values.build());
    }

    private void createSource()
    {
        if (getQueryRunner().tableExists(getSession(), "source")) {
            return;
        }
        assertUpdate("CREATE TABLE source AS SELECT CAST(n AS bigint) id, 'p' || CAST(n % 3 AS varchar) part, 'v' || CAST(n AS varchar) v FROM UNNEST(sequence(1, 2000)) t(n)", 2000);
    }

    // the session of a statement under query retries
    private Session retried()
    {
        return Session.builder(getSession())
                .setSystemProperty("retry_policy", "QUERY")
                .build();
    }

    private void assertSameAsClean(String clean, String retried)
    {
        List<String> expected = RowText.paimonText(computeActual("SELECT * FROM " + clean));
        assertThat(RowText.paimonText(computeActual("SELECT * FROM " + retried))).isEqualTo(expected);
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(warehouse.warehouse())) {
            assertThat(RowText.paimonText(paimon.getTable(SCHEMA, retried))).isEqualTo(expected);
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
        Set<String> files = tableFiles(retried);
        assertUpdate(Session.builder(getSession()).setCatalogSessionProperty(CATALOG, "remove_orphan_files_min_retention", "0s").build(),
                "ALTER TABLE %s EXECUTE remove_orphan_files(retention_threshold => '0s')".formatted(retried));
        assertThat(tableFiles(retried)).as("files of %s that no snapshot references", retried).isEqualTo(files);
    }

    private Set<String> tableFiles(String table)
    {
        Path folder = warehouse.warehouse().resolve("%s.db/%s".formatted(SCHEMA, table));
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> folder.relativize(file).toString())
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
