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
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads of older versions of a table Paimon Java wrote: by snapshot id, by tag and by time, each against Paimon
 * Java's own read of the same version ({@code scan.snapshot-id}, {@code scan.tag-name}). A version is read with the
 * schema it was written with, and a tag outlives the expiry of its snapshot.
 */
final class TestTimeTravel
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "time_travel";

    private long secondSnapshotMillis;
    private long firstSnapshotMillis;

    TestTimeTravel()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        Table table = paimon.createTable(DATABASE, "orders", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("status", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        // snapshot 1, schema 0
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("NEW")), GenericRow.of(2, text("NEW"))));
        paimon.alterTable(DATABASE, "orders", SchemaChange.addColumn("amount", DataTypes.INT()));
        table = paimon.getTable(DATABASE, "orders");
        waitForNextMillisecond(table);
        // snapshot 2, schema 1
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("PAID"), 10), GenericRow.of(3, text("NEW"), 30)));
        table.createTag("first", 1);
        waitForNextMillisecond(table);
        // snapshot 3
        PaimonJavaCatalog.write(table, List.of(GenericRow.ofKind(RowKind.DELETE, 2, text("NEW"), null)));
        firstSnapshotMillis = ((FileStoreTable) table).snapshotManager().snapshot(1).timeMillis();
        secondSnapshotMillis = ((FileStoreTable) table).snapshotManager().snapshot(2).timeMillis();
    }

    @Test
    void readsASnapshotWithItsSchema()
    {
        assertThat(rows("SELECT * FROM orders FOR VERSION AS OF 1")).containsExactly("(1, NEW)", "(2, NEW)");
        assertThat(rows("SELECT * FROM orders FOR VERSION AS OF 1")).containsExactlyElementsOf(paimonRows(Map.of("scan.snapshot-id", "1")));
        assertThat(rows("SELECT * FROM orders FOR VERSION AS OF 2")).containsExactly("(1, PAID, 10)", "(2, NEW, null)", "(3, NEW, 30)");
        assertThat(rows("SELECT * FROM orders FOR VERSION AS OF 2")).containsExactlyElementsOf(paimonRows(Map.of("scan.snapshot-id", "2")));
        assertThat(rows("SELECT * FROM orders")).containsExactly("(1, PAID, 10)", "(3, NEW, 30)");
        assertThat(computeActual("SELECT amount FROM orders FOR VERSION AS OF 3 WHERE id = 1").getOnlyValue()).isEqualTo(10);
        assertQueryFails("SELECT amount FROM orders FOR VERSION AS OF 1", ".*Column 'amount' cannot be resolved");
    }

    @Test
    void readsATag()
    {
        assertThat(rows("SELECT * FROM orders FOR VERSION AS OF 'first'")).containsExactly("(1, NEW)", "(2, NEW)");
        assertThat(rows("SELECT * FROM orders FOR VERSION AS OF 'first'")).containsExactlyElementsOf(paimonRows(Map.of("scan.tag-name", "first")));
    }

    @Test
    void readsTheSnapshotCommittedAtOrBeforeATime()
    {
        String second = Instant.ofEpochMilli(secondSnapshotMillis).toString();
        assertThat(rows("SELECT * FROM orders FOR TIMESTAMP AS OF from_iso8601_timestamp('%s')".formatted(second)))
                .containsExactlyElementsOf(paimonRows(Map.of("scan.snapshot-id", "2")));
        String justBeforeSecond = Instant.ofEpochMilli(secondSnapshotMillis - 1).toString();
        assertThat(rows("SELECT * FROM orders FOR TIMESTAMP AS OF from_iso8601_timestamp('%s')".formatted(justBeforeSecond)))
                .containsExactlyElementsOf(paimonRows(Map.of("scan.snapshot-id", "1")));
        // a timestamp without a zone is a time in the session's zone
        String local = LocalDateTime.ofInstant(Instant.ofEpochMilli(secondSnapshotMillis), getSession().getTimeZoneKey().getZoneId())
                .format(DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS"));
        assertThat(rows("SELECT * FROM orders FOR TIMESTAMP AS OF TIMESTAMP '%s'".formatted(local)))
                .containsExactlyElementsOf(paimonRows(Map.of("scan.snapshot-id", "2")));
    }

    @Test
    void missingVersionsAreErrors()
    {
        assertQueryFails("SELECT * FROM orders FOR VERSION AS OF 99", "Table time_travel.orders has no snapshot 99; the latest snapshot is 3");
        assertQueryFails("SELECT * FROM orders FOR VERSION AS OF 'nope'", "Table time_travel.orders has no tag 'nope'");
        assertQueryFails("SELECT * FROM orders FOR VERSION AS OF '../snapshot/snapshot-1'", "Table time_travel.orders has no tag '../snapshot/snapshot-1'");
        String beforeFirst = Instant.ofEpochMilli(firstSnapshotMillis - 1).toString();
        assertQueryFails("SELECT * FROM orders FOR TIMESTAMP AS OF from_iso8601_timestamp('%s')".formatted(beforeFirst),
                "Table time_travel.orders has no snapshot committed at or before " + beforeFirst);
    }

    @Test
    void aTagOutlivesItsExpiredSnapshot()
            throws Exception
    {
        Table table = paimon().createTable(DATABASE, "expiring", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("a")), GenericRow.of(2, text("b"))));
        table.createTag("kept", 1);
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, text("c"))));
        PaimonJavaCatalog.compact(table, root(), 1, _ -> true);
        table.newExpireSnapshots().config(ExpireConfig.builder().snapshotRetainMin(1).snapshotRetainMax(1).build()).expire();
        assertThat(((FileStoreTable) table).snapshotManager().snapshotExists(1)).isFalse();

        assertQueryFails("SELECT * FROM expiring FOR VERSION AS OF 1", "Table time_travel.expiring: snapshot 1 has expired; the earliest snapshot is 3");
        assertThat(rows("SELECT * FROM expiring FOR VERSION AS OF 'kept'")).containsExactly("(1, a)", "(2, b)");
        assertThat(rows("SELECT * FROM expiring")).containsExactly("(1, c)", "(2, b)");
    }

    private List<String> rows(String query)
    {
        return RowText.paimonText(computeActual(query));
    }

    private List<String> paimonRows(Map<String, String> version)
    {
        return RowText.paimonText(paimon().getTable(DATABASE, "orders").copy(version));
    }

    // FOR TIMESTAMP AS OF tells snapshots apart by their commit millisecond
    private static void waitForNextMillisecond(Table table)
            throws InterruptedException
    {
        long latest = ((FileStoreTable) table).snapshotManager().latestSnapshot().timeMillis();
        while (System.currentTimeMillis() <= latest + 1) {
            Thread.sleep(1);
        }
    }

    private static BinaryString text(String value)
    {
        return BinaryString.fromString(value);
    }
}
