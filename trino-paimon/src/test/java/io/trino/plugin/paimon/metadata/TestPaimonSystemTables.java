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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The system tables of tables Paimon Java wrote equal Paimon's own: snapshot list, scan plan, options, tags,
 * partitions, the read-optimized view ({@code $ro}), the audit log ({@code $audit_log}), branches ({@code $branches}, {@code t$branch_<name>}).
 */
final class TestPaimonSystemTables
        extends AbstractPaimonJavaQueryTest
{
    private static final String BRANCHED = "branched";
    private static final String PARTIAL_UPDATE = "partial_update";
    private static final String AGGREGATION = "aggregation";

    private Instant beforeBranches;
    private Instant afterBranches;

    TestPaimonSystemTables()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        new PaimonTestTables(paimon, root().toString()).createAll();
        Table multiCommit = paimon.getTable(DATABASE, PaimonTestTables.MULTI_COMMIT);
        multiCommit.createTag("first", 1);
        multiCommit.createTag("second", 2);
        createBranchedTable(paimon);
        createMergingTables(paimon);
        Table dated = paimon.createTable(DATABASE, "dated", Schema.newBuilder()
                .column("day", DataTypes.DATE())
                .column("shop", DataTypes.INT())
                .column("id", DataTypes.INT())
                .partitionKeys("day", "shop")
                .primaryKey("day", "shop", "id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(dated, List.of(GenericRow.of(20456, 7, 1), GenericRow.of(-1, 8, 2)));
    }

    // partial-update with a sequence group and aggregation with retractions, each two commits; key 3 of each is
    // deleted (partial-update: a -D of group g removes the row; aggregation: -D retracts its values)
    private static void createMergingTables(PaimonJavaCatalog paimon)
    {
        Table partialUpdate = paimon.createTable(DATABASE, PARTIAL_UPDATE, Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.BIGINT())
                .column("g", DataTypes.INT())
                .column("c", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("fields.g.sequence-group", "c")
                .option("partial-update.remove-record-on-sequence-group", "g")
                .build());
        PaimonJavaCatalog.write(partialUpdate, List.of(
                GenericRow.of(1, BinaryString.fromString("a1"), null, 1, BinaryString.fromString("c1")),
                GenericRow.of(2, null, 20L, 5, BinaryString.fromString("c2")),
                GenericRow.of(3, BinaryString.fromString("a3"), 30L, 1, null)));
        PaimonJavaCatalog.write(partialUpdate, List.of(
                GenericRow.of(1, null, 10L, 0, BinaryString.fromString("older")),
                GenericRow.of(2, BinaryString.fromString("a2"), null, 6, BinaryString.fromString("newer")),
                GenericRow.ofKind(RowKind.DELETE, 3, null, null, 2, null)));
        Table aggregation = paimon.createTable(DATABASE, AGGREGATION, Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .column("most", DataTypes.INT())
                .column("names", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.most.aggregate-function", "max")
                .option("fields.names.aggregate-function", "listagg")
                .option("fields.most.ignore-retract", "true")
                .option("fields.names.ignore-retract", "true")
                .build());
        PaimonJavaCatalog.write(aggregation, List.of(
                GenericRow.of(1, 5L, 3, BinaryString.fromString("x")),
                GenericRow.of(2, 7L, 1, BinaryString.fromString("y")),
                GenericRow.of(3, 1L, 1, BinaryString.fromString("z"))));
        PaimonJavaCatalog.write(aggregation, List.of(
                GenericRow.of(1, 10L, 2, BinaryString.fromString("xx")),
                GenericRow.ofKind(RowKind.UPDATE_BEFORE, 2, 7L, 1, null),
                GenericRow.ofKind(RowKind.UPDATE_AFTER, 2, 4L, 9, BinaryString.fromString("yy")),
                GenericRow.ofKind(RowKind.DELETE, 3, 1L, 1, BinaryString.fromString("z"))));
    }

    // main: snapshots 1 (tagged), 2 and 4; branch b1 from the tag: its snapshot 1, then 2 and 3 written on the branch;
    // branch "empty": the main branch's schema, no snapshot
    private void createBranchedTable(PaimonJavaCatalog paimon)
    {
        Table table = paimon.createTable(DATABASE, BRANCHED, Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(table, rows("main-1", 0, 10));
        table.createTag("t1", 1);
        PaimonJavaCatalog.write(table, rows("main-2", 5, 15));
        beforeBranches = Instant.now().minusSeconds(1);
        table.createBranch("b1", "t1");
        table.createBranch("empty");
        afterBranches = Instant.now().plusSeconds(1);
        Table branch = paimon.getTable(DATABASE, BRANCHED + "$branch_b1");
        PaimonJavaCatalog.write(branch, rows("branch-2", 3, 8));
        List<GenericRow> deletes = new ArrayList<>(rows("branch-3", 20, 22));
        deletes.add(GenericRow.ofKind(RowKind.DELETE, BinaryString.fromString("2024-01-01"), 0L, BinaryString.fromString("gone")));
        PaimonJavaCatalog.write(branch, deletes);
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, BRANCHED), rows("main-3", 30, 32));
    }

    private static List<GenericRow> rows(String name, int fromId, int toId)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int id = fromId; id < toId; id++) {
            rows.add(GenericRow.of(BinaryString.fromString(id % 2 == 0 ? "2024-01-01" : "2024-01-02"), (long) id, BinaryString.fromString(name + "-" + id)));
        }
        return rows;
    }

    @Test
    void readOptimizedEqualsPaimonsReadOptimized()
    {
        for (String tableName : PaimonTestTables.ALL) {
            assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$ro\"".formatted(tableName))))
                    .as(tableName)
                    .isEqualTo(RowText.paimonText(paimon().getTable(DATABASE, tableName + "$ro")));
        }
        // the compacted table's highest level holds its rows before the last two commits; the never-compacted table has none
        assertThat(computeActual("SELECT count(*) FROM \"%s$ro\"".formatted(PaimonTestTables.COMPACTED)).getOnlyValue()).isNotEqualTo(0L);
        assertThat(computeActual("SELECT count(*) FROM \"%s$ro\"".formatted(PaimonTestTables.COMPACTED)).getOnlyValue())
                .isNotEqualTo(computeActual("SELECT count(*) FROM %s".formatted(PaimonTestTables.COMPACTED)).getOnlyValue());
        assertThat(computeActual("SELECT count(*) FROM \"%s$ro\"".formatted(PaimonTestTables.MULTI_COMMIT)).getOnlyValue()).isEqualTo(0L);
        assertQueryFails("INSERT INTO \"%s$ro\" VALUES ('2024-01-01', 1, 'x', 1.0)".formatted(PaimonTestTables.COMPACTED), ".*Table tables.compacted\\$ro is read only");
        assertQueryFails("DELETE FROM \"%s$ro\"".formatted(PaimonTestTables.COMPACTED), ".*Table tables.compacted\\$ro is read only");
    }

    @Test
    void auditLogEqualsPaimonsAuditLog()
    {
        for (String tableName : PaimonTestTables.ALL) {
            assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$audit_log\"".formatted(tableName))))
                    .as(tableName)
                    .isEqualTo(RowText.paimonText(paimon().getTable(DATABASE, tableName + "$audit_log")));
        }
        // keys whose newest record is a deletion show as -D rows; the rest are the table's rows
        assertThat(computeActual("SELECT count(*) FROM \"%s$audit_log\" WHERE rowkind = '-D'".formatted(PaimonTestTables.MULTI_COMMIT)).getOnlyValue()).isNotEqualTo(0L);
        assertThat(RowText.paimonText(computeActual("SELECT dt, id, name, score FROM \"%s$audit_log\" WHERE rowkind <> '-D'".formatted(PaimonTestTables.MULTI_COMMIT))))
                .isEqualTo(RowText.paimonText(computeActual("SELECT * FROM %s".formatted(PaimonTestTables.MULTI_COMMIT))));
        assertThat(computeActual("SELECT DISTINCT rowkind FROM \"%s$audit_log\"".formatted(PaimonTestTables.APPEND)).getOnlyValue()).isEqualTo("+I");
        String branch = BRANCHED + "$branch_b1";
        assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$audit_log\"".formatted(branch))))
                .contains("(-D, 2024-01-01, 0, gone)")
                .isEqualTo(RowText.paimonText(paimon().getTable(DATABASE, branch + "$audit_log")));
        assertQueryFails("DELETE FROM \"%s$audit_log\"".formatted(PaimonTestTables.MULTI_COMMIT), ".*Table tables.multi_commit\\$audit_log is read only");
    }

    /**
     * The audit log of tables whose engine combines records: each key merged by the engine, and a key the last commit
     * deleted shown with the row kind Paimon 1.4.2's own {@code $audit_log} gives it.
     */
    @Test
    void auditLogOfMergingEnginesEqualsPaimonsAuditLog()
    {
        for (String tableName : List.of(PARTIAL_UPDATE, AGGREGATION)) {
            List<String> expected = RowText.paimonText(paimon().getTable(DATABASE, tableName + "$audit_log"));
            assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$audit_log\"".formatted(tableName))))
                    .as(tableName)
                    .hasSize(3)
                    .isEqualTo(expected);
            // the rows that are not retractions are the table's rows
            assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$audit_log\" WHERE rowkind IN ('+I', '+U')".formatted(tableName))).stream()
                    .map(row -> "(" + row.substring(row.indexOf(", ") + 2))
                    .toList())
                    .as(tableName)
                    .isEqualTo(RowText.paimonText(computeActual("SELECT * FROM " + tableName)));
        }
    }

    @Test
    void branchReadsEqualPaimonsBranchReads()
    {
        String branch = BRANCHED + "$branch_b1";
        List<String> expected = RowText.paimonText(paimon().getTable(DATABASE, branch));
        assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s\"".formatted(branch)))).isEqualTo(expected);
        // the branch has the tag's rows and its own, not the main branch's later ones
        assertThat(expected).contains("(2024-01-02, 21, branch-3-21)").noneMatch(row -> row.contains("main-2") || row.contains("main-3") || row.startsWith("(2024-01-01, 0,"));
        assertThat(RowText.paimonText(computeActual("SELECT * FROM %s".formatted(BRANCHED)))).isEqualTo(RowText.paimonText(paimon().getTable(DATABASE, BRANCHED)));
        // the branch's snapshots, by id: each version read as Paimon reads it
        for (long snapshotId = 1; snapshotId <= 3; snapshotId++) {
            assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s\" FOR VERSION AS OF %s".formatted(branch, snapshotId))))
                    .as("snapshot %s", snapshotId)
                    .isEqualTo(RowText.paimonText(paimon().getTable(DATABASE, branch).copy(Map.of("scan.snapshot-id", String.valueOf(snapshotId)))));
        }
        assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$ro\"".formatted(branch)))).isEqualTo(RowText.paimonText(paimon().getTable(DATABASE, branch + "$ro")));
        assertThat(computeActual("SELECT count(*) FROM \"%s$branch_empty\"".formatted(BRANCHED)).getOnlyValue()).isEqualTo(0L);
        assertThat(computeActual("SELECT count(*) FROM \"%s$branch_main\"".formatted(BRANCHED)).getOnlyValue())
                .isEqualTo(computeActual("SELECT count(*) FROM %s".formatted(BRANCHED)).getOnlyValue());
    }

    @Test
    void branchSystemTablesEqualPaimons()
            throws Exception
    {
        String branch = BRANCHED + "$branch_b1";
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, branch);
        List<String> expected = new ArrayList<>();
        for (Iterator<Snapshot> snapshots = table.snapshotManager().snapshots(); snapshots.hasNext(); ) {
            Snapshot snapshot = snapshots.next();
            expected.add("%s %s %s".formatted(snapshot.id(), snapshot.commitKind(), snapshot.totalRecordCount()));
        }
        assertThat(expected).hasSize(3);
        assertThat(computeActual("SELECT snapshot_id, commit_kind, total_record_count FROM \"%s$snapshots\" ORDER BY snapshot_id".formatted(branch))
                .getMaterializedRows().stream()
                .map(row -> "%s %s %s".formatted(row.getField(0), row.getField(1), row.getField(2)))
                .toList())
                .isEqualTo(expected);
        assertThat(RowText.paimonText(computeActual("SELECT * FROM \"%s$manifests\"".formatted(branch)))).isEqualTo(paimonColumns(branch + "$manifests", 9));
        assertThat(RowText.paimonText(computeActual("SELECT partition, bucket, record_count, file_size_in_bytes, file_count FROM \"%s$buckets\"".formatted(branch))))
                .isEqualTo(paimonColumns(branch + "$buckets", 5));
    }

    @Test
    void branchesEqualPaimonsBranches()
    {
        assertThat(paimonColumns(BRANCHED + "$branches", 1)).containsExactly("(b1)", "(empty)");
        List<MaterializedRow> rows = computeActual("SELECT branch_name, create_time FROM \"%s$branches\"".formatted(BRANCHED)).getMaterializedRows();
        assertThat(rows.stream().map(row -> "(" + row.getField(0) + ")").toList()).containsExactly("(b1)", "(empty)");
        for (MaterializedRow row : rows) {
            assertThat(((ZonedDateTime) row.getField(1)).toInstant()).isBetween(beforeBranches, afterBranches);
        }
        assertThat(computeActual("SELECT count(*) FROM \"%s$branches\"".formatted(PaimonTestTables.MULTI_COMMIT)).getOnlyValue()).isEqualTo(0L);
    }

    @Test
    void missingBranchFailsClearly()
    {
        assertQueryFails("SELECT * FROM \"%s$branch_nope\"".formatted(BRANCHED), ".*Table tables.branched has no branch 'nope'");
        assertQueryFails("SELECT * FROM \"%s$branch_nope$snapshots\"".formatted(BRANCHED), ".*Table tables.branched has no branch 'nope'");
        assertQueryFails("INSERT INTO \"%s$branch_nope\" VALUES ('2024-01-01', 1, 'x')".formatted(BRANCHED), ".*Table tables.branched has no branch 'nope'");
    }

    @Test
    void optionsEqualPaimonsOptions()
    {
        for (String tableName : PaimonTestTables.ALL) {
            assertThat(RowText.paimonText(computeActual("SELECT key, value FROM \"%s$options\"".formatted(tableName))))
                    .as(tableName)
                    .containsExactlyElementsOf(RowText.paimonText(paimon().getTable(DATABASE, tableName + "$options")));
        }
        // the append table has no options; the others have some
        assertThat(computeActual("SELECT value FROM \"%s$options\" WHERE key = 'bucket'".formatted(PaimonTestTables.MULTI_COMMIT)).getOnlyValue()).isEqualTo("2");
    }

    @Test
    void tagsEqualPaimonsTags()
    {
        assertThat(RowText.paimonText(computeActual("SELECT tag_name, snapshot_id, schema_id, record_count FROM \"%s$tags\"".formatted(PaimonTestTables.MULTI_COMMIT))))
                .containsExactly("(first, 1, 0, %s)".formatted(snapshotRecordCount(1)), "(second, 2, 0, %s)".formatted(snapshotRecordCount(2)));
        List<String> paimonTags = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, PaimonTestTables.MULTI_COMMIT + "$tags")).stream()
                .map(row -> row.substring(row.indexOf('(') + 1, row.indexOf(',', row.indexOf(',', row.indexOf(',') + 1) + 1)))
                .toList();
        assertThat(paimonTags).containsExactly("first, 1, 0", "second, 2, 0");
        assertThat(computeActual("SELECT count(*) FROM \"%s$tags\"".formatted(PaimonTestTables.COMPACTED)).getOnlyValue()).isEqualTo(0L);
    }

    @Test
    void partitionsEqualPaimonsPartitions()
    {
        for (String tableName : PaimonTestTables.ALL) {
            List<String> expected = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, tableName + "$partitions")).stream()
                    .map(row -> String.join(", ", List.of(row.substring(row.indexOf('(') + 1).split(", ")).subList(0, 4)))
                    .sorted()
                    .toList();
            List<String> actual = computeActual("SELECT 'dt=' || dt, record_count, file_size_in_bytes, file_count FROM \"%s$partitions\"".formatted(tableName))
                    .getMaterializedRows().stream()
                    .map(row -> "%s, %s, %s, %s".formatted(row.getField(0), row.getField(1), row.getField(2), row.getField(3)))
                    .sorted()
                    .toList();
            assertThat(actual).as(tableName).isNotEmpty().isEqualTo(expected);
        }
    }

    @Test
    void partitionsShowOnlyPartitionKeysToSelectStar()
    {
        // BI tools take every column of SELECT * for a partition key; the counts are there when named
        MaterializedResult partitioned = computeActual("SELECT * FROM \"%s$partitions\" ORDER BY dt DESC LIMIT 1".formatted(PaimonTestTables.MULTI_COMMIT));
        assertThat(partitioned.getColumnNames()).containsExactly("dt");
        assertThat(computeActual("SELECT max(dt) FROM \"%s\"".formatted(PaimonTestTables.MULTI_COMMIT)).getOnlyValue()).isEqualTo(partitioned.getOnlyValue());
        assertThat(computeActual("DESCRIBE \"%s$partitions\"".formatted(PaimonTestTables.MULTI_COMMIT)).getMaterializedRows())
                .extracting(row -> row.getField(0))
                .containsExactly("dt");

        assertUpdate("CREATE TABLE unpartitioned_listing (id bigint, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        try {
            assertUpdate("INSERT INTO unpartitioned_listing VALUES (1, 'a'), (2, 'b')", 2);
            assertQueryFails("SELECT * FROM \"unpartitioned_listing$partitions\"", ".*SELECT \\* not allowed from relation that has no columns.*");
            assertThat(RowText.paimonText(computeActual("SELECT record_count, file_count FROM \"unpartitioned_listing$partitions\""))).containsExactly("(2, 1)");
        }
        finally {
            assertUpdate("DROP TABLE unpartitioned_listing");
        }
    }

    @Test
    void schemasEqualPaimonsSchemas()
    {
        for (String tableName : PaimonTestTables.ALL) {
            List<String> expected = paimonColumns(tableName + "$schemas", 6);
            List<String> actual = RowText.paimonText(computeActual("SELECT schema_id, fields, partition_keys, primary_keys, options, comment FROM \"%s$schemas\"".formatted(tableName)));
            assertThat(actual).as(tableName).isNotEmpty().isEqualTo(expected);
        }
    }

    @Test
    void manifestsEqualPaimonsManifests()
    {
        for (String tableName : PaimonTestTables.ALL) {
            List<String> expected = paimonColumns(tableName + "$manifests", 9);
            List<String> actual = RowText.paimonText(computeActual("SELECT * FROM \"%s$manifests\"".formatted(tableName)));
            assertThat(actual).as(tableName).isNotEmpty().isEqualTo(expected);
        }
    }

    @Test
    void bucketsEqualPaimonsBuckets()
    {
        for (String tableName : PaimonTestTables.ALL) {
            // the last column, the newest file's creation time, Paimon shows in the JVM's zone
            List<String> expected = paimonColumns(tableName + "$buckets", 5);
            List<String> actual = RowText.paimonText(computeActual("SELECT partition, bucket, record_count, file_size_in_bytes, file_count FROM \"%s$buckets\"".formatted(tableName)));
            assertThat(actual).as(tableName).isNotEmpty().isEqualTo(expected);
        }
    }

    /** The first columns of each row of a Paimon Java system table, as {@code (v1, v2, …)}, sorted. */
    private List<String> paimonColumns(String systemTableName, int columns)
    {
        Table table = paimon().getTable(DATABASE, systemTableName);
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            getters.add(InternalRow.createFieldGetter(table.rowType().getTypeAt(i), i));
        }
        return PaimonJavaCatalog.readInternalRows(table).stream()
                .map(row -> getters.stream().map(getter -> String.valueOf(getter.getFieldOrNull(row))).collect(joining(", ", "(", ")")))
                .sorted()
                .toList();
    }

    private long snapshotRecordCount(long snapshotId)
    {
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, PaimonTestTables.MULTI_COMMIT);
        return table.snapshotManager().snapshot(snapshotId).totalRecordCount();
    }

    @Test
    void snapshotsEqualPaimonsSnapshots()
            throws Exception
    {
        for (String tableName : PaimonTestTables.ALL) {
            FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, tableName);
            List<String> expected = new ArrayList<>();
            for (Iterator<Snapshot> snapshots = table.snapshotManager().snapshots(); snapshots.hasNext(); ) {
                Snapshot snapshot = snapshots.next();
                expected.add("%s %s %s %s %s".formatted(snapshot.id(), snapshot.schemaId(), snapshot.commitKind(), snapshot.totalRecordCount(), snapshot.commitUser()));
            }
            List<String> actual = computeActual("SELECT snapshot_id, schema_id, commit_kind, total_record_count, commit_user FROM \"%s$snapshots\" ORDER BY snapshot_id".formatted(tableName))
                    .getMaterializedRows().stream()
                    .map(row -> "%s %s %s %s %s".formatted(row.getField(0), row.getField(1), row.getField(2), row.getField(3), row.getField(4)))
                    .toList();
            assertThat(actual).as(tableName).isEqualTo(expected);
        }
    }

    @Test
    void filesEqualPaimonsScanPlan()
    {
        for (String tableName : PaimonTestTables.ALL) {
            FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, tableName);
            List<String> expected = new ArrayList<>();
            for (ManifestEntry entry : table.store().newScan().plan().files()) {
                expected.add("{%s} %s %s %s %s %s %s".formatted(entry.partition().getString(0), entry.bucket(), entry.file().fileName(), entry.file().level(),
                        entry.file().rowCount(), entry.file().minSequenceNumber(), entry.file().maxSequenceNumber()));
            }
            expected.sort(null);
            List<String> actual = computeActual("SELECT partition, bucket, file_path, level, record_count, min_sequence_number, max_sequence_number FROM \"%s$files\"".formatted(tableName))
                    .getMaterializedRows().stream()
                    .map(row -> "%s %s %s %s %s %s %s".formatted(row.getField(0), row.getField(1), fileName(row), row.getField(3), row.getField(4), row.getField(5), row.getField(6)))
                    .sorted()
                    .toList();
            assertThat(actual).as(tableName).isEqualTo(expected);
        }
    }

    @Test
    void filesShowPartitionsAsPaimonFilesTableDoes()
            throws Exception
    {
        // dates as dates (the folder is day=20456 under the legacy partition names), several keys, and no partition
        for (String tableName : List.of("dated", PaimonTestTables.MULTI_COMMIT, PaimonTestTables.APPEND, PARTIAL_UPDATE)) {
            List<String> expected = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, tableName + "$files")).stream()
                    .map(row -> row.substring("+I(".length(), row.indexOf(", ", row.indexOf("}"))) + " " + fileNameOfPaimonRow(row))
                    .sorted()
                    .toList();
            List<String> actual = computeActual("SELECT partition, bucket, file_path FROM \"%s$files\"".formatted(tableName)).getMaterializedRows().stream()
                    .map(row -> row.getField(0) + " " + fileName(row))
                    .sorted()
                    .toList();
            assertThat(actual).as(tableName).isNotEmpty().isEqualTo(expected);
        }
        assertThat(computeActual("SELECT DISTINCT partition FROM \"dated$files\"").getOnlyColumnAsSet()).containsExactlyInAnyOrder("{2026-01-03, 7}", "{1969-12-31, 8}");
        assertThat(computeActual("SELECT DISTINCT partition FROM \"%s$files\"".formatted(PARTIAL_UPDATE)).getOnlyValue()).isEqualTo("{}");
    }

    // the file name in a row of Paimon's $files, whose file_path is the whole path
    private static String fileNameOfPaimonRow(String row)
    {
        int start = row.indexOf("data-");
        return row.substring(start, row.indexOf(", ", start));
    }

    @Test
    void filesPointAtExistingFilesAndShowKeys()
    {
        // every live file of Paimon's scan plan, with its path, format and key range (the key is the BIGINT id)
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, PaimonTestTables.MULTI_COMMIT);
        List<String> expected = new ArrayList<>();
        for (ManifestEntry entry : table.store().newScan().plan().files()) {
            expected.add("local:///warehouse/tables.db/multi_commit/dt=%s/bucket-%s/%s parquet [%s] [%s]".formatted(
                    entry.partition().getString(0), entry.bucket(), entry.file().fileName(), entry.file().minKey().getLong(0), entry.file().maxKey().getLong(0)));
        }
        expected.sort(null);
        List<MaterializedRow> rows = computeActual("SELECT file_path, file_format, min_key, max_key FROM \"%s$files\"".formatted(PaimonTestTables.MULTI_COMMIT)).getMaterializedRows();
        assertThat(rows.stream().map(row -> "%s %s %s %s".formatted(row.getField(0), row.getField(1), row.getField(2), row.getField(3))).sorted().toList())
                .hasSize(table.store().newScan().plan().files().size())
                .isEqualTo(expected);
        for (MaterializedRow row : rows) {
            assertThat(root().resolve(((String) row.getField(0)).substring("local:///".length()))).exists();
        }
        assertThat(computeActual("SELECT DISTINCT min_key FROM \"%s$files\"".formatted(PaimonTestTables.APPEND)).getOnlyValue()).isNull();
    }

    @Test
    void unknownSystemTableDoesNotExist()
    {
        assertQueryFails("SELECT * FROM \"multi_commit$nothing\"", ".*Table .paimon\\.tables\\.\"multi_commit\\$nothing\". does not exist");
    }

    private static String fileName(MaterializedRow row)
    {
        String path = (String) row.getField(2);
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
