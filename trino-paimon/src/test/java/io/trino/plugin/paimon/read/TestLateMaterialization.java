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

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.ConnectorMetrics;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;

import static io.trino.plugin.paimon.PaimonSessionProperties.LATE_MATERIALIZATION_ENABLED;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_READ_METRIC;
import static io.trino.plugin.paimon.read.PaimonPageSource.RECORDS_VALUES_UNREAD_METRIC;
import static io.trino.plugin.paimon.read.TestPaimonReadWorkloads.randomChanges;
import static io.trino.plugin.paimon.read.TestPaimonReadWorkloads.schema;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Merged reads of deduplicate tables read a page's value columns only when the merge returns one of its records.
 * The rows equal Paimon Java's with it and without it, and the records whose values were never read follow by hand
 * from the batches Trino's Parquet reader reads: 1, 2, 4, ... rows, then 8,192 at a time.
 */
final class TestLateMaterialization
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "late_values";
    private static final long SEED = 20261202;

    TestLateMaterialization()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // keys 0..59,999, then new values for keys 0..29,999: one section of two sorted runs, one file each
        Table clustered = paimon.createTable(DATABASE, "clustered", schema(Map.of("bucket", "1", "write-only", "true")));
        PaimonJavaCatalog.write(clustered, LongStream.range(0, 60_000).mapToObj(id -> row(RowKind.INSERT, id, "base-" + id, (int) (id % 1000), 0)).toList());
        PaimonJavaCatalog.write(clustered, LongStream.range(0, 30_000).mapToObj(id -> row(RowKind.INSERT, id, "new-" + id, (int) -id, 1)).toList());

        writeRandomChanges(paimon.createTable(DATABASE, "random_changes", schema(Map.of("bucket", "2", "write-only", "true"))), new Random(SEED));
        writeRandomChanges(paimon.createTable(DATABASE, "random_sequence_field", schema(Map.of("bucket", "2", "write-only", "true", "sequence.field", "ts"))), new Random(SEED + 1));
    }

    @Test
    void pagesWhoseRecordsAllLoseAreNotDecoded()
    {
        // the older run's batches cover keys 0..8,190 (1 + 2 + ... + 4,096 rows), then 8,191..16,382, 16,383..24,574
        // and 24,575..32,766: the first 15 hold only keys that have newer records, the 16th holds winners too
        assertThat(readMetrics("clustered", true)).containsEntry(RECORDS_READ_METRIC, 90_000L).containsEntry(RECORDS_VALUES_UNREAD_METRIC, 24_575L);
        assertThat(readMetrics("clustered", false)).containsEntry(RECORDS_READ_METRIC, 90_000L).containsEntry(RECORDS_VALUES_UNREAD_METRIC, 0L);
        assertSameRows("clustered");
    }

    @Test
    void randomChangesReadTheSameRows()
    {
        assertSameRows("random_changes");
    }

    @Test
    void randomChangesOrderedByASequenceField()
    {
        assertSameRows("random_sequence_field");
    }

    @Test
    void projectionsLeavingOutTheSequenceField()
    {
        // the merge reads ts although the query does not ask for it: it is a value channel past the output columns
        List<String> expected = RowText.paimonText(paimon().getTable(DATABASE, "random_sequence_field")).stream()
                .map(row -> row.substring(0, row.lastIndexOf(',')) + ")")
                .sorted()
                .toList();
        long rows = expected.size();
        for (boolean late : new boolean[] {true, false}) {
            List<String> actual = RowText.paimonText(computeActual(session(late), "SELECT id, name, amount FROM random_sequence_field"));
            assertThat(actual).as("late materialization %s", late).isEqualTo(expected);
            assertThat(computeActual(session(late), "SELECT count(*) FROM random_sequence_field").getOnlyValue()).isEqualTo(rows);
        }
    }

    // Paimon Java's rows, read with and without late materialization
    private void assertSameRows(String table)
    {
        List<String> expected = RowText.paimonText(paimon().getTable(DATABASE, table));
        assertThat(expected).hasSizeGreaterThan(1000);
        for (boolean late : new boolean[] {true, false}) {
            List<String> actual = RowText.paimonText(computeActual(session(late), "SELECT * FROM " + table));
            assertThat(actual).as("late materialization %s", late).isEqualTo(expected);
        }
    }

    private Map<String, Long> readMetrics(String table, boolean late)
    {
        return ConnectorMetrics.run(getQueryRunner(), session(late), "SELECT * FROM " + table, "paimon.");
    }

    private Session session(boolean late)
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, LATE_MATERIALIZATION_ENABLED, String.valueOf(late))
                .build();
    }

    // six commits of 8,000 changes on 20,000 keys; ts takes few values, so it ties often
    private static void writeRandomChanges(Table table, Random random)
    {
        for (int commit = 0; commit < 6; commit++) {
            PaimonJavaCatalog.write(table, randomChanges(random, 20_000, 8_000, false));
        }
    }

    private static GenericRow row(RowKind kind, long id, String name, int amount, long ts)
    {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(name), amount, ts);
    }
}
