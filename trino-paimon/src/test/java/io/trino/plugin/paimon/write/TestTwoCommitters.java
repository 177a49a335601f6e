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
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaBatchWriter;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import org.apache.paimon.Snapshot;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two committers over one warehouse (reliability.md T14): two catalogs of one Trino (separate connector instances,
 * nothing shared in memory) inserting concurrently into different partitions of one table all land; Trino inserting
 * while Paimon Java 1.4.2, in a process of its own, commits into another partition: every commit of both is in the
 * table, one snapshot each, and no commit of one replaced the other's snapshot.
 */
final class TestTwoCommitters
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "committers";
    private static final int STATEMENTS = 30;

    TestTwoCommitters()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String table : List.of("two_catalogs", "with_paimon_java")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("p", DataTypes.STRING())
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .partitionKeys("p")
                    .primaryKey("p", "id")
                    .option("bucket", "2")
                    // Paimon Java's commits stay appends: no compaction of its own partition in between
                    .option("write-only", "true")
                    .build());
        }
    }

    @Test
    void twoCatalogsOverOneWarehouseBothLand()
            throws Exception
    {
        getQueryRunner().createCatalog("paimon_second", "paimon", PaimonQueryRunner.catalogProperties(root()));
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> sessions = new ArrayList<>();
            for (String catalog : List.of("paimon", "paimon_second")) {
                sessions.add(executor.submit(() -> {
                    for (int i = 0; i < STATEMENTS; i++) {
                        getQueryRunner().execute("INSERT INTO %s.%s.two_catalogs VALUES ('%s', %s, 'v%s')".formatted(catalog, DATABASE, catalog, i, i));
                    }
                }));
            }
            for (Future<?> session : sessions) {
                session.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "two_catalogs");
        assertThat(table.snapshotManager().latestSnapshotId()).isEqualTo(2L * STATEMENTS);
        assertThat(table.snapshotManager().earliestSnapshotId()).isEqualTo(1L);
        assertQuery("SELECT p, count(*), sum(id) FROM two_catalogs GROUP BY p",
                "VALUES ('paimon', %s, %s), ('paimon_second', %s, %s)".formatted(STATEMENTS, sum(STATEMENTS), STATEMENTS, sum(STATEMENTS)));
        assertThat(fsck("two_catalogs")).isEmpty();
    }

    @Test
    void trinoAndPaimonJavaInAnotherProcessBothLand()
            throws Exception
    {
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        Path log = root().resolve("paimon-java-writer.log");
        Process writer = new ProcessBuilder(
                java.toString(), "-cp", System.getProperty("java.class.path"), PaimonJavaBatchWriter.class.getName(),
                paimon().warehouse().toString(), DATABASE, "with_paimon_java", "java", String.valueOf(STATEMENTS))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            for (int i = 0; i < STATEMENTS; i++) {
                assertUpdate("INSERT INTO with_paimon_java VALUES ('trino', %s, 'trino')".formatted(i), 1);
            }
            assertThat(writer.waitFor()).as("Paimon Java writer, see %s", log).isZero();
        }
        finally {
            writer.destroyForcibly();
        }

        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, "with_paimon_java");
        long latest = table.snapshotManager().latestSnapshotId();
        assertThat(latest).isEqualTo(2L * STATEMENTS);
        // ours carry the statement's commit id; a snapshot of ours replaced by one of Paimon Java's would show here
        long ours = IntStream.rangeClosed(1, (int) latest)
                .mapToObj(id -> table.snapshotManager().snapshot(id))
                .filter(snapshot -> snapshot.properties() != null && snapshot.properties().containsKey("trino.commit-id"))
                .count();
        assertThat(ours).isEqualTo(STATEMENTS);
        assertThat(IntStream.rangeClosed(1, (int) latest).mapToObj(id -> table.snapshotManager().snapshot(id)).map(Snapshot::commitKind))
                .containsOnly(Snapshot.CommitKind.APPEND);
        assertQuery("SELECT p, count(*), sum(id) FROM with_paimon_java GROUP BY p",
                "VALUES ('trino', %s, %s), ('java', %s, %s)".formatted(STATEMENTS, sum(STATEMENTS), STATEMENTS, sum(STATEMENTS)));
        assertThat(fsck("with_paimon_java")).isEmpty();
    }

    private static long sum(int statements)
    {
        return (long) statements * (statements - 1) / 2;
    }

    private List<String> fsck(String table)
    {
        Table paimonTable = paimon().getTable(DATABASE, table);
        List<String> violations = new ArrayList<>(Fsck.check(new LocalFileSystem(root()), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table)), paimonTable));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable));
        return violations;
    }
}
