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
package io.trino.plugin.paimon.procedure;

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction on write: a statement that writes a primary-key table compacts the buckets it wrote whose sorted runs
 * call for it, as Paimon's writer does, so a bucket written only through Trino never has more runs than
 * {@code num-sorted-run.compaction-trigger}; the data stays what a model of the statements says, through Trino and
 * Paimon Java 1.4.2. {@code write-only} and the session property {@code compaction_on_write_enabled} turn it off.
 */
final class TestCompactionOnWrite
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "compaction_on_write";
    private static final int TRIGGER = 5;
    private static final int DEFAULT_INSERTS = 200;

    TestCompactionOnWrite()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("compacting", "write_only", "session_off", "row_changes")) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("num-sorted-run.compaction-trigger", String.valueOf(TRIGGER));
            if (name.equals("write_only")) {
                schema.option("write-only", "true");
            }
            paimon.createTable(DATABASE, name, schema.build());
        }
        for (String engine : List.of("aggregation", "partial-update")) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("n", DataTypes.BIGINT())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("merge-engine", engine)
                    .option(engine.equals("aggregation") ? "aggregation.remove-record-on-delete" : "partial-update.remove-record-on-delete", "true")
                    .option("num-sorted-run.compaction-trigger", String.valueOf(TRIGGER));
            if (engine.equals("aggregation")) {
                schema.option("fields.n.aggregate-function", "sum");
            }
            paimon.createTable(DATABASE, engine.replace('-', '_') + "_restart", schema.build());
        }
    }

    @Test
    void tenInsertsKeepEveryBucketWithinTheTrigger()
    {
        Map<Integer, String> model = new TreeMap<>();
        for (int statement = 0; statement < 10; statement++) {
            // keys 0..19 overlap between statements: each statement updates some keys and adds others
            StringBuilder values = new StringBuilder();
            for (int id = statement * 2; id < statement * 2 + 20; id++) {
                values.append(values.isEmpty() ? "" : ", ").append("(%s, 's%s')".formatted(id, statement));
                model.put(id, "s" + statement);
            }
            getQueryRunner().execute("INSERT INTO compacting VALUES " + values);

            assertThat(runsPerBucket("compacting").values()).as("runs per bucket after statement %s", statement).allSatisfy(runs -> assertThat(runs).isLessThanOrEqualTo(TRIGGER));
            assertThat(rows("compacting")).as("rows after statement %s", statement).isEqualTo(modelRows(model));
            assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "compacting", paimon().getTable(DATABASE, "compacting"))).isEmpty();
        }
        // a statement that compacted committed its APPEND snapshot, then a COMPACT one with the same commit user
        List<MaterializedRow> snapshots = computeActual("SELECT commit_kind, commit_user FROM \"compacting$snapshots\" ORDER BY snapshot_id").getMaterializedRows();
        assertThat(snapshots.stream().map(row -> (String) row.getField(0)).filter("COMPACT"::equals).count()).isGreaterThan(0);
        for (int i = 0; i < snapshots.size(); i++) {
            if (snapshots.get(i).getField(0).equals("COMPACT")) {
                assertThat(snapshots.get(i - 1).getField(0)).isEqualTo("APPEND");
                assertThat(snapshots.get(i).getField(1)).isEqualTo(snapshots.get(i - 1).getField(1));
            }
        }
        assertThat(computeScalar("SELECT max(level) FROM \"compacting$files\"")).isEqualTo(TRIGGER);
    }

    /**
     * A table created through Trino with Paimon's defaults (dynamic buckets, trigger 5), written only by many small
     * INSERTs ({@value #DEFAULT_INSERTS} by default, knob {@code -Dpaimon.test.inserts}), never has a bucket above
     * the trigger after a statement, and ends with the rows a model of the statements holds, through Trino and Paimon Java.
     */
    @Test
    void manyInsertsWithTheDefaultsStayWithinTheTrigger()
    {
        int inserts = Integer.getInteger("paimon.test.inserts", DEFAULT_INSERTS);
        assertUpdate("CREATE TABLE defaults (id integer, v varchar) WITH (primary_key = ARRAY['id'])");
        Map<Integer, String> model = new TreeMap<>();
        int mostRuns = 0;
        for (int statement = 0; statement < inserts; statement++) {
            // five keys per statement out of 50: every key is rewritten every ten statements
            StringBuilder values = new StringBuilder();
            for (int id = statement * 5 % 50; id < statement * 5 % 50 + 5; id++) {
                values.append(values.isEmpty() ? "" : ", ").append("(%s, 's%s')".formatted(id, statement));
                model.put(id, "s" + statement);
            }
            getQueryRunner().execute("INSERT INTO defaults VALUES " + values);
            for (int runs : runsPerBucket("defaults").values()) {
                assertThat(runs).as("runs of a bucket after statement %s", statement).isLessThanOrEqualTo(TRIGGER);
                mostRuns = Math.max(mostRuns, runs);
            }
        }
        // Paimon's universal compaction may leave a bucket at the trigger (above it, it must compact)
        assertThat(mostRuns).as("runs piled up to the trigger").isBetween(TRIGGER - 1, TRIGGER);
        assertThat(rows("defaults")).isEqualTo(modelRows(model));
        assertThat(fsckViolations("defaults")).isEmpty();
    }

    @Test
    void writeOnlyTableIsNotCompacted()
    {
        for (int statement = 0; statement < 7; statement++) {
            getQueryRunner().execute("INSERT INTO write_only VALUES (1, 'a%s'), (2, 'b%s'), (3, 'c%s')".formatted(statement, statement, statement));
        }
        assertThat(computeActual("SELECT DISTINCT commit_kind FROM \"write_only$snapshots\"").getOnlyColumnAsSet()).containsExactly("APPEND");
        assertThat(computeActual("SELECT DISTINCT level FROM \"write_only$files\"").getOnlyColumnAsSet()).containsExactly(0);
        assertThat(rows("write_only")).containsExactly("1=a6", "2=b6", "3=c6");
    }

    @Test
    void sessionPropertyTurnsItOffForAStatement()
    {
        Session off = withoutCompactionOnWrite();
        for (int statement = 0; statement < 7; statement++) {
            getQueryRunner().execute(off, "INSERT INTO session_off VALUES (1, 'a%s'), (2, 'b%s'), (3, 'c%s')".formatted(statement, statement, statement));
        }
        assertThat(computeActual("SELECT DISTINCT commit_kind FROM \"session_off$snapshots\"").getOnlyColumnAsSet()).containsExactly("APPEND");
        assertThat(runsPerBucket("session_off").values()).contains(7);

        // the next statement with the property on compacts what the buckets it writes hold
        getQueryRunner().execute("INSERT INTO session_off VALUES (1, 'last'), (2, 'last'), (3, 'last')");
        assertThat(runsPerBucket("session_off").values()).allSatisfy(runs -> assertThat(runs).isLessThanOrEqualTo(TRIGGER));
        assertThat(rows("session_off")).containsExactly("1=last", "2=last", "3=last");
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "session_off", paimon().getTable(DATABASE, "session_off"))).isEmpty();
    }

    @Test
    void updatesAndDeletesCompactToo()
    {
        getQueryRunner().execute("INSERT INTO row_changes SELECT CAST(n AS integer), 'v' FROM UNNEST(sequence(1, 40)) AS t(n)");
        Map<Integer, String> model = new TreeMap<>();
        for (int id = 1; id <= 40; id++) {
            model.put(id, "v");
        }
        for (int statement = 0; statement < 8; statement++) {
            if (statement % 2 == 0) {
                getQueryRunner().execute("UPDATE row_changes SET v = 'u%s' WHERE id %% 3 = %s".formatted(statement, statement % 3));
                int remainder = statement % 3;
                String value = "u" + statement;
                model.replaceAll((id, old) -> id % 3 == remainder ? value : old);
            }
            else {
                getQueryRunner().execute("DELETE FROM row_changes WHERE id = %s".formatted(statement * 4));
                model.remove(statement * 4);
            }
            assertThat(runsPerBucket("row_changes").values()).as("runs per bucket after statement %s", statement).allSatisfy(runs -> assertThat(runs).isLessThanOrEqualTo(TRIGGER));
            assertThat(rows("row_changes")).isEqualTo(modelRows(model));
            assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "row_changes", paimon().getTable(DATABASE, "row_changes"))).isEmpty();
        }
    }

    /**
     * A -D on these tables restarts the row: after DELETE and INSERT of key 1 its value is what the INSERT wrote,
     * neither summed with (aggregation) nor filled in from (partial-update) the deleted row. The deleted row lies in
     * the bucket's large highest-level run, which the size-ratio rule leaves out of the compaction of the small
     * level-0 runs that hold the -D and the new row.
     */
    @ParameterizedTest
    @ValueSource(strings = {"aggregation_restart", "partial_update_restart"})
    void deleteRestartsRowAcrossCompaction(String table)
    {
        getQueryRunner().execute("INSERT INTO %s SELECT CAST(x AS integer), 10 FROM UNNEST(sequence(1, 5000)) AS t(x)".formatted(table));
        getQueryRunner().execute("ALTER TABLE %s EXECUTE optimize".formatted(table));
        getQueryRunner().execute("DELETE FROM %s WHERE id = 1".formatted(table));
        // NULL: a partial update would fill it in from the deleted row if the -D were lost
        getQueryRunner().execute("INSERT INTO %s VALUES (1, %s)".formatted(table, table.startsWith("aggregation") ? "5" : "CAST(NULL AS bigint)"));
        for (int id = 6001; id < 6001 + TRIGGER; id++) {
            getQueryRunner().execute("INSERT INTO %s VALUES (%s, 1)".formatted(table, id));
        }
        assertThat(computeActual("SELECT DISTINCT commit_kind FROM \"%s$snapshots\" WHERE snapshot_id > 3".formatted(table)).getOnlyColumnAsSet()).contains("COMPACT");

        Object expected = table.startsWith("aggregation") ? 5L : null;
        assertThat(computeActual("SELECT n FROM %s WHERE id = 1".formatted(table)).getOnlyValue()).isEqualTo(expected);
        assertThat(computeScalar("SELECT count(*) FROM " + table)).isEqualTo(5000L + TRIGGER);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimon().getTable(DATABASE, table))).isEmpty();
    }

    // sorted runs per bucket: each level-0 file is one, each other non-empty level one
    private Map<Integer, Integer> runsPerBucket(String table)
    {
        Map<Integer, Integer> runs = new TreeMap<>();
        for (MaterializedRow row : computeActual("SELECT bucket, count_if(level = 0) + count(DISTINCT nullif(level, 0)) FROM \"%s$files\" GROUP BY bucket".formatted(table)).getMaterializedRows()) {
            runs.put((Integer) row.getField(0), ((Long) row.getField(1)).intValue());
        }
        return runs;
    }

    private List<String> rows(String table)
    {
        return computeActual("SELECT id, v FROM " + table).getMaterializedRows().stream()
                .map(row -> row.getField(0) + "=" + row.getField(1))
                .sorted()
                .toList();
    }

    private static List<String> modelRows(Map<Integer, String> model)
    {
        return model.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).sorted().toList();
    }
}
