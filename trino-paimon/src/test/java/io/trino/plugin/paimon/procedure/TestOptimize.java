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

import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.ConnectorMetrics;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.ParquetFooters;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.write.OutputBufferLimit;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static io.trino.plugin.paimon.testing.PaimonTestTables.idValueSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code ALTER TABLE t EXECUTE optimize} on tables Paimon Java 1.4.2 wrote in several commits, with retractions: the
 * rows read before and after are the same through Trino and through Paimon Java; every compacted bucket is one run at
 * the highest level (num-levels - 1 = 5 by default); the snapshot is a COMPACT one; Paimon Java writes on top and both
 * still agree; the result equals Paimon Java's own full compaction of the same data, file levels, record counts and
 * sequence ranges included.
 */
final class TestOptimize
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "optimize";
    private static final int MAX_LEVEL = 5;

    TestOptimize()
    {
        super(DATABASE, 19);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("dedup", "dedup_twin", "dedup_paimon_compacted", "dedup_racing", "dedup_inserted")) {
            Table table = paimon.createTable(DATABASE, name, idValueSchema()
                    .primaryKey("id")
                    .option("bucket", "2")
                    .build());
            writeDeduplicateHistory(table);
        }
        Table partial = paimon.createTable(DATABASE, "partial", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .build());
        PaimonJavaCatalog.write(partial, List.of(GenericRow.of(1, s("x"), null), GenericRow.of(2, s("y"), null)));
        PaimonJavaCatalog.write(partial, List.of(GenericRow.of(1, null, 10), GenericRow.of(3, null, 30)));
        PaimonJavaCatalog.write(partial, List.of(GenericRow.of(2, s("y2"), 20), GenericRow.of(1, s("x2"), null)));

        Table aggregation = paimon.createTable(DATABASE, "aggregation", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .column("note", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.note.aggregate-function", "last_non_null_value")
                .build());
        PaimonJavaCatalog.write(aggregation, List.of(GenericRow.of(1, 10L, s("a")), GenericRow.of(2, 5L, s("b")), GenericRow.of(3, 1L, null)));
        PaimonJavaCatalog.write(aggregation, List.of(GenericRow.of(1, 7L, null), GenericRow.ofKind(RowKind.UPDATE_BEFORE, 2, 5L, null)));
        PaimonJavaCatalog.write(aggregation, List.of(GenericRow.ofKind(RowKind.DELETE, 3, 1L, null), GenericRow.of(4, 2L, s("d"))));

        Table partitioned = paimon.createTable(DATABASE, "partitioned", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "2")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = 0; id < 6; id++) {
                rows.add(GenericRow.of(s("a"), id, s("a" + commit)));
                rows.add(GenericRow.of(s("b"), id, s("b" + commit)));
            }
            PaimonJavaCatalog.write(partitioned, rows);
        }

        Table dynamic = paimon.createTable(DATABASE, "dynamic", idValueSchema()
                .primaryKey("id")
                .option("bucket", "-1")
                .option("dynamic-bucket.target-row-num", "3")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = commit; id < 8; id++) {
                rows.add(GenericRow.of(id, s("v" + commit)));
            }
            PaimonJavaCatalog.writeDynamicBuckets(dynamic, rows);
        }

        paimon.createTable(DATABASE, "empty", idValueSchema()
                .primaryKey("id")
                .option("bucket", "2")
                .build());
    }

    // three commits into both buckets: updates, deletes, a key deleted and written again
    private static void writeDeduplicateHistory(Table table)
    {
        List<GenericRow> first = new ArrayList<>();
        for (int id = 1; id <= 8; id++) {
            first.add(GenericRow.of(id, s("v" + id)));
        }
        PaimonJavaCatalog.write(table, first);
        PaimonJavaCatalog.write(table, List.of(
                GenericRow.ofKind(RowKind.UPDATE_AFTER, 2, s("b2")),
                GenericRow.ofKind(RowKind.DELETE, 3, s("v3")),
                GenericRow.ofKind(RowKind.DELETE, 6, s("v6"))));
        PaimonJavaCatalog.write(table, List.of(
                GenericRow.of(3, s("back")),
                GenericRow.ofKind(RowKind.DELETE, 5, s("v5")),
                GenericRow.ofKind(RowKind.UPDATE_AFTER, 1, s("a3")),
                GenericRow.of(9, s("v9"))));
    }

    @Test
    void deduplicateWithDeletes()
    {
        assertOptimizeKeepsRows("dedup");
        assertThat(computeActual("SELECT id, v FROM dedup").getMaterializedRows().stream().map(row -> row.getField(0) + "=" + row.getField(1)).sorted().toList())
                .containsExactly("1=a3", "2=b2", "3=back", "4=v4", "7=v7", "8=v8", "9=v9");
        // the deletes are gone at the highest level: each file holds live rows only
        assertThat(computeScalar("SELECT sum(delete_record_count) FROM \"dedup$files\"")).isEqualTo(0L);
        assertThat(computeScalar("SELECT sum(record_count) FROM \"dedup$files\"")).isEqualTo(7L);
        assertPaimonJavaWritesOnTop("dedup", List.of(GenericRow.of(4, s("after")), GenericRow.ofKind(RowKind.DELETE, 7, s("v7"))));
    }

    @Test
    void partialUpdate()
    {
        assertOptimizeKeepsRows("partial");
        assertThat(RowText.paimonText(paimon().getTable(DATABASE, "partial"))).containsExactly("(1, x2, 10)", "(2, y2, 20)", "(3, null, 30)");
        assertPaimonJavaWritesOnTop("partial", List.of(GenericRow.of(3, s("z"), null)));
    }

    @Test
    void aggregationWithRetractions()
    {
        assertOptimizeKeepsRows("aggregation");
        assertPaimonJavaWritesOnTop("aggregation", List.of(GenericRow.of(1, 100L, null), GenericRow.ofKind(RowKind.UPDATE_BEFORE, 4, 2L, null)));
    }

    @Test
    void dynamicBuckets()
    {
        assertThat(computeScalar("SELECT count(DISTINCT bucket) FROM \"dynamic$files\"")).isEqualTo(3L);
        assertOptimizeKeepsRows("dynamic");
        Table table = paimon().getTable(DATABASE, "dynamic");
        PaimonJavaCatalog.writeDynamicBuckets(table, List.of(GenericRow.of(0, s("after")), GenericRow.of(20, s("new"))));
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "dynamic", table)).isEmpty();
    }

    @Test
    void whereSelectsPartitions()
    {
        Map<String, List<String>> filesBefore = filesByBucket("partitioned");
        List<String> rowsBefore = rows("partitioned");
        long snapshotBefore = latestSnapshotId("partitioned");
        getQueryRunner().execute("ALTER TABLE partitioned EXECUTE optimize WHERE dt = 'a'");

        assertThat(latestSnapshotId("partitioned")).isEqualTo(snapshotBefore + 1);
        assertThat(rows("partitioned")).isEqualTo(rowsBefore);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "partitioned", paimon().getTable(DATABASE, "partitioned"))).isEmpty();
        Map<String, List<String>> filesAfter = filesByBucket("partitioned");
        for (String bucket : filesBefore.keySet()) {
            if (bucket.startsWith("{b}")) {
                assertThat(filesAfter.get(bucket)).as("files of %s, not selected", bucket).isEqualTo(filesBefore.get(bucket));
            }
            else {
                assertThat(filesAfter.get(bucket)).as("files of %s", bucket).isNotEqualTo(filesBefore.get(bucket));
            }
        }
        assertThat(computeActual("SELECT DISTINCT level FROM \"partitioned$files\" WHERE partition = '{a}'").getOnlyColumnAsSet()).containsExactly(MAX_LEVEL);
        assertThat(computeActual("SELECT DISTINCT level FROM \"partitioned$files\" WHERE partition = '{b}'").getOnlyColumnAsSet()).containsExactly(0);

        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE partitioned EXECUTE optimize WHERE id = 1"))
                .hasMessageContaining("the WHERE clause of optimize may only use partition columns [dt], not id");
    }

    /** Paimon Java's full compaction of the same history gives the same files: levels, record counts, sequence ranges. */
    @Test
    void sameResultAsPaimonJavaFullCompaction()
    {
        PaimonJavaCatalog.compact(paimon().getTable(DATABASE, "dedup_paimon_compacted"), root(), 2, _ -> true);
        getQueryRunner().execute("ALTER TABLE dedup_twin EXECUTE optimize");
        String files = "SELECT bucket, level, record_count, delete_record_count, min_key, max_key, min_sequence_number, max_sequence_number FROM \"%s$files\" ORDER BY bucket, min_key";
        List<MaterializedRow> ours = computeActual(files.formatted("dedup_twin")).getMaterializedRows();
        List<MaterializedRow> paimons = computeActual(files.formatted("dedup_paimon_compacted")).getMaterializedRows();
        assertThat(ours).isEqualTo(paimons);
        assertThat(rows("dedup_twin")).isEqualTo(rows("dedup_paimon_compacted"));
    }

    @Test
    void nothingToCompactCommitsNothing()
    {
        long snapshotBefore = latestSnapshotIdOrZero("empty");
        getQueryRunner().execute("ALTER TABLE empty EXECUTE optimize");
        assertThat(latestSnapshotIdOrZero("empty")).isEqualTo(snapshotBefore);

        getQueryRunner().execute("INSERT INTO empty VALUES (1, 'a'), (2, 'b')");
        getQueryRunner().execute("ALTER TABLE empty EXECUTE optimize");
        long compacted = latestSnapshotId("empty");
        // every bucket is one run at the highest level now: a second optimize has nothing to do
        getQueryRunner().execute("ALTER TABLE empty EXECUTE optimize");
        assertThat(latestSnapshotId("empty")).isEqualTo(compacted);
    }

    /**
     * Two optimizes of the same buckets at once: the one that commits second finds the files it replaces removed by
     * the first and fails with TRANSACTION_CONFLICT, leaving the table as the first one left it.
     */
    @Test
    void concurrentOptimizeConflicts()
            throws Exception
    {
        List<String> rowsBefore = rows("dedup_racing");
        assertConcurrentOptimizeConflicts("dedup_racing");
        assertThat(rows("dedup_racing")).isEqualTo(rowsBefore);
        assertThat(Fsck.check(new LocalFileSystem(root()), tableLocation("dedup_racing"), paimon().getTable(DATABASE, "dedup_racing"))).isEmpty();
    }

    /**
     * An INSERT into the buckets an optimize is compacting, committed first, does not conflict with it (Paimon allows
     * it): the compacted records keep their sequence numbers, so the inserted rows, numbered above them, still win.
     */
    @Test
    void concurrentInsertCommutes()
            throws Exception
    {
        Optional<RuntimeException> failure = new HeldRace(faultFs(), Operation.CREATE_OR_OVERWRITE, "**/dedup_inserted/_trino-optimize-*/*").run(
                () -> getQueryRunner().execute("ALTER TABLE dedup_inserted EXECUTE optimize"),
                () -> getQueryRunner().execute(withoutCompactionOnWrite(), "INSERT INTO dedup_inserted VALUES (1, 'new'), (2, 'new'), (4, 'new'), (10, 'new')"));
        assertThat(failure).isEmpty();
        assertThat(computeActual("SELECT commit_kind FROM \"dedup_inserted$snapshots\" ORDER BY snapshot_id DESC LIMIT 2").getOnlyColumn().toList()).containsExactly("COMPACT", "APPEND");
        assertThat(computeActual("SELECT id, v FROM dedup_inserted").getMaterializedRows().stream().map(row -> row.getField(0) + "=" + row.getField(1)).sorted().toList())
                .containsExactly("10=new", "1=new", "2=new", "3=back", "4=new", "7=v7", "8=v8", "9=v9");
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "dedup_inserted", paimon().getTable(DATABASE, "dedup_inserted"))).isEmpty();
        assertThat(Fsck.check(new LocalFileSystem(root()), tableLocation("dedup_inserted"), paimon().getTable(DATABASE, "dedup_inserted"))).isEmpty();
    }

    @Test
    void memoryHeldIsAccountedFor()
    {
        // 20,000 keys of 64 hex digits each, written twice, so that the bucket holds two runs to merge
        assertUpdate("CREATE TABLE memory_held (id bigint, payload varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        String rows = "SELECT x, to_hex(sha256(to_utf8(CAST(x AS varchar)))) FROM (SELECT i * 100 + j x FROM UNNEST(sequence(0, 199)) a(i) CROSS JOIN UNNEST(sequence(1, 100)) b(j))";
        assertUpdate("INSERT INTO memory_held " + rows, 20_000);
        assertUpdate("INSERT INTO memory_held " + rows, 20_000);

        long peak = optimizeScanPeak("memory_held");
        long written = (long) computeScalar("SELECT sum(file_size_in_bytes) FROM \"memory_held$files\"");
        // one file of one row group, which Trino's Parquet writer holds whole until the file is closed: the query's
        // memory must have counted at least most of it
        assertThat(computeScalar("SELECT count(*) FROM \"memory_held$files\"")).isEqualTo(1L);
        assertThat(written).isGreaterThan(500_000);
        assertThat(peak).isGreaterThanOrEqualTo(written / 2);
        assertThat(computeScalar("SELECT count(*) FROM memory_held")).isEqualTo(20_000L);
    }

    /**
     * A {@code changelog-producer} = {@code lookup} table compacts a bucket in one call, where Trino cannot see memory
     * grow: the call's memory is reported before it runs, and its output files buffer no more than that.
     */
    @Test
    void oneStepCompactionReservesItsMemoryBeforeItRuns()
    {
        // 100,000 keys of 192 hex digits, written twice: about 12 MB of Parquet to write, more than the 8 MB the call
        // may buffer per file
        assertUpdate("CREATE TABLE one_step (id bigint, payload varchar) WITH (primary_key = ARRAY['id'], bucket = 1, changelog_producer = 'lookup')");
        String rows = "SELECT x, to_hex(sha512(to_utf8(CAST(x AS varchar)))) || to_hex(sha256(to_utf8(CAST(x AS varchar)))) " +
                "FROM (SELECT i * 1000 + j x FROM UNNEST(sequence(0, 99)) a(i) CROSS JOIN UNNEST(sequence(1, 1000)) b(j))";
        assertUpdate(withoutCompactionOnWrite(), "INSERT INTO one_step " + rows, 100_000);
        assertUpdate(withoutCompactionOnWrite(), "INSERT INTO one_step " + rows, 100_000);

        long peak = optimizeScanPeak("one_step");
        // a data file and a changelog file, each allowed the limit
        assertThat(peak).isGreaterThanOrEqualTo(2 * OutputBufferLimit.FLOOR);

        List<Object> files = computeActual("SELECT file_path FROM \"one_step$files\"").getOnlyColumn().toList();
        assertThat(files).hasSize(1);
        FileMetaData footer = ParquetFooters.footer(root().resolve(Location.of((String) files.getFirst()).path()));
        assertThat(footer.getNum_rows()).isEqualTo(100_000);
        // where the table's 128 MB would have made one row group
        assertThat(footer.getRow_groups()).hasSizeGreaterThan(1);
        for (RowGroup rowGroup : footer.getRow_groups()) {
            assertThat(ParquetFooters.compressedSize(rowGroup)).isLessThanOrEqualTo(OutputBufferLimit.FLOOR + (1 << 20));
        }
        assertThat(computeScalar("SELECT count(*) FROM one_step")).isEqualTo(100_000L);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "one_step", paimon().getTable(DATABASE, "one_step"))).isEmpty();
    }

    // runs optimize; the peak user memory of its scan, which compacts: the query's is sampled from the workers'
    // reports and misses a short peak
    private long optimizeScanPeak(String table)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) getQueryRunner();
        QueryId queryId = runner.executeWithPlan(getSession(), "ALTER TABLE %s EXECUTE optimize".formatted(table)).queryId();
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId).getQueryStats().getOperatorSummaries().stream()
                .filter(operator -> operator.getOperatorType().contains("Scan"))
                .mapToLong(operator -> operator.getPeakUserMemoryReservation().toBytes())
                .max()
                .orElseThrow();
    }

    private void assertOptimizeKeepsRows(String table)
    {
        List<String> rowsBefore = rows(table);
        List<String> paimonBefore = RowText.paimonText(paimon().getTable(DATABASE, table));
        long snapshotBefore = latestSnapshotId(table);

        List<DataFileMeta> filesBefore = paimonFiles(table);
        DistributedQueryRunner runner = (DistributedQueryRunner) getQueryRunner();
        QueryId queryId = runner.executeWithPlan(getSession(), "ALTER TABLE %s EXECUTE optimize".formatted(table)).queryId();

        assertThat(latestSnapshotId(table)).isEqualTo(snapshotBefore + 1);
        // what it did, in the query's statistics, against Paimon Java's file lists before and after
        List<DataFileMeta> filesAfter = paimonFiles(table);
        Map<String, Long> metrics = ConnectorMetrics.of(runner, queryId, "paimon.optimize.");
        assertThat(metrics).containsExactlyInAnyOrderEntriesOf(Map.of(
                OptimizePageSource.FILES_REWRITTEN_METRIC, (long) filesBefore.size(),
                OptimizePageSource.BYTES_REWRITTEN_METRIC, filesBefore.stream().mapToLong(DataFileMeta::fileSize).sum(),
                OptimizePageSource.FILES_WRITTEN_METRIC, (long) filesAfter.size(),
                OptimizePageSource.BYTES_WRITTEN_METRIC, filesAfter.stream().mapToLong(DataFileMeta::fileSize).sum(),
                OptimizePageSource.CHANGELOG_FILES_WRITTEN_METRIC, 0L));
        assertThat(computeScalar("SELECT commit_kind FROM \"%s$snapshots\" ORDER BY snapshot_id DESC LIMIT 1".formatted(table))).isEqualTo("COMPACT");
        assertThat(rows(table)).isEqualTo(rowsBefore);
        assertThat(RowText.paimonText(paimon().getTable(DATABASE, table))).isEqualTo(paimonBefore);
        // one run per bucket, at the highest level
        assertThat(computeActual("SELECT DISTINCT level FROM \"%s$files\"".formatted(table)).getOnlyColumnAsSet()).containsExactly(MAX_LEVEL);
        assertThat(Fsck.check(new LocalFileSystem(root()), tableLocation(table), paimon().getTable(DATABASE, table))).isEmpty();
    }

    private List<DataFileMeta> paimonFiles(String table)
    {
        return ((FileStoreTable) paimon().getTable(DATABASE, table)).store().newScan().plan().files().stream()
                .map(ManifestEntry::file)
                .toList();
    }

    private void assertPaimonJavaWritesOnTop(String table, List<GenericRow> rows)
    {
        Table paimonTable = paimon().getTable(DATABASE, table);
        PaimonJavaCatalog.write(paimonTable, rows);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable)).isEmpty();
        PaimonJavaCatalog.compact(paimonTable, root(), paimonTable.options().get("bucket").equals("1") ? 1 : 2, _ -> true);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable)).isEmpty();
    }

    private Map<String, List<String>> filesByBucket(String table)
    {
        Map<String, List<String>> files = new TreeMap<>();
        for (MaterializedRow row : computeActual("SELECT partition, bucket, file_path FROM \"%s$files\" ORDER BY file_path".formatted(table)).getMaterializedRows()) {
            files.computeIfAbsent(row.getField(0) + "/" + row.getField(1), _ -> new ArrayList<>()).add((String) row.getField(2));
        }
        return files;
    }

    private List<String> rows(String table)
    {
        return RowText.rows(computeActual("SELECT * FROM " + table)).stream().sorted().toList();
    }

    private long latestSnapshotId(String table)
    {
        return (long) computeScalar("SELECT max(snapshot_id) FROM \"%s$snapshots\"".formatted(table));
    }

    private long latestSnapshotIdOrZero(String table)
    {
        Object id = computeScalar("SELECT max(snapshot_id) FROM \"%s$snapshots\"".formatted(table));
        return id == null ? 0 : (long) id;
    }

    private static BinaryString s(String value)
    {
        return BinaryString.fromString(value);
    }
}
