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
package io.trino.plugin.paimon.catalog;

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manifest merging on commit (reliability.md T11): many small commits do not make every later query read one more
 * manifest. The expected manifest counts follow Paimon's rules by hand; the rows are checked against a model and
 * against Paimon Java 1.4.2, and {@link Fsck} finds every listed file.
 */
final class TestManifestMerge
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "manifest_merge";
    private static final int DEFAULT_COMMITS = 40;

    TestManifestMerge()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createTable(DATABASE, "minor", table()
                // no compaction on write and no expiry: each statement is exactly one APPEND snapshot
                .option("write-only", "true")
                .option("manifest.merge-min-count", "3")
                .build());
        paimon.createTable(DATABASE, "full_merge", table()
                .option("write-only", "true")
                .option("manifest.full-compaction-threshold-size", "1 b")
                .build());
        paimon.createTable(DATABASE, "defaults", table().build());
    }

    private static Schema.Builder table()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2");
    }

    /**
     * With {@code manifest.merge-min-count} = 3 and small manifests, a commit lists the previous snapshot's manifests
     * unchanged while there are fewer than 3, and merges them into one when there are 3; then adds its own. So the
     * snapshots list 1, 2, 3, 2, 3, 2, 3, ... manifests (without merging: one more each time).
     */
    @Test
    void smallManifestsAreMergedOnceThereAreEnough()
    {
        Map<Integer, String> model = new TreeMap<>();
        List<Long> counts = new ArrayList<>();
        List<Long> expected = new ArrayList<>();
        for (int statement = 1; statement <= 9; statement++) {
            if (statement % 3 == 0) {
                // a row change: its -D records are data files like any other
                getQueryRunner().execute("DELETE FROM minor WHERE id = " + (statement - 2));
                model.remove(statement - 2);
            }
            else {
                getQueryRunner().execute("INSERT INTO minor VALUES (%s, 'a%s'), (%s, 'b%s')".formatted(statement, statement, statement + 100, statement));
                model.put(statement, "a" + statement);
                model.put(statement + 100, "b" + statement);
            }
            counts.add((Long) computeScalar("SELECT count(*) FROM \"minor$manifests\""));
            expected.add(statement == 1 ? 1L : (statement % 2 == 0 ? 2L : 3L));
        }
        assertThat(counts).isEqualTo(expected);
        assertThat(rows("minor")).isEqualTo(model.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).toList());
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "minor", paimon().getTable(DATABASE, "minor"))).isEmpty();
    }

    /**
     * A full compaction of the manifests lists each live file once: after {@code optimize} replaced the bucket files
     * (DELETE entries in its snapshot), the next commit's manifests hold no DELETE entry and exactly the live files.
     */
    @Test
    void fullCompactionListsLiveFilesOnly()
    {
        getQueryRunner().execute("INSERT INTO full_merge VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
        getQueryRunner().execute("INSERT INTO full_merge VALUES (1, 'a2'), (2, 'b2'), (3, 'c2'), (4, 'd2')");
        getQueryRunner().execute("ALTER TABLE full_merge EXECUTE optimize");
        assertThat((Long) computeScalar("SELECT sum(num_deleted_files) FROM \"full_merge$manifests\"")).isPositive();
        getQueryRunner().execute("INSERT INTO full_merge VALUES (5, 'e')");

        long liveFiles = (Long) computeScalar("SELECT count(*) FROM \"full_merge$files\"");
        // both buckets compacted into one file each, plus the last INSERT's file
        assertThat(liveFiles).isEqualTo(3);
        assertThat((Long) computeScalar("SELECT sum(num_added_files) FROM \"full_merge$manifests\"")).isEqualTo(liveFiles);
        assertThat((Long) computeScalar("SELECT sum(num_deleted_files) FROM \"full_merge$manifests\"")).isZero();
        assertThat(rows("full_merge")).containsExactly("1=a2", "2=b2", "3=c2", "4=d2", "5=e");
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "full_merge", paimon().getTable(DATABASE, "full_merge"))).isEmpty();
    }

    /**
     * T11 in small: with Paimon's defaults, {@value #DEFAULT_COMMITS} single-row commits (knob
     * {@code -Dpaimon.test.commits}) leave the latest snapshot with at most 30 manifests plus its own (without
     * merging: one per commit), then {@code optimize} and {@code expire_snapshots} bring the table back to one file per
     * bucket and {@code snapshot.num-retained.min} (10) snapshots, and every listed file exists.
     */
    @Test
    void manySmallCommitsStayBounded()
    {
        int commits = Integer.getInteger("paimon.test.commits", DEFAULT_COMMITS);
        for (int statement = 1; statement <= commits; statement++) {
            getQueryRunner().execute("INSERT INTO defaults VALUES (%s, 'v%s')".formatted(statement % 7, statement));
        }
        assertThat((Long) computeScalar("SELECT count(*) FROM \"defaults$manifests\"")).isLessThanOrEqualTo(31);

        getQueryRunner().execute("ALTER TABLE defaults EXECUTE optimize");
        Session lowFloor = Session.builder(getSession())
                .setCatalogSessionProperty("paimon", "expire_snapshots_min_retention", "0s")
                .build();
        // each run expires at most snapshot.expire.limit (50) snapshots, as Paimon's procedure does
        long snapshots = (Long) computeScalar("SELECT count(*) FROM \"defaults$snapshots\"");
        long previous;
        do {
            previous = snapshots;
            getQueryRunner().execute(lowFloor, "ALTER TABLE defaults EXECUTE expire_snapshots(retention_threshold => '0s')");
            snapshots = (Long) computeScalar("SELECT count(*) FROM \"defaults$snapshots\"");
        }
        while (snapshots < previous);
        assertThat(snapshots).isEqualTo(10);
        // one file per bucket, at the highest level
        assertThat(computeActual("SELECT count(*) = count(DISTINCT bucket), min(level) FROM \"defaults$files\"").getMaterializedRows().getFirst().getFields())
                .containsExactly(true, 5);
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < 7; id++) {
            // the last statement that wrote key id
            int last = commits - ((commits - id) % 7 + 7) % 7;
            expected.add(id + "=v" + last);
        }
        assertThat(rows("defaults")).isEqualTo(expected);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), "defaults", paimon().getTable(DATABASE, "defaults"))).isEmpty();
    }

    private List<String> rows(String table)
    {
        return computeActual("SELECT id, v FROM " + table + " ORDER BY id").getMaterializedRows().stream()
                .map(MaterializedRow::getFields)
                .map(fields -> fields.get(0) + "=" + fields.get(1))
                .toList();
    }
}
