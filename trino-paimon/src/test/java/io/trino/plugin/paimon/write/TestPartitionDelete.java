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

import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DELETE whose predicate selects whole partitions, and TRUNCATE TABLE, on tables Paimon Java 1.4.2 wrote: one
 * OVERWRITE snapshot that no longer references the files of the partitions dropped, the other partitions intact,
 * and Paimon Java reading the same rows.
 */
final class TestPartitionDelete
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "drops";

    private PaimonJavaCatalog oracle;

    TestPartitionDelete()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("keyed", "mixed")) {
            Table keyed = paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("dt", DataTypes.STRING())
                    .column("hr", DataTypes.INT())
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("dt", "hr", "id")
                    .partitionKeys("dt", "hr")
                    .option("bucket", "2")
                    .build());
            PaimonJavaCatalog.write(keyed, List.of(row("d1", 1, 1, "a"), row("d1", 1, 2, "b"), row("d1", 2, 3, "c"), row("d2", 1, 4, "d")));
            PaimonJavaCatalog.write(keyed, List.of(row("d1", 1, 2, "b2"), row("d3", 1, 5, "e")));
        }

        Table appended = paimon.createTable(DATABASE, "appended", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .partitionKeys("dt")
                .build());
        PaimonJavaCatalog.write(appended, List.of(GenericRow.of(text("d1"), 1), GenericRow.of(text("d1"), 1), GenericRow.of(text("d2"), 2)));

        for (String name : List.of("truncated", "emptied")) {
            Table unpartitioned = paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .build());
            PaimonJavaCatalog.write(unpartitioned, List.of(GenericRow.of(1, text("a")), GenericRow.of(2, text("b")), GenericRow.of(3, text("c"))));
        }

        Table dynamic = paimon.createTable(DATABASE, "dynamic", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .build());
        PaimonJavaCatalog.writeDynamicBuckets(dynamic, List.of(
                GenericRow.of(text("d1"), 1, text("a")),
                GenericRow.of(text("d1"), 2, text("b")),
                GenericRow.of(text("d2"), 3, text("c"))));
    }

    @Test
    void deleteOfPartitionsDropsThem()
    {
        Set<String> d1h1Files = files("keyed", "d1", 1);
        assertThat(d1h1Files).hasSize(2);

        getQueryRunner().execute("DELETE FROM keyed WHERE dt = 'd1' AND hr = 1");
        FileStoreTable table = table("keyed");
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(d1, 2, 3, c)", "+I(d2, 1, 4, d)", "+I(d3, 1, 5, e)");
        assertQuery("SELECT * FROM keyed", "VALUES ('d1', 2, 3, 'c'), ('d2', 1, 4, 'd'), ('d3', 1, 5, 'e')");
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        assertThat(snapshot.commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(snapshot.id()).isEqualTo(3);
        assertThat(liveFileNames(table)).doesNotContainAnyElementsOf(d1h1Files);
        assertThat(files("keyed", "d1", 2)).hasSize(1);

        // an IN list over partitions, one of which does not exist
        getQueryRunner().execute("DELETE FROM keyed WHERE dt IN ('d2', 'd9')");
        assertThat(PaimonJavaCatalog.readRows(table("keyed"))).containsExactly("+I(d1, 2, 3, c)", "+I(d3, 1, 5, e)");
        assertThat(fsck("keyed")).isEmpty();

        // rows written again into a dropped partition stand alone
        assertUpdate("INSERT INTO keyed VALUES ('d1', 1, 2, 'again')", 1);
        assertThat(PaimonJavaCatalog.readRows(table("keyed"))).containsExactly("+I(d1, 1, 2, again)", "+I(d1, 2, 3, c)", "+I(d3, 1, 5, e)");
    }

    @Test
    void deleteOfAppendPartitionCountsItsRows()
    {
        assertUpdate("DELETE FROM appended WHERE dt = 'd1'", 2);
        assertThat(PaimonJavaCatalog.readRows(table("appended"))).containsExactly("+I(d2, 2)");
        assertQuery("SELECT * FROM appended", "VALUES ('d2', 2)");
        assertUpdate("DELETE FROM appended WHERE dt = 'd7'", 0);
        assertThat(table("appended").snapshotManager().latestSnapshotId()).isEqualTo(2);
    }

    @Test
    void deleteNamingValueColumnsIsNoPartitionDrop()
    {
        // a primary-key table deletes the rows the predicate names through the merge path, not the partition
        assertUpdate("DELETE FROM mixed WHERE dt = 'd1' AND v = 'c'", 1);
        assertThat(table("mixed").snapshotManager().latestSnapshot().commitKind()).isNotEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(PaimonJavaCatalog.readRows(table("mixed"))).containsExactly("+I(d1, 1, 1, a)", "+I(d1, 1, 2, b2)", "+I(d2, 1, 4, d)", "+I(d3, 1, 5, e)");
    }

    @Test
    void appendTableRefusesRowChangesNamingWhatItSupports()
    {
        long snapshotBefore = table("appended").snapshotManager().latestSnapshotId();
        String refusal = "Cannot change rows of Paimon table drops.appended: it is an append table (no primary key), whose rows have no key to address them by, " +
                "so UPDATE, MERGE and DELETE of single rows are not supported; supported are DELETE of whole partitions (a WHERE clause on the partition columns dt only) and TRUNCATE TABLE";
        assertThat(query("DELETE FROM appended WHERE id = 1")).failure().hasMessage(refusal);
        assertThat(query("DELETE FROM appended WHERE dt = 'd1' AND id = 1")).failure().hasMessage(refusal);
        assertThat(query("UPDATE appended SET id = 3 WHERE dt = 'd2'")).failure().hasMessage(refusal);
        assertThat(query("""
                MERGE INTO appended t USING (VALUES ('d2', 2)) s(dt, id) ON t.dt = s.dt AND t.id = s.id
                WHEN MATCHED THEN DELETE""")).failure().hasMessage(refusal);
        assertThat(table("appended").snapshotManager().latestSnapshotId()).isEqualTo(snapshotBefore);
    }

    @Test
    void truncateAndDeleteWithoutPredicateEmptyTheTable()
    {
        assertUpdate("TRUNCATE TABLE truncated");
        FileStoreTable table = table("truncated");
        assertThat(PaimonJavaCatalog.readRows(table)).isEmpty();
        assertThat(table.snapshotManager().latestSnapshot().commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(table.store().newScan().plan().files()).isEmpty();
        assertQueryReturnsEmptyResult("SELECT * FROM truncated");
        assertUpdate("INSERT INTO truncated VALUES (2, 'new')", 1);
        assertThat(PaimonJavaCatalog.readRows(table("truncated"))).containsExactly("+I(2, new)");
        assertThat(fsck("truncated")).isEmpty();

        getQueryRunner().execute("DELETE FROM emptied");
        assertThat(PaimonJavaCatalog.readRows(table("emptied"))).isEmpty();
        assertThat(table("emptied").snapshotManager().latestSnapshot().commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);
    }

    @Test
    void dropOfDynamicBucketPartitionDropsItsKeyIndex()
    {
        assertThat(indexPartitions("dynamic")).containsExactlyInAnyOrder("d1", "d2");
        getQueryRunner().execute("DELETE FROM dynamic WHERE dt = 'd1'");
        assertThat(indexPartitions("dynamic")).containsExactly("d2");
        assertThat(PaimonJavaCatalog.readRows(table("dynamic"))).containsExactly("+I(d2, 3, c)");

        assertUpdate("INSERT INTO dynamic VALUES ('d1', 1, 'new'), ('d2', 3, 'c2')", 2);
        assertThat(PaimonJavaCatalog.readRows(table("dynamic"))).containsExactly("+I(d1, 1, new)", "+I(d2, 3, c2)");
        assertThat(indexPartitions("dynamic")).containsExactlyInAnyOrder("d1", "d2");
        assertThat(fsck("dynamic")).isEmpty();
    }

    // the partitions (first partition column) that the latest snapshot's key index holds files for
    private List<String> indexPartitions(String name)
    {
        LocalFileSystem fileSystem = new LocalFileSystem(root());
        Location location = tableLocation(name);
        io.trino.plugin.paimon.format.snapshot.Snapshot snapshot = new SnapshotFiles(fileSystem, location).latestSnapshot().orElseThrow();
        List<String> partitions = new ArrayList<>();
        for (IndexManifestEntry entry : new SnapshotScan(fileSystem, location).indexFiles(snapshot, ScanFilter.ALL)) {
            if (entry.indexType().equals(IndexManifestEntry.HASH_INDEX)) {
                partitions.add((String) entry.partition().get(0, new DataType.VarCharType(true, DataType.MAX_LENGTH)));
            }
        }
        return partitions;
    }

    private Set<String> files(String name, String dt, int hr)
    {
        return table(name).store().newScan().plan().files().stream()
                .filter(entry -> entry.partition().getString(0).toString().equals(dt) && entry.partition().getInt(1) == hr)
                .map(entry -> entry.file().fileName())
                .collect(toSet());
    }

    private static Set<String> liveFileNames(FileStoreTable table)
    {
        return table.store().newScan().plan().files().stream()
                .map(entry -> entry.file().fileName())
                .collect(toSet());
    }

    private List<String> fsck(String name)
    {
        Table paimonTable = table(name);
        List<String> violations = new ArrayList<>(Fsck.check(new LocalFileSystem(root()), tableLocation(name), paimonTable));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), name, paimonTable));
        return violations;
    }

    private FileStoreTable table(String name)
    {
        return (FileStoreTable) oracle().getTable(DATABASE, name);
    }

    private static GenericRow row(String dt, int hr, int id, String v)
    {
        return GenericRow.of(text(dt), hr, id, text(v));
    }

    private static BinaryString text(String value)
    {
        return BinaryString.fromString(value);
    }

    // Paimon Java without its table cache: these tests change schemas and files behind its back
    private PaimonJavaCatalog oracle()
    {
        if (oracle == null) {
            oracle = PaimonJavaCatalog.uncached(paimon().warehouse());
        }
        return oracle;
    }

    @AfterAll
    public void closeOracle()
            throws Exception
    {
        if (oracle != null) {
            oracle.close();
        }
    }
}
