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
package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random workloads written by Paimon Java and read through SQL: inserts, updates and deletes on a few
 * thousand keys over several commits and buckets, with and without compactions in between, with a user sequence
 * field, on a dynamic-bucket table and on a lookup-changelog table. Trino's rows equal Paimon Java's.
 */
@Tag("slow")
final class TestPaimonReadWorkloads
        extends AbstractPaimonJavaQueryTest
{
    private static final long SEED = 20261129;

    TestPaimonReadWorkloads()
    {
        super("db");
    }

    @Test
    void randomChangesOverManySortedRuns()
            throws Exception
    {
        Table table = create("random_runs", Map.of("bucket", "4", "write-only", "true"));
        runWorkload(table, new Random(SEED), 6, 2_000, 3_000, false);
        assertSameRows(table);
    }

    @Test
    void randomChangesWithCompactionsInBetween()
            throws Exception
    {
        Table table = create("random_compacted", Map.of("bucket", "3", "write-only", "true"));
        runWorkload(table, new Random(SEED + 1), 6, 2_000, 3_000, true);
        assertSameRows(table);
    }

    @Test
    void randomChangesWithASequenceField()
            throws Exception
    {
        Table table = create("random_sequence", Map.of("bucket", "2", "write-only", "true", "sequence.field", "ts"));
        runWorkload(table, new Random(SEED + 2), 5, 2_000, 2_500, false);
        assertSameRows(table);
    }

    @Test
    void dynamicBucketTable()
            throws Exception
    {
        Table table = create("dynamic_bucket", Map.of("bucket", "-1"));
        runWorkload(table, new Random(SEED + 3), 5, 1_000, 2_000, false);
        assertThat(computeScalar("SELECT count(DISTINCT bucket) FROM \"dynamic_bucket$files\"")).isNotEqualTo(1L);
        assertSameRows(table);
    }

    @Test
    void lookupChangelogTable()
            throws Exception
    {
        // every commit compacts through lookup, so keys live in several non-zero levels
        Table table = create("lookup_changelog", Map.of("bucket", "2", "changelog-producer", "lookup"));
        runWorkload(table, new Random(SEED + 4), 5, 1_000, 2_000, false);
        assertThat(computeScalar("SELECT count(DISTINCT level) FROM \"lookup_changelog$files\" WHERE level > 0")).isNotEqualTo(0L);
        assertSameRows(table);
    }

    @Test
    void randomPartialUpdates()
            throws Exception
    {
        Table table = create("random_partial_update", Map.of("bucket", "3", "write-only", "true", "merge-engine", "partial-update", "ignore-delete", "true"));
        runWorkload(table, new Random(SEED + 5), 5, 1_500, 2_500, false, true);
        assertSameRows(table);
    }

    @Test
    void randomAggregationsWithRetractions()
            throws Exception
    {
        Table table = create("random_aggregation", Map.of(
                "bucket", "3",
                "write-only", "true",
                "merge-engine", "aggregation",
                "fields.amount.aggregate-function", "sum",
                "fields.ts.aggregate-function", "max",
                "fields.ts.ignore-retract", "true"));
        runWorkload(table, new Random(SEED + 6), 5, 1_500, 2_500, true, true);
        assertSameRows(table);
    }

    @Test
    void randomPartialUpdatesWithASequenceGroup()
            throws Exception
    {
        // ts orders name and amount; amount sums within the group; retractions clear or subtract
        Table table = create("random_partial_update_groups", Map.of(
                "bucket", "3",
                "write-only", "true",
                "merge-engine", "partial-update",
                "fields.ts.sequence-group", "name,amount",
                "fields.amount.aggregate-function", "sum"));
        runWorkload(table, new Random(SEED + 7), 5, 1_500, 2_500, true, true);
        assertSameRows(table);
    }

    @Test
    void randomAggregationsWithAMixOfFunctions()
            throws Exception
    {
        Table table = create("random_aggregation_mix", Map.of(
                "bucket", "3",
                "write-only", "true",
                "merge-engine", "aggregation",
                "fields.name.aggregate-function", "first_non_null_value",
                "fields.name.ignore-retract", "true",
                "fields.amount.aggregate-function", "sum",
                "fields.ts.aggregate-function", "last_value"));
        runWorkload(table, new Random(SEED + 8), 5, 1_500, 2_500, false, true);
        assertSameRows(table);
    }

    private Table create(String name, Map<String, String> options)
    {
        return paimon().createTable("db", name, schema(options));
    }

    /** The workloads' table: id BIGINT primary key, name STRING, amount INT, ts BIGINT. */
    static Schema schema(Map<String, String> options)
    {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.INT())
                .column("ts", DataTypes.BIGINT())
                .primaryKey("id")
                .options(options)
                .build();
    }

    /**
     * Changes of keys drawn from {@code keys}, about one in six a delete and one in six an update; with sparse
     * values, about one value in three is null, so partial updates fill columns in commit by commit.
     */
    static List<GenericRow> randomChanges(Random random, int keys, int count, boolean sparseValues)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long key = random.nextInt(keys);
            RowKind kind = switch (random.nextInt(6)) {
                case 0 -> RowKind.DELETE;
                case 1 -> RowKind.UPDATE_AFTER;
                default -> RowKind.INSERT;
            };
            rows.add(GenericRow.ofKind(kind,
                    key,
                    sparseValues && random.nextInt(3) == 0 ? null : BinaryString.fromString("n" + random.nextInt(100_000)),
                    sparseValues && random.nextInt(3) == 0 ? null : random.nextInt(1000),
                    sparseValues && random.nextInt(3) == 0 ? null : (long) random.nextInt(50)));
        }
        return rows;
    }

    /** At least 10,000 operations in total: keys drawn from a few thousand, about one in six a delete. */
    private void runWorkload(Table table, Random random, int commits, int keys, int operationsPerCommit, boolean compactBetween)
            throws Exception
    {
        runWorkload(table, random, commits, keys, operationsPerCommit, compactBetween, false);
    }

    private void runWorkload(Table table, Random random, int commits, int keys, int operationsPerCommit, boolean compactBetween, boolean sparseValues)
            throws Exception
    {
        for (int commit = 0; commit < commits; commit++) {
            List<GenericRow> rows = randomChanges(random, keys, operationsPerCommit, sparseValues);
            if (table.options().get("bucket").equals("-1")) {
                // batch writers of dynamic-bucket tables are given each row's bucket; any fixed choice per key does
                PaimonJavaCatalog.write(table, rows, row -> (int) (row.getLong(0) % 3));
            }
            else {
                PaimonJavaCatalog.write(table, rows);
            }
            if (compactBetween && commit % 2 == 1) {
                PaimonJavaCatalog.compact(table, root(), Integer.parseInt(table.options().get("bucket")), TestPaimonReadWorkloads::fullCompaction);
            }
        }
    }

    // alternate full and minor compactions so that levels mix
    private static boolean fullCompaction(int bucket)
    {
        return bucket % 2 == 0;
    }

    private void assertSameRows(Table table)
    {
        // values only: Paimon Java also reports each row's kind (+I or +U)
        List<String> expected = RowText.paimonText(paimon().getTable("db", table.name()));
        assertThat(expected).hasSizeGreaterThan(100);
        List<String> actual = RowText.paimonText(computeActual("SELECT * FROM " + table.name()));
        // report the rows that differ, not two long lists
        List<String> missing = expected.stream().filter(row -> !actual.contains(row)).limit(10).toList();
        List<String> unexpected = actual.stream().filter(row -> !expected.contains(row)).limit(10).toList();
        assertThat(missing).as("rows Paimon Java reads that Trino does not").isEmpty();
        assertThat(unexpected).as("rows Trino reads that Paimon Java does not").isEmpty();
        assertThat(actual).isEqualTo(expected);
        // the two-pass merge read, in windows of a section and smaller
        for (int window : new int[] {1 << 18, 997}) {
            assertThat(RowText.paimonText(computeActual(TwoPassSessions.twoPass(getSession(), window), "SELECT * FROM " + table.name())))
                    .as("two-pass merge read in windows of %s rows", window)
                    .isEqualTo(expected);
        }
    }
}
