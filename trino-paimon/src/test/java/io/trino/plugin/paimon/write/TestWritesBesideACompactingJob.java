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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import org.apache.paimon.Snapshot.CommitKind;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Paimon's rule for a table that a streaming job writes and compacts: every other writer is {@code write-only}. A
 * Paimon Java streaming writer compacts a bucket while a Trino statement writes to it: when the statement compacts
 * the bucket too, the job's commit finds its input files gone and fails (a Flink job restarts on it); with the
 * catalog's {@code paimon.compaction-on-write.enabled} = false the statement only adds its files and the job's
 * compaction commits on top of them.
 */
final class TestWritesBesideACompactingJob
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "beside_a_job";
    private static final String WRITE_ONLY_CATALOG = "paimon_write_only";

    TestWritesBesideACompactingJob()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("compacting", "write_only")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    // two sorted runs, the job's compacted one and a larger one of the statement's, make a write compact
                    .option("num-sorted-run.compaction-trigger", "2")
                    .build());
        }
    }

    @Test
    void aStatementThatCompactsFailsTheJobsCompaction()
    {
        String table = "compacting";
        PaimonJavaCatalog.write(table(table), List.of(row(1, "job")));
        try (CompactingJob job = new CompactingJob(table(table))) {
            List<CommitMessage> compaction = job.writeAndCompact(row(2, "job"));
            assertUpdate("INSERT INTO compacting SELECT id, 'trino' FROM UNNEST(sequence(100, 199)) t(id)", 100);
            assertThat(table(table).snapshotManager().latestSnapshot().commitKind()).isEqualTo(CommitKind.COMPACT);
            assertThatThrownBy(() -> job.commit(compaction))
                    .hasStackTraceContaining("File deletion conflicts detected");
        }
    }

    @Test
    void aWriteOnlyCatalogLeavesTheCompactionToTheJob()
    {
        getQueryRunner().createCatalog(WRITE_ONLY_CATALOG, "paimon", ImmutableMap.<String, String>builder()
                .putAll(PaimonQueryRunner.catalogProperties(root()))
                .put("paimon.compaction-on-write.enabled", "false")
                .buildOrThrow());
        String table = "write_only";
        PaimonJavaCatalog.write(table(table), List.of(row(1, "job")));
        try (CompactingJob job = new CompactingJob(table(table))) {
            List<CommitMessage> compaction = job.writeAndCompact(row(2, "job"));
            assertUpdate("INSERT INTO %s.%s.write_only SELECT id, 'trino' FROM UNNEST(sequence(100, 199)) t(id)".formatted(WRITE_ONLY_CATALOG, DATABASE), 100);
            assertThat(table(table).snapshotManager().latestSnapshot().commitKind()).isEqualTo(CommitKind.APPEND);
            job.commit(compaction);
        }
        assertThat(table(table).snapshotManager().latestSnapshot().commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(computeActual("SELECT count(*), count_if(v = 'trino'), sum(id) FROM write_only").getMaterializedRows().getFirst().getFields())
                .containsExactly(102L, 100L, 3L + 14_950L);
        assertThat(PaimonJavaCatalog.readRows(table(table))).hasSize(102).contains("+I(1, job)", "+I(2, job)", "+I(100, trino)", "+I(199, trino)");
    }

    private static GenericRow row(int id, String value)
    {
        return GenericRow.of(id, BinaryString.fromString(value));
    }

    private FileStoreTable table(String name)
    {
        return (FileStoreTable) uncachedPaimon().getTable(DATABASE, name);
    }

    // a streaming writer that compacts its bucket fully with each checkpoint, as a Flink job's writer does
    private static final class CompactingJob
            implements AutoCloseable
    {
        private final StreamWriteBuilder builder;
        private final StreamTableWrite write;

        CompactingJob(FileStoreTable table)
        {
            this.builder = table.newStreamWriteBuilder().withCommitUser("streaming-job");
            this.write = builder.newWrite();
            write.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
        }

        List<CommitMessage> writeAndCompact(GenericRow row)
        {
            try {
                write.write(row);
                write.compact(BinaryRow.EMPTY_ROW, 0, true);
                return write.prepareCommit(true, 1);
            }
            catch (Exception e) {
                throw new RuntimeException(e);
            }
        }

        void commit(List<CommitMessage> messages)
        {
            try (StreamTableCommit commit = builder.newCommit()) {
                commit.commit(1, messages);
            }
            catch (Exception e) {
                throw new RuntimeException(e);
            }
        }

        @Override
        public void close()
        {
            try {
                write.close();
            }
            catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
    }
}
