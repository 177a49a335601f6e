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
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * UPDATE, DELETE and MERGE on a coordinator and two workers, on partitioned primary-key tables with fixed and with
 * dynamic buckets. Changed rows are routed to the writer of their (partition, bucket) by the row id, so every bucket
 * still has one writer per statement; with two writers in one bucket, both would number their records from the
 * bucket's last sequence number on, and their files' sequence ranges would overlap. After each statement: the rows
 * are those computed by hand, Paimon Java 1.4.2 reads the same, fsck finds nothing, and the files the statement
 * added to each bucket have sequence ranges that neither overlap each other nor reach below the bucket's older files.
 */
final class TestMultiNodeRowChanges
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "multinode";
    private static final List<String> DAYS = List.of("2024-01-01", "2024-01-02");
    private static final int IDS = 120;

    private TempWarehouse warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        warehouse.paimon().createDatabase(DATABASE);
        warehouse.paimon().createTable(DATABASE, "fixed_buckets", schema()
                .option("bucket", "4")
                .build());
        warehouse.paimon().createTable(DATABASE, "dynamic_buckets", schema()
                .option("bucket", "-1")
                .option("dynamic-bucket.target-row-num", "25")
                .build());
        return PaimonQueryRunner.create(warehouse.root(), DATABASE, 2);
    }

    private static Schema.Builder schema()
    {
        return Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("score", DataTypes.INT())
                .primaryKey("dt", "id")
                .partitionKeys("dt");
    }

    @AfterAll
    public void removeWarehouse()
            throws Exception
    {
        if (warehouse != null) {
            warehouse.close();
        }
    }

    @Test
    void testFixedBuckets()
    {
        assertRowChanges("fixed_buckets");
    }

    @Test
    void testDynamicBuckets()
    {
        assertRowChanges("dynamic_buckets");
    }

    private void assertRowChanges(String table)
    {
        assertThat(getQueryRunner().getNodeCount()).isEqualTo(3);
        // (dt, id) -> (name, score), the table as each statement leaves it
        Map<List<Object>, List<Object>> expected = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        for (String day : DAYS) {
            for (int id = 1; id <= IDS; id++) {
                expected.put(List.of(day, id), List.of("n" + id, id));
            }
        }
        assertStatement(table, "INSERT INTO %s SELECT dt, id, 'n' || CAST(id AS varchar), id FROM (VALUES '2024-01-01', '2024-01-02') AS d(dt) CROSS JOIN UNNEST(sequence(1, %s)) AS i(id)"
                .formatted(table, IDS), 2 * IDS, expected);

        // every third id in both days
        int updated = 0;
        for (Map.Entry<List<Object>, List<Object>> row : expected.entrySet()) {
            int id = (int) row.getKey().get(1);
            if (id % 3 == 0) {
                row.setValue(List.of("u" + row.getValue().get(0), (int) row.getValue().get(1) * 10));
                updated++;
            }
        }
        assertStatement(table, "UPDATE %s SET name = 'u' || name, score = score * 10 WHERE id %% 3 = 0".formatted(table), updated, expected);

        // every fifth id of the second day
        int deleted = 0;
        for (int id = 5; id <= IDS; id += 5) {
            expected.remove(List.of("2024-01-02", id));
            deleted++;
        }
        assertStatement(table, "DELETE FROM %s WHERE dt = '2024-01-02' AND id %% 5 = 0".formatted(table), deleted, expected);

        // ids 101..140 of each day: even matched ids deleted, odd matched ids updated, the ones above 120 inserted
        // (the second day's multiples of five above 100 are gone, so they are inserted again)
        int changed = 0;
        for (String day : DAYS) {
            for (int id = 101; id <= 140; id++) {
                List<Object> key = List.of(day, id);
                List<Object> current = expected.get(key);
                if (current == null) {
                    expected.put(key, List.of("m" + id, id));
                }
                else if (id % 2 == 0) {
                    expected.remove(key);
                }
                else {
                    expected.put(key, List.of(current.get(0), -id));
                }
                changed++;
            }
        }
        assertStatement(table, """
                MERGE INTO %s t
                USING (SELECT dt, id FROM (VALUES '2024-01-01', '2024-01-02') AS d(dt) CROSS JOIN UNNEST(sequence(101, 140)) AS i(id)) s
                ON t.dt = s.dt AND t.id = s.id
                WHEN MATCHED AND s.id %% 2 = 0 THEN DELETE
                WHEN MATCHED THEN UPDATE SET score = -s.id
                WHEN NOT MATCHED THEN INSERT VALUES (s.dt, s.id, 'm' || CAST(s.id AS varchar), s.id)
                """.formatted(table), changed, expected);
    }

    private void assertStatement(String table, String sql, long rowCount, Map<List<Object>, List<Object>> expected)
    {
        Set<String> filesBefore = new HashSet<>();
        Map<String, Long> maxSequenceBefore = new HashMap<>();
        for (MaterializedRow file : files(table)) {
            filesBefore.add((String) file.getField(2));
            maxSequenceBefore.merge(bucketOf(file), (Long) file.getField(4), Math::max);
        }

        assertUpdate(sql, rowCount);

        List<String> expectedText = expected.entrySet().stream()
                .map(row -> "(%s, %s, %s, %s)".formatted(row.getKey().get(0), row.getKey().get(1), row.getValue().get(0), row.getValue().get(1)))
                .sorted()
                .toList();
        assertThat(RowText.paimonText(computeActual("SELECT * FROM " + table))).isEqualTo(expectedText);
        Table paimonTable = warehouse.paimon().getTable(DATABASE, table);
        assertThat(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable)).isEmpty();
        assertThat(Fsck.check(warehouse.fileSystem(), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table)), paimonTable)).isEmpty();

        // the statement's files, by bucket: sequence ranges above the bucket's older files, and disjoint
        Map<String, List<long[]>> added = new HashMap<>();
        for (MaterializedRow file : files(table)) {
            if (!filesBefore.contains((String) file.getField(2))) {
                added.computeIfAbsent(bucketOf(file), _ -> new ArrayList<>()).add(new long[] {(Long) file.getField(3), (Long) file.getField(4)});
            }
        }
        assertThat(added).isNotEmpty();
        added.forEach((bucket, ranges) -> {
            long floor = maxSequenceBefore.getOrDefault(bucket, -1L);
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            for (long[] range : ranges) {
                assertThat(range[0]).as("first sequence number of a file the statement added to %s", bucket).isGreaterThan(floor);
                floor = range[1];
            }
        });
    }

    // partition, bucket, file_path, min_sequence_number, max_sequence_number of the live files
    private List<MaterializedRow> files(String table)
    {
        return computeActual("SELECT partition, bucket, file_path, min_sequence_number, max_sequence_number FROM \"%s$files\"".formatted(table)).getMaterializedRows();
    }

    private static String bucketOf(MaterializedRow file)
    {
        return "partition %s bucket %s".formatted(file.getField(0), file.getField(1));
    }
}
