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

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * INSERT with {@code insert_existing_partitions_behavior = 'OVERWRITE'} on tables Paimon Java wrote, read back by
 * Paimon Java 1.4.2: the partitions written hold exactly the new rows, the others keep theirs, and an unpartitioned
 * table holds exactly the new rows, all in one OVERWRITE snapshot.
 */
final class TestPaimonInsertOverwrite
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "overwrites";

    TestPaimonInsertOverwrite()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        Table keyed = paimon.createTable(DATABASE, "keyed_partitions", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(keyed, List.of(row("d1", 1, "a"), row("d1", 2, "b"), row("d2", 1, "c"), row("d3", 5, "e")));

        Table append = paimon.createTable(DATABASE, "append_partitions", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .build());
        PaimonJavaCatalog.write(append, List.of(row("d1", 1, "a"), row("d1", 1, "a"), row("d2", 2, "b")));

        for (String name : List.of("unpartitioned", "emptied")) {
            Table unpartitioned = paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("dt", DataTypes.STRING())
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .build());
            PaimonJavaCatalog.write(unpartitioned, List.of(row("x", 1, "a"), row("x", 2, "b"), row("x", 3, "c")));
        }
    }

    @Test
    void overwriteReplacesThePartitionsWritten()
    {
        assertUpdate(overwrite(), "INSERT INTO keyed_partitions VALUES ('d1', 3, 'new'), ('d2', 1, 'replaced'), ('d4', 7, 'added')", 3);
        Table table = paimon().getTable(DATABASE, "keyed_partitions");
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly(
                "+I(d1, 3, new)",
                "+I(d2, 1, replaced)",
                "+I(d3, 5, e)",
                "+I(d4, 7, added)");
        assertThat(latestSnapshot(table).commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);

        // the default appends
        assertUpdate("INSERT INTO keyed_partitions VALUES ('d3', 6, 'f')", 1);
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "keyed_partitions"))).contains("+I(d3, 5, e)", "+I(d3, 6, f)");
    }

    @Test
    void overwriteOfAppendTable()
    {
        assertUpdate(overwrite(), "INSERT INTO append_partitions VALUES ('d1', 9, 'z')", 1);
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "append_partitions")))
                .containsExactly("+I(d1, 9, z)", "+I(d2, 2, b)");
    }

    @Test
    void overwriteOfUnpartitionedTableReplacesEveryRow()
    {
        assertUpdate(overwrite(), "INSERT INTO unpartitioned VALUES ('y', 2, 'new'), ('y', 4, 'four')", 2);
        Table table = paimon().getTable(DATABASE, "unpartitioned");
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(y, 2, new)", "+I(y, 4, four)");
        assertThat(latestSnapshot(table).commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertQuery("SELECT * FROM unpartitioned", "VALUES ('y', 2, 'new'), ('y', 4, 'four')");

        // no rows: the table is emptied, as Paimon's INSERT OVERWRITE of an unpartitioned table empties it
        assertUpdate(overwrite(), "INSERT INTO emptied SELECT * FROM emptied WHERE id > 10", 0);
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "emptied"))).isEmpty();
    }

    private Session overwrite()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "insert_existing_partitions_behavior", "OVERWRITE")
                .build();
    }

    private static Snapshot latestSnapshot(Table table)
    {
        return ((FileStoreTable) table).snapshotManager().latestSnapshot();
    }

    private static GenericRow row(String dt, int id, String v)
    {
        return GenericRow.of(BinaryString.fromString(dt), id, BinaryString.fromString(v));
    }
}
