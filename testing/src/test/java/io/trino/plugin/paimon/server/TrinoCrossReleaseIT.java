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
package io.trino.plugin.paimon.server;

import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * One warehouse, two releases: a Trino 476 server and a Trino 483 server, each with the plugin folder built for it,
 * serve the same warehouse at the same time. Each creates and writes tables the other then updates, merges into and
 * compacts, in every file format; after each turn both servers and Paimon Java 1.4.2 read the same rows, computed
 * here by hand. Runs in the 483 lane only ({@code -Dit.trino.version=483}), where both plugin folders are built.
 */
@TestInstance(PER_CLASS)
@EnabledIfSystemProperty(named = "paimon.trino.version", matches = "483")
final class TrinoCrossReleaseIT
{
    private static final String SCHEMA = "cross_release";
    private static final List<String> FORMATS = List.of("parquet", "orc", "avro");

    private Path localRoot;
    private TrinoServer trino476;
    private TrinoServer trino483;

    @BeforeAll
    void startServers()
            throws Exception
    {
        localRoot = Files.createTempDirectory("trino-paimon-cross-release");
        Path repositoryRoot = Path.of(System.getProperty("repository.root")).toRealPath();
        // both start at once, single nodes over one local root
        trino476 = TrinoServer.launch(repositoryRoot, localRoot, freePort(), "476", List.of());
        trino483 = TrinoServer.launch(repositoryRoot, localRoot, freePort(), "483", List.of());
        trino476.awaitStarted();
        trino483.awaitStarted();
        execute(trino476, "CREATE SCHEMA paimon." + SCHEMA);
    }

    @AfterAll
    void stopServers()
            throws Exception
    {
        try {
            if (trino476 != null) {
                trino476.close();
            }
        }
        finally {
            if (trino483 != null) {
                trino483.close();
            }
            if (localRoot != null) {
                deleteRecursively(localRoot, ALLOW_INSECURE);
            }
        }
    }

    @Test
    void trino483ChangesWhatTrino476Wrote()
            throws Exception
    {
        for (String format : FORMATS) {
            rewriteAcrossReleases(trino476, trino483, "from_476_" + format, format);
        }
    }

    @Test
    void trino476ChangesWhatTrino483Wrote()
            throws Exception
    {
        for (String format : FORMATS) {
            rewriteAcrossReleases(trino483, trino476, "from_483_" + format, format);
        }
    }

    /**
     * {@code creator} creates the table and inserts; {@code other} updates, merges (a delete and an insert); the
     * creator upserts a key again; the other compacts the files of both. Both releases and Paimon Java read each state.
     */
    private void rewriteAcrossReleases(TrinoServer creator, TrinoServer other, String table, String format)
            throws Exception
    {
        String name = "paimon.%s.%s".formatted(SCHEMA, table);
        execute(creator, """
                CREATE TABLE %s (dt varchar, id integer, name varchar, amount decimal(12, 2), ts timestamp(3), tags array(varchar))
                WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 2, file_format = '%s')
                """.formatted(name, format));
        execute(creator, """
                INSERT INTO %s VALUES
                    ('2026-11-01', 1, 'alice', 12.50, TIMESTAMP '2026-11-01 10:00:00.000', ARRAY['a', 'b']),
                    ('2026-11-01', 2, 'bob', 7.25, TIMESTAMP '2026-11-01 11:30:00.123', ARRAY[]),
                    ('2026-11-02', 3, 'carol', NULL, TIMESTAMP '2026-11-02 09:15:00.000', NULL),
                    ('2026-11-02', 4, 'dave', 100.00, NULL, ARRAY['x'])
                """.formatted(name));
        List<List<Object>> inserted = List.of(
                row("2026-11-01", 1, "alice", "12.50", "2026-11-01T10:00", List.of("a", "b")),
                row("2026-11-01", 2, "bob", "7.25", "2026-11-01T11:30:00.123", List.of()),
                row("2026-11-02", 3, "carol", null, "2026-11-02T09:15", null),
                row("2026-11-02", 4, "dave", "100.00", null, List.of("x")));
        assertEveryoneReads(table, inserted);

        execute(other, "UPDATE %s SET amount = amount + 1, tags = ARRAY['u'] WHERE id = 2".formatted(name));
        execute(other, """
                MERGE INTO %s t USING (VALUES ('2026-11-02', 3), ('2026-11-03', 5)) s(dt, id) ON t.dt = s.dt AND t.id = s.id
                    WHEN MATCHED THEN DELETE
                    WHEN NOT MATCHED THEN INSERT VALUES (s.dt, s.id, 'erin', 5.00, TIMESTAMP '2026-11-03 08:00:00.000', ARRAY['e'])
                """.formatted(name));
        List<List<Object>> changed = List.of(
                inserted.get(0),
                row("2026-11-01", 2, "bob", "8.25", "2026-11-01T11:30:00.123", List.of("u")),
                inserted.get(3),
                row("2026-11-03", 5, "erin", "5.00", "2026-11-03T08:00", List.of("e")));
        assertEveryoneReads(table, changed);

        execute(creator, "INSERT INTO %s VALUES ('2026-11-01', 1, 'alice', 13.00, TIMESTAMP '2026-11-01 10:00:00.000', ARRAY['a', 'b', 'c'])".formatted(name));
        execute(other, "ALTER TABLE %s EXECUTE optimize".formatted(name));
        List<List<Object>> compacted = List.of(
                row("2026-11-01", 1, "alice", "13.00", "2026-11-01T10:00", List.of("a", "b", "c")),
                changed.get(1),
                changed.get(2),
                changed.get(3));
        assertEveryoneReads(table, compacted);
    }

    private void assertEveryoneReads(String table, List<List<Object>> expected)
            throws Exception
    {
        String query = "SELECT dt, id, name, amount, ts, tags FROM paimon.%s.%s".formatted(SCHEMA, table);
        assertThat(sorted(rows(trino476, query))).as("Trino 476 reads %s", table).isEqualTo(expected);
        assertThat(sorted(rows(trino483, query))).as("Trino 483 reads %s", table).isEqualTo(expected);
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(localRoot.resolve("warehouse"))) {
            assertThat(sorted(PaimonJavaValues.readValues(paimon.getTable(SCHEMA, table)))).as("Paimon Java reads %s", table).isEqualTo(expected);
        }
    }

    // values as PaimonJavaValues gives them: decimals as BigDecimal, timestamps as LocalDateTime, arrays as lists
    private static List<Object> row(String dt, int id, String name, String amount, String ts, List<String> tags)
    {
        return Arrays.asList(dt, id, name, amount == null ? null : new BigDecimal(amount), ts == null ? null : LocalDateTime.parse(ts), tags);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        return rows.stream()
                .sorted(Comparator.comparing((List<Object> row) -> (String) row.get(0)).thenComparing(row -> (Integer) row.get(1)))
                .toList();
    }

    private static List<List<Object>> rows(TrinoServer server, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                Array tags = result.getArray(6);
                rows.add(Arrays.asList(
                        result.getString(1),
                        result.getInt(2),
                        result.getString(3),
                        result.getBigDecimal(4),
                        result.getObject(5, LocalDateTime.class),
                        tags == null ? null : Arrays.asList((Object[]) tags.getArray())));
            }
        }
        return rows;
    }

    private static void execute(TrinoServer server, String sql)
            throws SQLException
    {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
