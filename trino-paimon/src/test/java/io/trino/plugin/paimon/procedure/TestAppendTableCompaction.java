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
import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.FileKind;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.testing.PaimonTestTables.idValueSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compaction of append tables (no primary key), fixed-bucket and bucket-unaware: {@code optimize} rewrites a bucket's
 * small files by Paimon's rules into files of the target size, committed as a COMPACT snapshot that Paimon Java reads
 * with the same rows; a concurrent append is kept, a concurrent compaction of the same files is a conflict.
 */
final class TestAppendTableCompaction
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "append_compaction";

    TestAppendTableCompaction()
    {
        super(DATABASE, 23);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("fixed", "fixed_racing", "fixed_appended")) {
            paimon.createTable(DATABASE, name, idValueSchema()
                    .option("bucket", "2")
                    .option("bucket-key", "id")
                    .build());
        }
        for (String name : List.of("on_write", "on_write_paimon", "on_write_only")) {
            Schema.Builder schema = idValueSchema()
                    .option("bucket", "2")
                    .option("bucket-key", "id");
            if (name.equals("on_write_only")) {
                schema.option("write-only", "true");
            }
            paimon.createTable(DATABASE, name, schema.build());
        }
        for (String name : List.of("fixed_dv", "unaware_dv")) {
            Schema.Builder schema = idValueSchema()
                    .option("bucket", name.equals("fixed_dv") ? "1" : "-1")
                    .option("deletion-vectors.enabled", "true");
            if (name.equals("fixed_dv")) {
                schema.option("bucket-key", "id");
            }
            Table table = paimon.createTable(DATABASE, name, schema.build());
            for (int commit = 0; commit < 3; commit++) {
                PaimonJavaCatalog.write(table, List.of(GenericRow.of(3 * commit + 1, s("a")), GenericRow.of(3 * commit + 2, s("b")), GenericRow.of(3 * commit + 3, s("c"))));
            }
        }
        Table partitionedVectors = paimon.createTable(DATABASE, "unaware_dv_parts", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .partitionKeys("dt")
                .option("bucket", "-1")
                .option("deletion-vectors.enabled", "true")
                .build());
        for (int commit = 0; commit < 2; commit++) {
            PaimonJavaCatalog.write(partitionedVectors, List.of(GenericRow.of(s("p"), commit), GenericRow.of(s("q"), commit)));
        }
        Table clustered = paimon.createTable(DATABASE, "clustered", idValueSchema()
                .option("bucket", "-1")
                .option("clustering.incremental", "true")
                .option("clustering.columns", "id")
                .build());
        for (int commit = 0; commit < 6; commit++) {
            PaimonJavaCatalog.write(clustered, List.of(GenericRow.of(commit, s("v"))));
        }
        paimon.createTable(DATABASE, "fixed_partitioned", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .partitionKeys("dt")
                .option("bucket", "1")
                .option("bucket-key", "id")
                .build());
        paimon.createTable(DATABASE, "unaware", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .partitionKeys("dt")
                .option("bucket", "-1")
                .build());
    }

    /**
     * A fixed bucket of three small files or more becomes one file, whose rows are numbered from the smallest sequence
     * number of the files it replaces; a bucket of fewer files stays as it is (Paimon's full compaction of an append
     * bucket needs three).
     */
    @Test
    void optimizeRewritesEachFixedBucketIntoOneFile()
    {
        Session uncompacted = withoutCompactionOnWrite();
        for (int id = 1; id <= 9; id++) {
            getQueryRunner().execute(uncompacted, "INSERT INTO fixed VALUES (%s, 'v%s')".formatted(id, id));
        }
        Map<Long, List<MaterializedRow>> before = filesByBucket("fixed");
        List<String> rowsBefore = tableRows("fixed");
        long snapshotBefore = latestSnapshotIdOf("fixed");

        getQueryRunner().execute("ALTER TABLE fixed EXECUTE optimize");

        assertThat(latestSnapshotIdOf("fixed")).isEqualTo(snapshotBefore + 1);
        assertThat(computeScalar("SELECT commit_kind FROM \"fixed$snapshots\" ORDER BY snapshot_id DESC LIMIT 1")).isEqualTo("COMPACT");
        Map<Long, List<MaterializedRow>> after = filesByBucket("fixed");
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (Map.Entry<Long, List<MaterializedRow>> bucket : before.entrySet()) {
            List<MaterializedRow> files = bucket.getValue();
            List<MaterializedRow> compacted = after.get(bucket.getKey());
            if (files.size() < 3) {
                assertThat(compacted).as("bucket %s of %s files", bucket.getKey(), files.size()).isEqualTo(files);
                continue;
            }
            long rows = files.stream().mapToLong(file -> (long) file.getField(1)).sum();
            long firstSequence = files.stream().mapToLong(file -> (long) file.getField(2)).min().orElseThrow();
            assertThat(compacted).as("bucket %s", bucket.getKey()).hasSize(1);
            assertThat(compacted.getFirst().getFields()).as("bucket %s", bucket.getKey())
                    .containsExactly(bucket.getKey(), rows, firstSequence, firstSequence + rows - 1, 0);
        }
        assertThat(tableRows("fixed")).isEqualTo(rowsBefore);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "fixed"))).isEqualTo(rowsBefore);
        assertThat(fsckViolations("fixed")).isEmpty();

        // nothing is left to compact; Paimon Java appends on top and both read the same rows
        getQueryRunner().execute("ALTER TABLE fixed EXECUTE optimize");
        assertThat(latestSnapshotIdOf("fixed")).isEqualTo(snapshotBefore + 1);
        PaimonJavaCatalog.write(uncachedPaimon().getTable(DATABASE, "fixed"), List.of(GenericRow.of(100, s("paimon"))));
        assertThat(fsckViolations("fixed")).isEmpty();
    }

    /**
     * Single-row INSERTs into a fixed-bucket append table compact as Paimon Java's batch writer compacts the same
     * commits: a bucket's files are rewritten once it has {@code compaction.min.file-num} (5) small ones, so no bucket
     * reaches five files, and the files (record counts, sequence ranges) are those Paimon Java leaves.
     */
    @Test
    void singleRowInsertsCompactAsPaimonJavaWrites()
    {
        Table paimonTable = paimon().getTable(DATABASE, "on_write_paimon");
        for (int id = 1; id <= 30; id++) {
            getQueryRunner().execute("INSERT INTO on_write VALUES (%s, 'v%s')".formatted(id, id));
            PaimonJavaCatalog.write(paimonTable, List.of(GenericRow.of(id, s("v" + id))));
        }
        String files = "SELECT bucket, record_count, min_sequence_number, max_sequence_number, level FROM \"%s$files\" ORDER BY bucket, min_sequence_number";
        List<MaterializedRow> ours = computeActual(files.formatted("on_write")).getMaterializedRows();
        assertThat(ours).isEqualTo(computeActual(files.formatted("on_write_paimon")).getMaterializedRows());
        assertThat(computeActual("SELECT count(*) FROM \"on_write$files\" GROUP BY bucket").getOnlyColumn().map(Long.class::cast).toList())
                .hasSize(2)
                .allSatisfy(count -> assertThat(count).isLessThan(5));
        assertThat(computeActual("SELECT DISTINCT commit_kind FROM \"on_write$snapshots\"").getOnlyColumnAsSet()).containsExactlyInAnyOrder("APPEND", "COMPACT");
        assertThat(tableRows("on_write")).isEqualTo(tableRows("on_write_paimon"));
        assertThat(fsckViolations("on_write")).isEmpty();
    }

    /** A {@code write-only} table is not compacted by its writers. */
    @Test
    void writeOnlyTableIsNotCompactedOnWrite()
    {
        for (int id = 1; id <= 12; id++) {
            getQueryRunner().execute("INSERT INTO on_write_only VALUES (%s, 'v%s')".formatted(id, id));
        }
        assertThat(computeScalar("SELECT count(*) FROM \"on_write_only$files\"")).isEqualTo(12L);
        assertThat(computeActual("SELECT DISTINCT commit_kind FROM \"on_write_only$snapshots\"").getOnlyColumnAsSet()).containsExactly("APPEND");
    }

    /**
     * A partition of a bucket-unaware table is compacted once it holds {@code compaction.min.file-num} (5) small files;
     * a partition with fewer is left alone, as Paimon's compaction coordinator leaves it.
     */
    @Test
    void optimizeCompactsUnawarePartitionsWithEnoughSmallFiles()
    {
        for (int id = 1; id <= 6; id++) {
            getQueryRunner().execute("INSERT INTO unaware VALUES ('a', %s)".formatted(id));
        }
        for (int id = 1; id <= 4; id++) {
            getQueryRunner().execute("INSERT INTO unaware VALUES ('b', %s)".formatted(id));
        }
        assertThat(fileCount("unaware", "{a}")).isEqualTo(6);
        List<String> filesOfB = filePaths("unaware", "{b}");
        List<String> rowsBefore = tableRows("unaware");

        getQueryRunner().execute("ALTER TABLE unaware EXECUTE optimize");

        assertThat(fileCount("unaware", "{a}")).isEqualTo(1);
        assertThat(filePaths("unaware", "{b}")).isEqualTo(filesOfB);
        assertThat(tableRows("unaware")).isEqualTo(rowsBefore);
        assertThat(RowText.paimonText(uncachedPaimon().getTable(DATABASE, "unaware"))).isEqualTo(rowsBefore);
        assertThat(fsckViolations("unaware")).isEmpty();
    }

    @Test
    void optimizeWhereSelectsPartitions()
    {
        Session uncompacted = withoutCompactionOnWrite();
        for (int id = 1; id <= 4; id++) {
            getQueryRunner().execute(uncompacted, "INSERT INTO fixed_partitioned VALUES ('a', %s), ('b', %s)".formatted(id, id));
        }
        List<String> filesOfB = filePaths("fixed_partitioned", "{b}");
        List<String> rowsBefore = tableRows("fixed_partitioned");

        getQueryRunner().execute("ALTER TABLE fixed_partitioned EXECUTE optimize WHERE dt = 'a'");

        assertThat(fileCount("fixed_partitioned", "{a}")).isEqualTo(1);
        assertThat(filePaths("fixed_partitioned", "{b}")).isEqualTo(filesOfB).hasSize(4);
        assertThat(tableRows("fixed_partitioned")).isEqualTo(rowsBefore);
        assertThat(fsckViolations("fixed_partitioned")).isEmpty();
    }

    /**
     * An INSERT committed while an optimize compacts the same buckets is kept: Paimon's commit lets a compaction land
     * on top of new files, which it leaves in place.
     */
    @Test
    void concurrentAppendIsKept()
            throws Exception
    {
        Session uncompacted = withoutCompactionOnWrite();
        for (int id = 1; id <= 8; id++) {
            getQueryRunner().execute(uncompacted, "INSERT INTO fixed_appended VALUES (%s, 'old')".formatted(id));
        }
        long compactedFiles = filesAfterFullCompaction(filesByBucket("fixed_appended"));
        List<String> inserted = new ArrayList<>();
        Optional<RuntimeException> failure = new HeldRace(faultFs(), Operation.CREATE_OR_OVERWRITE, "**/fixed_appended/_trino-optimize-*/*").run(
                () -> getQueryRunner().execute("ALTER TABLE fixed_appended EXECUTE optimize"),
                () -> {
                    List<String> filesBefore = allFilePaths("fixed_appended");
                    getQueryRunner().execute(uncompacted, "INSERT INTO fixed_appended VALUES (1, 'new'), (2, 'new'), (3, 'new')");
                    allFilePaths("fixed_appended").stream().filter(file -> !filesBefore.contains(file)).forEach(inserted::add);
                });
        assertThat(failure).isEmpty();
        assertThat(computeActual("SELECT commit_kind FROM \"fixed_appended$snapshots\" ORDER BY snapshot_id DESC LIMIT 2").getOnlyColumn().toList())
                .containsExactly("COMPACT", "APPEND");
        assertThat(computeScalar("SELECT count(*) FROM fixed_appended WHERE v = 'new'")).isEqualTo(3L);
        assertThat(computeScalar("SELECT count(*) FROM fixed_appended WHERE v = 'old'")).isEqualTo(8L);
        // the compacted buckets, and the files the INSERT added, left in place
        assertThat(allFilePaths("fixed_appended")).containsAll(inserted).hasSize((int) compactedFiles + inserted.size());
        assertThat(fsckViolations("fixed_appended")).isEmpty();
    }

    /** Two optimizes of the same files: the one that commits second finds them removed and fails with TRANSACTION_CONFLICT. */
    @Test
    void concurrentOptimizeConflicts()
            throws Exception
    {
        Session uncompacted = withoutCompactionOnWrite();
        for (int id = 1; id <= 8; id++) {
            getQueryRunner().execute(uncompacted, "INSERT INTO fixed_racing VALUES (%s, 'v')".formatted(id));
        }
        List<String> rowsBefore = tableRows("fixed_racing");
        long compactedFiles = filesAfterFullCompaction(filesByBucket("fixed_racing"));
        assertConcurrentOptimizeConflicts("fixed_racing");
        assertThat(tableRows("fixed_racing")).isEqualTo(rowsBefore);
        assertThat(computeScalar("SELECT count(*) FROM \"fixed_racing$files\"")).isEqualTo(compactedFiles);
        assertThat(fsckViolations("fixed_racing")).isEmpty();
    }

    /**
     * A fixed bucket with deletion vectors is compacted whatever its file count, as Paimon compacts a deletion-vector
     * bucket: the deleted rows are gone from the new file and the bucket's vectors are dropped.
     */
    @Test
    void optimizeAppliesDeletionVectorsOfFixedBucket()
    {
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "fixed_dv");
        List<DataFileMeta> files = paimonFiles(table);
        assertThat(files).hasSize(3);
        // the first row of the oldest file, the second of the newest
        deleteRows(table, Map.of(oldest(files).fileName(), 0, newest(files).fileName(), 1));
        List<String> rowsBefore = tableRows("fixed_dv");
        assertThat(rowsBefore).hasSize(7);

        getQueryRunner().execute("ALTER TABLE fixed_dv EXECUTE optimize");

        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "fixed_dv");
        assertThat(paimonFiles(table)).singleElement().satisfies(file -> assertThat(file.rowCount()).isEqualTo(7));
        assertThat(deletionVectorIndexes(table)).isEmpty();
        assertThat(tableRows("fixed_dv")).isEqualTo(rowsBefore);
        assertThat(RowText.paimonText(table)).isEqualTo(rowsBefore);
        assertThat(fsckViolations("fixed_dv")).isEmpty();
    }

    /**
     * In a bucket-unaware partition every file with a deletion vector is rewritten; the other small files, fewer than
     * {@code compaction.min.file-num}, stay as they are.
     */
    @Test
    void optimizeAppliesDeletionVectorsOfUnawarePartition()
    {
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv");
        List<DataFileMeta> files = paimonFiles(table);
        assertThat(files).hasSize(3);
        deleteRows(table, Map.of(oldest(files).fileName(), 2));
        List<String> rowsBefore = tableRows("unaware_dv");
        assertThat(rowsBefore).hasSize(8);

        getQueryRunner().execute("ALTER TABLE unaware_dv EXECUTE optimize");

        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv");
        List<DataFileMeta> after = paimonFiles(table);
        assertThat(after).hasSize(3);
        Set<String> untouched = files.stream().filter(file -> file != oldest(files)).map(DataFileMeta::fileName).collect(toImmutableSet());
        assertThat(after.stream().map(DataFileMeta::fileName).collect(toImmutableSet())).containsAll(untouched).doesNotContain(oldest(files).fileName());
        assertThat(after.stream().filter(file -> !untouched.contains(file.fileName())).toList()).singleElement()
                .satisfies(file -> assertThat(file.rowCount()).isEqualTo(2));
        assertThat(deletionVectorIndexes(table)).isEmpty();
        assertThat(tableRows("unaware_dv")).isEqualTo(rowsBefore);
        assertThat(RowText.paimonText(table)).isEqualTo(rowsBefore);
        assertThat(fsckViolations("unaware_dv")).isEmpty();
    }

    /**
     * Paimon starts another deletion-vector index file in a bucket-unaware partition for each delete that marks files
     * without vectors; until the connector commits such an index file by file, a compaction that would rewrite the
     * index is refused, rather than keeping one index file of the partition and bringing deleted rows back.
     */
    @Test
    void optimizeRefusesPartitionWithSeveralVectorIndexFiles()
    {
        FileStoreTable table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv_parts");
        Map<String, List<DataFileMeta>> files = table.store().newScan().plan().files().stream()
                .collect(Collectors.groupingBy(entry -> entry.partition().getString(0).toString(), Collectors.mapping(ManifestEntry::file, Collectors.toList())));
        assertThat(files.get("q")).hasSize(2);
        deleteRows(table, BinaryRow.singleColumn("q"), Map.of(files.get("q").get(0).fileName(), 0));
        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv_parts");
        deleteRows(table, BinaryRow.singleColumn("q"), Map.of(files.get("q").get(1).fileName(), 0));
        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv_parts");
        deleteRows(table, BinaryRow.singleColumn("p"), Map.of(files.get("p").get(0).fileName(), 0));
        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv_parts");
        assertThat(deletionVectorIndexes(table)).hasSize(3);
        List<String> rowsBefore = tableRows("unaware_dv_parts");
        assertThat(rowsBefore).hasSize(1);

        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE unaware_dv_parts EXECUTE optimize WHERE dt = 'p'"))
                .hasMessageContaining("Table %s.unaware_dv_parts".formatted(DATABASE))
                .hasMessageContaining("the connector cannot yet commit changes to such an index");
        table = (FileStoreTable) uncachedPaimon().getTable(DATABASE, "unaware_dv_parts");
        assertThat(deletionVectorIndexes(table)).hasSize(3);
        assertThat(tableRows("unaware_dv_parts")).isEqualTo(rowsBefore);
        assertThat(RowText.paimonText(table)).isEqualTo(rowsBefore);
    }

    /** Paimon compacts a table of incremental clustering by its clustering columns into levels, which a plain rewrite would undo. */
    @Test
    void optimizeRefusesIncrementalClustering()
    {
        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE clustered EXECUTE optimize"))
                .hasMessageContaining("Table %s.clustered: optimize of an append table with incremental clustering (clustering.incremental) is not supported".formatted(DATABASE));
        assertThat(fileCount("clustered", "{}")).isEqualTo(6);
    }

    private static List<DataFileMeta> paimonFiles(FileStoreTable table)
    {
        return table.store().newScan().plan().files().stream().map(ManifestEntry::file).toList();
    }

    private static DataFileMeta oldest(List<DataFileMeta> files)
    {
        return files.stream().min(Comparator.comparingLong(DataFileMeta::minSequenceNumber).thenComparing(DataFileMeta::fileName)).orElseThrow();
    }

    private static DataFileMeta newest(List<DataFileMeta> files)
    {
        return files.stream().max(Comparator.comparingLong(DataFileMeta::minSequenceNumber).thenComparing(DataFileMeta::fileName)).orElseThrow();
    }

    private static List<IndexManifestEntry> deletionVectorIndexes(FileStoreTable table)
    {
        return table.store().newIndexFileHandler().scan(table.snapshotManager().latestSnapshot(), DeletionVectorsIndexFile.DELETION_VECTORS_INDEX);
    }

    /** Marks one row of each file deleted, by its position, as Paimon's DELETE on an append table does (Spark's). */
    private static void deleteRows(FileStoreTable table, Map<String, Integer> positions)
    {
        deleteRows(table, BinaryRow.EMPTY_ROW, positions);
    }

    private static void deleteRows(FileStoreTable table, BinaryRow partition, Map<String, Integer> positions)
    {
        IndexFileHandler indexes = table.store().newIndexFileHandler();
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        boolean bucketed = table.coreOptions().bucket() > 0;
        BaseAppendDeleteFileMaintainer maintainer = bucketed
                ? BaseAppendDeleteFileMaintainer.forBucketedAppend(indexes, snapshot, partition, 0)
                : BaseAppendDeleteFileMaintainer.forUnawareAppend(indexes, snapshot, partition);
        positions.forEach((file, position) -> {
            BitmapDeletionVector vector = new BitmapDeletionVector();
            vector.delete(position);
            maintainer.notifyNewDeletionVector(file, vector);
        });
        List<IndexManifestEntry> changes = maintainer.persist();
        CommitMessageImpl message = new CommitMessageImpl(
                maintainer.getPartition(),
                maintainer.getBucket(),
                null,
                new DataIncrement(
                        List.of(),
                        List.of(),
                        List.of(),
                        changes.stream().filter(entry -> entry.kind() == FileKind.ADD).map(IndexManifestEntry::indexFile).toList(),
                        changes.stream().filter(entry -> entry.kind() == FileKind.DELETE).map(IndexManifestEntry::indexFile).toList()),
                CompactIncrement.emptyIncrement());
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(List.of(message));
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to delete rows of " + table.name(), e);
        }
    }

    // bucket -> (bucket, record_count, min_sequence_number, max_sequence_number, level) of each file, by path
    private Map<Long, List<MaterializedRow>> filesByBucket(String table)
    {
        Map<Long, List<MaterializedRow>> files = new TreeMap<>();
        for (MaterializedRow row : computeActual("SELECT CAST(bucket AS bigint), record_count, min_sequence_number, max_sequence_number, level FROM \"%s$files\" ORDER BY file_path".formatted(table)).getMaterializedRows()) {
            files.computeIfAbsent((Long) row.getField(0), _ -> new ArrayList<>()).add(row);
        }
        return files;
    }

    // Paimon's full compaction of a fixed append bucket of small files: one file when it has three or more
    private static long filesAfterFullCompaction(Map<Long, List<MaterializedRow>> filesByBucket)
    {
        return filesByBucket.values().stream().mapToLong(files -> files.size() >= 3 ? 1 : files.size()).sum();
    }

    private List<String> allFilePaths(String table)
    {
        return computeActual("SELECT file_path FROM \"%s$files\" ORDER BY file_path".formatted(table)).getOnlyColumn()
                .map(String.class::cast)
                .toList();
    }

    private long fileCount(String table, String partition)
    {
        return (long) computeScalar("SELECT count(*) FROM \"%s$files\" WHERE partition = '%s'".formatted(table, partition));
    }

    private List<String> filePaths(String table, String partition)
    {
        return computeActual("SELECT file_path FROM \"%s$files\" WHERE partition = '%s' ORDER BY file_path".formatted(table, partition)).getOnlyColumn()
                .map(String.class::cast)
                .toList();
    }

    private static BinaryString s(String value)
    {
        return BinaryString.fromString(value);
    }
}
