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
package io.trino.plugin.paimon.compaction;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.QueryId;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.apache.paimon.schema.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.apache.paimon.types.DataTypes.INT;
import static org.apache.paimon.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction in the page sinks on a coordinator and two workers: writes to 8-bucket deletion-vector and first-row
 * tables, whose tasks run on both workers ({@code system.runtime.tasks}), are compacted by their page sinks (every
 * live file is named after the statement, which the coordinator's compactions are not; with compaction on the
 * coordinator these checks fail), leave no level-0 file and Paimon Java reads exactly the expected rows;
 * so they do under {@code retry_policy = QUERY}, whose page sinks name their compactions' files after the statement;
 * a {@code changelog-producer} = {@code lookup} table's sinks write its changelog.
 */
final class TestCompactionInPageSinksOnWorkers
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "sink_compaction_workers";
    private static final int KEYS = 20_000;

    private TempWarehouse warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        warehouse.paimon().createDatabase(SCHEMA);
        for (String name : List.of("dv", "dv_retried")) {
            warehouse.paimon().createTable(SCHEMA, name, keyed().option("deletion-vectors.enabled", "true").build());
        }
        warehouse.paimon().createTable(SCHEMA, "first_row", keyed().option("merge-engine", "first-row").build());
        warehouse.paimon().createTable(SCHEMA, "lookup_retried", keyed().option("changelog-producer", "lookup").build());
        return PaimonQueryRunner.create(warehouse.root(), SCHEMA, 2, ImmutableMap.of());
    }

    private static Schema.Builder keyed()
    {
        return Schema.newBuilder()
                .column("k", INT().notNull())
                .column("v", STRING())
                .primaryKey("k")
                .option("bucket", "8");
    }

    @AfterAll
    void removeWarehouse()
            throws Exception
    {
        warehouse.close();
    }

    @Test
    void deletionVectorTable()
    {
        for (String table : List.of("dv", "dv_retried")) {
            Session session = table.endsWith("retried") ? retried() : onWorkers();
            getQueryRunner().execute(session, insert(table, 0, KEYS, "first"));
            assertThat(statementParts(table)).as("statement parts of the live files of %s after the first INSERT", table).hasSize(1);
            // every even key again, and as many new keys
            getQueryRunner().execute(session, "INSERT INTO %s SELECT 2 * (i * 1000 + j), 'second' FROM UNNEST(sequence(0, %s)) a(i) CROSS JOIN UNNEST(sequence(0, 999)) b(j)".formatted(table, KEYS / 1000 - 1));
            getQueryRunner().execute(session, "UPDATE %s SET v = 'third' WHERE k %% 3 = 0".formatted(table));
            List<String> expected = IntStream.range(0, 2 * KEYS)
                    .filter(k -> k < KEYS || k % 2 == 0)
                    .mapToObj(k -> "+I(%s, %s)".formatted(k, k % 3 == 0 ? "third" : k % 2 == 0 ? "second" : "first"))
                    .sorted()
                    .toList();
            assertThat(paimonRows(table)).as(table).isEqualTo(expected);
            assertThat(computeActual("SELECT count(*) FROM \"%s$files\" WHERE level = 0".formatted(table)).getOnlyValue()).as(table).isEqualTo(0L);
        }
    }

    @Test
    void firstRowTable()
    {
        QueryId first = ((DistributedQueryRunner) getQueryRunner()).executeWithPlan(onWorkers(), insert("first_row", 0, KEYS, "first")).queryId();
        // the statement's tasks ran on workers (on one or both, as the scheduler placed them), and every live file is
        // named after it: its page sinks compacted the buckets they wrote (the coordinator's compactions name their files apart)
        assertThat(computeActual("SELECT DISTINCT node_id FROM system.runtime.tasks WHERE query_id = '%s'".formatted(first)).getOnlyColumnAsSet())
                .containsAnyElementsOf(computeActual("SELECT node_id FROM system.runtime.nodes WHERE NOT coordinator").getOnlyColumnAsSet());
        assertThat(statementParts("first_row")).as("statement parts of the live files after the first INSERT").hasSize(1);
        assertThat(computeActual("SELECT count(*) FROM \"first_row$files\" WHERE level = 0").getOnlyValue()).isEqualTo(0L);
        getQueryRunner().execute(onWorkers(), insert("first_row", KEYS / 2, KEYS + KEYS / 2, "second"));
        List<String> expected = IntStream.range(0, KEYS + KEYS / 2)
                .mapToObj(k -> "+I(%s, %s)".formatted(k, k < KEYS ? "first" : "second"))
                .sorted()
                .toList();
        assertThat(paimonRows("first_row")).isEqualTo(expected);
        assertThat(computeActual("SELECT count(*) FROM \"first_row$files\" WHERE level = 0").getOnlyValue()).isEqualTo(0L);
    }

    /**
     * A {@code changelog-producer} = {@code lookup} table under {@code retry_policy = QUERY}: the sinks on the workers
     * write the changelog of their compactions, which Paimon Java streams: every key inserted, then the keys written
     * again updated and the new ones inserted.
     */
    @Test
    void lookupChangelogTable()
    {
        int keys = 4000;
        getQueryRunner().execute(retried(), insert("lookup_retried", 0, keys, "first"));
        getQueryRunner().execute(retried(), insert("lookup_retried", keys / 2, keys + keys / 2, "second"));
        List<String> expected = IntStream.range(0, keys + keys / 2)
                .mapToObj(k -> "+I(%s, %s)".formatted(k, k < keys / 2 ? "first" : "second"))
                .sorted()
                .toList();
        assertThat(paimonRows("lookup_retried")).isEqualTo(expected);
        assertThat(computeActual("SELECT count(*) FROM \"lookup_retried$files\" WHERE level = 0").getOnlyValue()).isEqualTo(0L);
        // compacted in the sinks, whose files are named after their statement; the coordinator's compactions name theirs apart
        assertThat(statementParts("lookup_retried")).as("statement parts of the live files").hasSizeLessThanOrEqualTo(2);
        List<String> expectedChangelog = new ArrayList<>();
        IntStream.range(0, keys).forEach(k -> expectedChangelog.add("+I(%s, first)".formatted(k)));
        IntStream.range(keys / 2, keys).forEach(k -> expectedChangelog.addAll(List.of("-U(%s, first)".formatted(k), "+U(%s, second)".formatted(k))));
        IntStream.range(keys, keys + keys / 2).forEach(k -> expectedChangelog.add("+I(%s, second)".formatted(k)));
        assertThat(changelog("lookup_retried")).containsExactlyInAnyOrderElementsOf(expectedChangelog);
    }

    // the part of the live files' names that the statement which wrote them gives (Compactions.namingFiles)
    private Set<String> statementParts(String table)
    {
        return computeActual("SELECT file_path FROM \"%s$files\"".formatted(table)).getOnlyColumn()
                .map(path -> Location.of((String) path).fileName().substring("data-".length(), "data-".length() + 19))
                .collect(toImmutableSet());
    }

    private List<String> changelog(String table)
    {
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(warehouse.paimon().warehouse())) {
            return PaimonJavaCatalog.readChangelog(paimon.getTable(SCHEMA, table));
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    // keys from (inclusive) to (exclusive), in rows of 1,000
    private static String insert(String table, int from, int to, String value)
    {
        return "INSERT INTO %s SELECT %s + i * 1000 + j, '%s' FROM UNNEST(sequence(0, %s)) a(i) CROSS JOIN UNNEST(sequence(0, 999)) b(j)"
                .formatted(table, from, value, (to - from) / 1000 - 1);
    }

    private List<String> paimonRows(String table)
    {
        try (PaimonJavaCatalog paimon = PaimonJavaCatalog.uncached(warehouse.paimon().warehouse())) {
            return PaimonJavaCatalog.readRows(paimon.getTable(SCHEMA, table)).stream().sorted().toList();
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private Session onWorkers()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "compaction_on_workers_enabled", "true")
                .build();
    }

    private Session retried()
    {
        return Session.builder(onWorkers())
                .setSystemProperty("retry_policy", "QUERY")
                .build();
    }
}
