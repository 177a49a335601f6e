package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.Snapshot;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code $snapshots} and {@code $files} of tables Paimon Java wrote equal Paimon's own snapshot list and scan plan.
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
