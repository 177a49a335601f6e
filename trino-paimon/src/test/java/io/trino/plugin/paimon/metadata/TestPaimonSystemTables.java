package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The system tables of tables Paimon Java wrote equal Paimon's own: snapshot list, scan plan, options, tags and
 * partitions.
 */
final class TestPaimonSystemTables
        extends AbstractPaimonJavaQueryTest
{
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
                expected.add("dt=%s %s %s %s %s %s %s".formatted(entry.partition().getString(0), entry.bucket(), entry.file().fileName(), entry.file().level(),
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
