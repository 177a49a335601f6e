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
package io.trino.plugin.paimon.read;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code table_changes} reads what Paimon Java's incremental reads read ({@code incremental-between} with each
 * {@code incremental-between-scan-mode}, through its audit log, which keeps retractions), for every range of the
 * history of a partitioned primary-key table under each changelog producer (each file format, one table with
 * deletion vectors, one with a column added halfway) and of an append table, all written by Paimon Java: appends,
 * upserts, deletes and a full compaction.
 */
final class TestTableChanges
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "changes";
    // a range of snapshot ids as the tests write it: "start,end"
    private static final Splitter RANGE_BOUNDS = Splitter.on(",");
    private static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");
    // the other merge engines, each with the changelog producer and delete handling it allows
    private static final Map<String, Map<String, String>> MERGE_ENGINES = ImmutableMap.of(
            "pk_partial", Map.of("merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true", "changelog-producer", "lookup"),
            "pk_sum", Map.of("merge-engine", "aggregation", "fields.n.aggregate-function", "sum", "aggregation.remove-record-on-delete", "true"),
            "pk_first", Map.of("merge-engine", "first-row", "ignore-delete", "true"));
    // each file format, and deletion vectors under the lookup producer
    private static final Map<String, String> FORMATS = Map.of("none", "parquet", "input", "orc", "lookup", "parquet", "full-compaction", "avro");
    // every range of each history, or (-Dpaimon.test.changes.everyRange=false, for a lighter lane) those that start at
    // the beginning or end at the latest snapshot
    private static final boolean EVERY_RANGE = Boolean.parseBoolean(System.getProperty("paimon.test.changes.everyRange", "true"));
    private static final List<String> MODES = List.of("auto", "delta", "changelog", "diff");
    private static final Map<String, String> KINDS = Map.of("insert", "+I", "update_preimage", "-U", "update_postimage", "+U", "delete", "-D");

    TestTableChanges()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String producer : PRODUCERS) {
            String name = primaryKeyTable(producer);
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("p", DataTypes.INT().notNull())
                    .column("id", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .column("n", DataTypes.BIGINT())
                    .primaryKey("p", "id")
                    .partitionKeys("p")
                    .option("bucket", "2")
                    .option("changelog-producer", producer)
                    .option("file.format", FORMATS.get(producer))
                    .option("deletion-vectors.enabled", String.valueOf(producer.equals("lookup")))
                    .build());
            writeHistory(paimon, name, producer.equals("input"));
        }
        for (Map.Entry<String, Map<String, String>> engine : MERGE_ENGINES.entrySet()) {
            paimon.createTable(DATABASE, engine.getKey(), Schema.newBuilder()
                    .column("p", DataTypes.INT().notNull())
                    .column("id", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .column("n", DataTypes.BIGINT())
                    .primaryKey("p", "id")
                    .partitionKeys("p")
                    .option("bucket", "2")
                    .options(engine.getValue())
                    .build());
            writeHistory(paimon, engine.getKey(), false);
        }

        Table tagged = paimon.getTable(DATABASE, primaryKeyTable("none"));
        tagged.createTag("first", 1);
        tagged.createTag("third", 3);
        // a branch from the third snapshot, with a commit of its own
        tagged.createBranch("side", "third");
        write(paimon.getTable(DATABASE, primaryKeyTable("none") + "$branch_side"), List.of(
                row(RowKind.INSERT, 1, 8, "side", 80L), row(RowKind.DELETE, 1, 1, "a", 1L)));

        // three commits, of which only the last snapshot is kept
        paimon.createTable(DATABASE, "expired", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            write(paimon.getTable(DATABASE, "expired"), List.of(GenericRow.of(commit)));
        }
        ((FileStoreTable) paimon.getTable(DATABASE, "expired")).newExpireSnapshots()
                .config(ExpireConfig.builder().snapshotRetainMin(1).snapshotRetainMax(1).build())
                .expire();

        paimon.createTable(DATABASE, "events", Schema.newBuilder()
                .column("p", DataTypes.INT())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .partitionKeys("p")
                .build());
        write(paimon.getTable(DATABASE, "events"), List.of(row(RowKind.INSERT, 1, 1, "a"), row(RowKind.INSERT, 2, 2, "a")));
        write(paimon.getTable(DATABASE, "events"), List.of(row(RowKind.INSERT, 1, 3, "b")));
        write(paimon.getTable(DATABASE, "events"), List.of(row(RowKind.INSERT, 2, 4, "c"), row(RowKind.INSERT, 1, 5, "c")));
    }

    @Test
    void everyRangeOfEveryModeReadsAsPaimonJavaReadsIt()
    {
        for (String producer : PRODUCERS) {
            assertEveryRange(primaryKeyTable(producer));
        }
        assertEveryRange("events");
    }

    @Test
    void everyRangeOfTheOtherMergeEnginesReadsAsPaimonJavaReadsIt()
    {
        for (String table : MERGE_ENGINES.keySet()) {
            assertEveryRange(table);
        }
    }

    @Test
    void aVersionFilterReadsTheChangesOfThatSnapshot()
    {
        String table = primaryKeyTable("lookup");
        long latest = latestSnapshotIdOf(table);
        for (String mode : List.of("delta", "changelog")) {
            Map<Long, List<String>> byVersion = new TreeMap<>();
            for (MaterializedRow row : computeActual(changesQuery(table, 0, latest, mode)).getMaterializedRows()) {
                byVersion.computeIfAbsent((Long) row.getField(row.getFieldCount() - 2), _ -> new ArrayList<>()).add(changeText(row));
            }
            for (long snapshot = 1; snapshot <= latest; snapshot++) {
                List<String> expected = paimonChanges(table, (snapshot - 1) + "," + snapshot, mode);
                assertThat(sorted(byVersion.getOrDefault(snapshot, List.of())))
                        .as("%s %s rows of version %s", table, mode, snapshot)
                        .isEqualTo(expected);
                assertThat(trinoChanges(table, 0, latest, mode, "_change_version_id = " + snapshot))
                        .as("%s %s filtered on version %s", table, mode, snapshot)
                        .isEqualTo(expected);
            }
        }
    }

    /**
     * The planner's row count of a delta or changelog read is the number of records Paimon Java's incremental read
     * gives, whole history and one version; a diff, and a delta of a table with deletion vectors (which hides level-0
     * files), have none.
     */
    @Test
    void deltaAndChangelogReadsEstimateTheirRecords()
    {
        for (String table : List.of(primaryKeyTable("none"), primaryKeyTable("input"), primaryKeyTable("lookup"), primaryKeyTable("full-compaction"), "events")) {
            long latest = latestSnapshotIdOf(table);
            for (String mode : List.of("delta", "changelog")) {
                boolean unknown = mode.equals("delta") && table.equals(primaryKeyTable("lookup"));
                assertThat(estimatedRows(changesQuery(table, 0, latest, mode)))
                        .as("%s %s", table, mode)
                        .isEqualTo(unknown ? "?" : String.valueOf(paimonChanges(table, "0," + latest, mode).size()));
                assertThat(estimatedRows(changesQuery(table, 0, latest, mode) + " WHERE _change_version_id = " + latest))
                        .as("%s %s of version %s", table, mode, latest)
                        .isEqualTo(unknown ? "?" : String.valueOf(paimonChanges(table, (latest - 1) + "," + latest, mode).size()));
            }
            assertThat(estimatedRows(changesQuery(table, 0, latest, "diff"))).as("%s diff", table).isEqualTo("?");
        }
    }

    // the planner's row estimate of the query's table scan, as EXPLAIN prints it
    private String estimatedRows(String query)
    {
        String plan = (String) computeActual("EXPLAIN " + query).getOnlyValue();
        Matcher scan = Pattern.compile("(?:TableScan|ScanFilter|ScanFilterProject|ScanProject)\\[[^\\n]*\\n(?:[^\\n]*\\n)*?\\s*Estimates: \\{rows: ([0-9?]+)").matcher(plan);
        assertThat(scan.find()).as(plan).isTrue();
        return scan.group(1);
    }

    @Test
    void tagsTimesAndAnOpenEndBoundTheRangeAsPaimonReadsThem()
    {
        String table = primaryKeyTable("none");
        // two tags read as a diff of their states unless a mode is named, which reads the snapshots between them
        assertThat(trinoChanges("start_tag => 'first', end_tag => 'third'"))
                .isEqualTo(paimonChanges(table, Map.of("incremental-between", "first,third")));
        for (String mode : List.of("delta", "changelog")) {
            assertThat(trinoChanges("start_tag => 'first', end_tag => 'third', mode => '%s'".formatted(mode)))
                    .as(mode)
                    .isEqualTo(paimonChanges(table, Map.of("incremental-between", "first,third", "incremental-between-tag-to-snapshot", "true", "incremental-between-scan-mode", mode)));
        }
        // a tag and a snapshot id mixed
        assertThat(trinoChanges("start_tag => 'first', end_snapshot_id => 4"))
                .isEqualTo(paimonChanges(table, "1,4", "auto"));

        long latest = latestSnapshotIdOf(table);
        assertThat(trinoChanges("start_snapshot_id => 2"))
                .isEqualTo(paimonChanges(table, "2," + latest, "auto"));

        // a time stands for the newest snapshot committed at or before it, exclusive at the start
        long second = commitMillis(table, 2);
        long fourth = commitMillis(table, 4);
        assertThat(trinoChanges("start_timestamp => %s, end_timestamp => %s".formatted(timestamp(second), timestamp(fourth))))
                .isEqualTo(paimonChanges(table, Map.of("incremental-between-timestamp", second + "," + fourth)))
                .isEqualTo(paimonChanges(table, "2,4", "auto"));
        assertThat(trinoChanges("start_timestamp => %s".formatted(timestamp(0))))
                .isEqualTo(paimonChanges(table, "0," + latest, "auto"));
    }

    @Test
    void aBranchHasChangesOfItsOwn()
    {
        String branch = primaryKeyTable("none") + "$branch_side";
        long latest = ((FileStoreTable) uncachedPaimon().getTable(DATABASE, branch)).snapshotManager().latestSnapshotId();
        for (String mode : MODES) {
            List<String> changes = computeChanges("table_name => '%s', start_snapshot_id => 3, end_snapshot_id => %s, mode => '%s'".formatted(branch, latest, mode));
            assertThat(changes).as(mode).isEqualTo(paimonChanges(branch, "3," + latest, mode));
            // the table has no changelog producer, so only its changelog is empty
            assertThat(changes.isEmpty()).as(mode).isEqualTo(mode.equals("changelog"));
        }
    }

    @Test
    void boundsThatNameNoVersionFailNamingTheTableAndTheBound()
    {
        String table = primaryKeyTable("none");
        long latest = latestSnapshotIdOf(table);
        assertQueryFails(changesCall(table, "start_snapshot_id => 1, mode => 'stream'"), ".*table_changes of changes.pk_none: unknown mode 'stream'; the modes are auto, delta, changelog and diff");
        assertQueryFails(changesCall(table, "start_snapshot_id => 3, end_snapshot_id => 2"), ".*table_changes of changes.pk_none: the start, snapshot 3, is after the end, snapshot 2");
        assertQueryFails(changesCall(table, "start_snapshot_id => 1, end_snapshot_id => 99"), ".*Table changes.pk_none has no snapshot 99 \\(the end of table_changes\\); the latest snapshot is " + latest);
        assertQueryFails(changesCall(table, "start_tag => 'missing'"), ".*Table changes.pk_none has no tag 'missing'");
        assertQueryFails(changesCall(table, "start_snapshot_id => 1, start_tag => 'first'"), ".*table_changes of changes.pk_none takes exactly one start: start_snapshot_id, start_tag or start_timestamp");
        assertQueryFails(changesCall(table, "end_snapshot_id => 2"), ".*takes exactly one start.*");
        assertQueryFails(changesCall("no_such_table", "start_snapshot_id => 1"), ".*table_changes: table changes.no_such_table does not exist");
        assertQueryFails(changesCall(table + "$ro", "start_snapshot_id => 1"), ".*table_changes reads a table or a branch of it, not changes.pk_none\\$ro");
        // two of three snapshots expired: the changes after the first cannot be read, those after the second can
        assertQueryFails(changesCall("expired", "start_snapshot_id => 1"), ".*table_changes of changes.expired: the changes after snapshot 1 cannot be read, snapshot 2 has expired; the earliest snapshot still readable is 3, so a range may start at 2 at the earliest");
        assertThat(computeChanges("table_name => 'expired', start_snapshot_id => 2")).isEqualTo(List.of("+I(2)"));
        assertQueryFails(changesCall("expired", "start_snapshot_id => 1, mode => 'diff'"), ".*Table changes.expired: snapshot 1 \\(the start of table_changes\\) has expired; the earliest snapshot still readable is 3");
        // a column of the table with the name of a change column
        assertUpdate("CREATE TABLE clash (id integer, _change_type varchar)");
        assertUpdate("INSERT INTO clash VALUES (1, 'mine')", 1);
        assertQueryFails(changesCall("clash", "start_snapshot_id => 0"), ".*table_changes cannot read changes.clash: its column _change_type has the name of a column table_changes adds");
    }

    @Test
    void changesTrinoWroteReadAsPaimonJavaReadsThem()
    {
        // the lookup producer: Trino's writes add data files and its compactions changelog files
        for (String producer : List.of("lookup")) {
            String table = "written_" + producer;
            assertUpdate("CREATE TABLE %s (id integer, v varchar, n bigint) WITH (primary_key = ARRAY['id'], bucket = 2, changelog_producer = '%s')".formatted(table, producer));
            assertUpdate("INSERT INTO %s VALUES (1, 'a', 1), (2, 'a', 2), (3, 'a', 3), (4, 'a', 4)".formatted(table), 4);
            assertUpdate("UPDATE %s SET v = 'b', n = n * 10 WHERE id IN (2, 3)".formatted(table), 2);
            assertUpdate("DELETE FROM %s WHERE id = 4".formatted(table), 1);
            assertUpdate("MERGE INTO %s t USING (VALUES (1, 'c'), (5, 'c')) s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 50)".formatted(table), 2);
            assertUpdate("ALTER TABLE %s EXECUTE optimize".formatted(table));
            assertUpdate("INSERT INTO %s VALUES (6, 'd', 6)".formatted(table), 1);
            assertEveryRange(table);
        }
    }

    /** Partition and version predicates leave out the splits of other partitions and other snapshots. */
    @Test
    void partitionAndVersionPredicatesPruneSplits()
    {
        String table = primaryKeyTable("none");
        long latest = latestSnapshotIdOf(table);
        String query = "SELECT * FROM TABLE(paimon.system.table_changes(schema_name => '%s', table_name => '%s', start_snapshot_id => 0, mode => 'delta'))".formatted(DATABASE, table);
        long all = 0;
        long firstPartition = 0;
        for (long snapshot = 1; snapshot <= latest; snapshot++) {
            for (Split split : paimonDeltaSplits(table, snapshot)) {
                all++;
                firstPartition += ((DataSplit) split).partition().getInt(0) == 1 ? 1 : 0;
            }
        }
        assertThat(firstPartition).isPositive().isLessThan(all);
        assertThat(ScanStatistics.execute(getQueryRunner(), query).splits()).isEqualTo(all);
        assertThat(ScanStatistics.execute(getQueryRunner(), query + " WHERE p = 1").splits()).isEqualTo(firstPartition);
        assertThat(ScanStatistics.execute(getQueryRunner(), query + " WHERE _change_version_id = 2").splits()).isEqualTo(paimonDeltaSplits(table, 2).size());
    }

    /**
     * A predicate on {@code _change_type} leaves out the files whose manifest entries count no record of the wanted
     * kinds: only the buckets whose changelog files Paimon Java lists with retractions are read for the retractions of
     * the lookup table, none of the append table for its deletions; the rows are Paimon Java's, filtered.
     */
    @Test
    void changeTypePredicatesPruneFiles()
    {
        String table = primaryKeyTable("lookup");
        long latest = latestSnapshotIdOf(table);
        String query = changesQuery(table, 0, latest, "changelog") + " WHERE _change_type IN ('update_preimage', 'delete')";
        long withRetractions = 0;
        long all = 0;
        for (long snapshot = 1; snapshot <= latest; snapshot++) {
            List<Split> splits = uncachedPaimon().getTable(DATABASE, table)
                    .copy(Map.of("incremental-between", (snapshot - 1) + "," + snapshot, "incremental-between-scan-mode", "changelog"))
                    .newReadBuilder().newScan().plan().splits();
            all += splits.size();
            withRetractions += splits.stream()
                    .filter(split -> ((DataSplit) split).dataFiles().stream().anyMatch(file -> file.deleteRowCount().orElse(1L) > 0))
                    .count();
        }
        assertThat(withRetractions).isPositive().isLessThan(all);
        assertThat(ScanStatistics.execute(getQueryRunner(), query).splits()).isEqualTo(withRetractions);
        assertThat(trinoChanges(table, 0, latest, "changelog", "_change_type IN ('update_preimage', 'delete')"))
                .isEqualTo(paimonChanges(table, "0," + latest, "changelog").stream().filter(row -> row.startsWith("-U") || row.startsWith("-D")).toList())
                .isNotEmpty();

        long eventsLatest = latestSnapshotIdOf("events");
        // (a scan without splits still runs one driver)
        ScanStatistics deletions = ScanStatistics.execute(getQueryRunner(), changesQuery("events", 0, eventsLatest, "delta") + " WHERE _change_type = 'delete'");
        assertThat(deletions.physicalInputBytes()).isZero();
        assertThat(deletions.result().getRowCount()).isZero();
        assertThat(ScanStatistics.execute(getQueryRunner(), changesQuery("events", 0, eventsLatest, "delta") + " WHERE _change_type = 'insert'").physicalInputBytes()).isPositive();
    }

    // Paimon Java's splits of the delta of one snapshot: one per bucket of a partition it wrote to
    private List<Split> paimonDeltaSplits(String table, long snapshot)
    {
        return uncachedPaimon().getTable(DATABASE, table)
                .copy(Map.of("incremental-between", (snapshot - 1) + "," + snapshot, "incremental-between-scan-mode", "delta"))
                .newReadBuilder().newScan().plan().splits();
    }

    /** The worked example of docs/changes.md, row for row. */
    @Test
    void theWorkedExampleOfTheDocs()
    {
        assertUpdate("CREATE TABLE example (id integer, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate(withoutCompactionOnWrite(), "INSERT INTO example VALUES (1, 'a'), (2, 'a')", 2);
        assertUpdate(withoutCompactionOnWrite(), "UPDATE example SET v = 'b' WHERE id = 2", 1);
        assertUpdate(withoutCompactionOnWrite(), "DELETE FROM example WHERE id = 1", 1);
        String call = "SELECT id, v, _change_type, _change_version_id FROM TABLE(paimon.system.table_changes(schema_name => 'changes', table_name => 'example', start_snapshot_id => %s, mode => '%s'))";
        assertThat(rowsOf(call.formatted(0, "delta"))).containsExactlyInAnyOrder(
                "[1, a, insert, 1]", "[2, a, insert, 1]", "[2, b, update_postimage, 2]", "[1, null, delete, 3]");
        assertThat(rowsOf(call.formatted(1, "diff"))).containsExactlyInAnyOrder(
                "[2, b, update_postimage, 3]", "[1, null, delete, 3]");
        // no changelog producer: no changelog files
        assertThat(rowsOf(call.formatted(0, "changelog"))).isEmpty();
        assertThat(rowsOf(call.formatted(0, "auto"))).isEqualTo(rowsOf(call.formatted(0, "delta")));
    }

    private List<String> rowsOf(String query)
    {
        return computeActual(query).getMaterializedRows().stream().map(row -> row.getFields().toString()).sorted().toList();
    }

    private List<String> trinoChanges(String arguments)
    {
        return computeChanges("table_name => '%s', %s".formatted(primaryKeyTable("none"), arguments));
    }

    private List<String> computeChanges(String arguments)
    {
        return sorted(computeActual("SELECT * FROM TABLE(paimon.system.table_changes(schema_name => '%s', %s))".formatted(DATABASE, arguments)).getMaterializedRows().stream()
                .map(TestTableChanges::changeText)
                .toList());
    }

    private static String changesCall(String table, String arguments)
    {
        return "SELECT * FROM TABLE(paimon.system.table_changes(schema_name => '%s', table_name => '%s', %s))".formatted(DATABASE, table, arguments);
    }

    private long commitMillis(String table, long snapshot)
    {
        return ((FileStoreTable) uncachedPaimon().getTable(DATABASE, table)).snapshotManager().snapshot(snapshot).timeMillis();
    }

    private static String timestamp(long epochMillis)
    {
        return "from_unixtime_nanos(%s) AT TIME ZONE 'UTC'".formatted(epochMillis * 1_000_000L);
    }

    private void assertEveryRange(String table)
    {
        long latest = latestSnapshotIdOf(table);
        assertThat(latest).as("snapshots of %s", table).isGreaterThanOrEqualTo(3);
        for (String mode : MODES) {
            List<String> ranges = new ArrayList<>();
            // Paimon's diff reads the start's snapshot file, so it starts at the first snapshot
            for (long start = mode.equals("diff") ? 1 : 0; start < latest; start++) {
                for (long end = start + 1; end <= latest; end++) {
                    // auto only chooses between delta and changelog: the whole history shows its choice
                    boolean checked = mode.equals("auto") ? start == 0 && end == latest : EVERY_RANGE || start == 0 || end == latest;
                    if (checked) {
                        ranges.add(start + "," + end);
                    }
                }
            }
            // every range in one query, each range's rows labelled with it
            String query = ranges.stream()
                    .map(range -> "SELECT '%s' AS range, * FROM TABLE(paimon.system.table_changes(schema_name => '%s', table_name => '%s', start_snapshot_id => %s, end_snapshot_id => %s, mode => '%s'))"
                            .formatted(range, DATABASE, table, RANGE_BOUNDS.splitToList(range).get(0), RANGE_BOUNDS.splitToList(range).get(1), mode))
                    .collect(joining(" UNION ALL "));
            Map<String, List<String>> changes = new TreeMap<>();
            for (MaterializedRow row : computeActual(query).getMaterializedRows()) {
                List<Object> fields = row.getFields();
                changes.computeIfAbsent((String) fields.getFirst(), _ -> new ArrayList<>())
                        .add(changeText(new MaterializedRow(fields.subList(1, fields.size()))));
            }
            for (String range : ranges) {
                List<String> expected;
                if (mode.equals("diff") && MERGE_ENGINES.containsKey(table)) {
                    expected = diffOfSnapshotReads(table, range);
                }
                else if (mode.equals("diff") && table.equals(primaryKeyTable("lookup"))) {
                    expected = diffWithDeletedRows(table, range);
                }
                else {
                    expected = paimonChanges(table, range, mode);
                }
                assertThat(sorted(changes.getOrDefault(range, List.of())))
                        .as("%s, %s, (%s]", table, mode, range)
                        .isEqualTo(expected);
            }
        }
    }

    private List<String> trinoChanges(String table, long start, long end, String mode, String filter)
    {
        return sorted(computeActual(changesQuery(table, start, end, mode) + " WHERE " + filter).getMaterializedRows().stream()
                .map(TestTableChanges::changeText)
                .toList());
    }

    // the table's columns, then _change_type, _change_version_id and _change_timestamp
    private static String changesQuery(String table, long start, long end, String mode)
    {
        return "SELECT * FROM TABLE(paimon.system.table_changes(schema_name => '%s', table_name => '%s', start_snapshot_id => %s, end_snapshot_id => %s, mode => '%s'))"
                .formatted(DATABASE, table, start, end, mode);
    }

    // a change, its kind and the table's columns, as Paimon Java prints a row: +I(1, a)
    private static String changeText(MaterializedRow row)
    {
        int typeField = row.getFieldCount() - 3;
        StringJoiner text = new StringJoiner(", ", KINDS.get((String) row.getField(typeField)) + "(", ")");
        for (int field = 0; field < typeField; field++) {
            text.add(String.valueOf(row.getField(field)));
        }
        return text.toString();
    }

    private List<String> paimonChanges(String table, String range, String mode)
    {
        return paimonChanges(table, Map.of("incremental-between", range, "incremental-between-scan-mode", mode));
    }

    private List<String> paimonChanges(String table, Map<String, String> options)
    {
        Table auditLog = uncachedPaimon().getTable(DATABASE, table + "$audit_log").copy(options);
        // the audit log's rows are inserts whose first value is the change's kind: +I(-U, 1, a) is -U(1, a)
        return sorted(PaimonJavaCatalog.readRows(auditLog).stream()
                .map(row -> row.replaceFirst("^\\+I\\(([-+][IUD]), ", "$1("))
                .toList());
    }

    /**
     * Paimon's diff of a table with deletion vectors, with the rows it misses: Paimon 1.4.2 leaves out a file the two
     * states share, so a row a new deletion vector removed from it is not reported. Each row Paimon Java reads at the
     * start whose key it does not read at the end is a delete.
     */
    private List<String> diffWithDeletedRows(String table, String range)
    {
        List<String> changes = new ArrayList<>(paimonChanges(table, range, "diff"));
        Map<String, String> startRows = rowsByKey(table, RANGE_BOUNDS.splitToList(range).get(0));
        Map<String, String> endRows = rowsByKey(table, RANGE_BOUNDS.splitToList(range).get(1));
        startRows.forEach((key, row) -> {
            String delete = "-D" + row.substring(2);
            if (!endRows.containsKey(key) && !changes.contains(delete)) {
                changes.add(delete);
            }
        });
        return sorted(changes);
    }

    /**
     * The diff of two states as Paimon Java reads each of them: each key of the end whose row the start lacks or
     * differs from as an insert of the end row, each key of the start the end lacks as a delete of the start row.
     * Paimon 1.4.2's own diff of a partial-update or aggregation table reports a key's newest record rather than its
     * merged row, which its reads of the same snapshots do not show.
     */
    private List<String> diffOfSnapshotReads(String table, String range)
    {
        long start = Long.parseLong(RANGE_BOUNDS.splitToList(range).get(0));
        Map<String, String> startRows = start == 0 ? Map.of() : rowsByKey(table, String.valueOf(start));
        Map<String, String> endRows = rowsByKey(table, RANGE_BOUNDS.splitToList(range).get(1));
        List<String> changes = new ArrayList<>();
        endRows.forEach((key, row) -> {
            if (!row.equals(startRows.get(key))) {
                changes.add(row);
            }
        });
        startRows.forEach((key, row) -> {
            if (!endRows.containsKey(key)) {
                changes.add("-D" + row.substring(2));
            }
        });
        return sorted(changes);
    }

    // Paimon Java's rows of the table at a snapshot, by their key (the first two values)
    private Map<String, String> rowsByKey(String table, String snapshot)
    {
        Map<String, String> rows = new TreeMap<>();
        for (String row : PaimonJavaCatalog.readRows(uncachedPaimon().getTable(DATABASE, table).copy(Map.of("scan.snapshot-id", snapshot)))) {
            List<String> values = Splitter.on(", ").splitToList(row.substring(row.indexOf('(') + 1));
            rows.put(values.get(0) + "," + values.get(1), row);
        }
        return rows;
    }

    private static List<String> sorted(List<String> rows)
    {
        return rows.stream().sorted().toList();
    }

    private static String primaryKeyTable(String producer)
    {
        return "pk_" + producer.replace('-', '_');
    }

    // rows of a table with a column added at the end, whose value is the row's id as text
    private static List<GenericRow> withExtra(boolean evolved, List<GenericRow> rows)
    {
        if (!evolved) {
            return rows;
        }
        return rows.stream()
                .map(row -> {
                    GenericRow wider = new GenericRow(row.getRowKind(), row.getFieldCount() + 1);
                    for (int field = 0; field < row.getFieldCount(); field++) {
                        wider.setField(field, row.getField(field));
                    }
                    wider.setField(row.getFieldCount(), BinaryString.fromString("x" + row.getInt(1)));
                    return wider;
                })
                .toList();
    }

    /**
     * Appends, upserts with a null, deletes, a full compaction and more upserts; with {@code evolved}, a column added
     * halfway, so that the changes of every range come out in the table's current columns.
     */
    private void writeHistory(PaimonJavaCatalog paimon, String name, boolean evolved)
    {
        write(paimon.getTable(DATABASE, name), List.of(
                row(RowKind.INSERT, 1, 1, "a", 1L), row(RowKind.INSERT, 1, 2, "a", 2L), row(RowKind.INSERT, 1, 3, "a", 3L),
                row(RowKind.INSERT, 1, 4, "a", 4L), row(RowKind.INSERT, 2, 1, "a", 5L), row(RowKind.INSERT, 2, 2, "a", 6L)));
        write(paimon.getTable(DATABASE, name), List.of(
                row(RowKind.INSERT, 1, 2, "b", 20L), row(RowKind.INSERT, 1, 3, "b", null), row(RowKind.INSERT, 2, 5, "b", 50L)));
        if (evolved) {
            paimon.alterTable(DATABASE, name, SchemaChange.addColumn("extra", DataTypes.STRING()));
        }
        write(paimon.getTable(DATABASE, name), withExtra(evolved, List.of(
                row(RowKind.DELETE, 1, 4, "a", 4L), row(RowKind.DELETE, 2, 1, "a", 5L), row(RowKind.INSERT, 2, 6, "c", 60L))));
        compactFully(paimon.getTable(DATABASE, name));
        write(paimon.getTable(DATABASE, name), withExtra(evolved, List.of(
                row(RowKind.INSERT, 1, 2, "d", 200L), row(RowKind.INSERT, 1, 7, "d", 70L), row(RowKind.DELETE, 2, 2, "a", 6L))));
    }

    private static GenericRow row(RowKind kind, Object... values)
    {
        Object[] converted = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            converted[i] = values[i] instanceof String text ? BinaryString.fromString(text) : values[i];
        }
        return GenericRow.ofKind(kind, converted);
    }

    private static void write(Table table, List<GenericRow> rows)
    {
        PaimonJavaCatalog.write(table, rows);
    }

    // every bucket of both partitions compacted fully, in one commit, by Paimon Java's writer
    private void compactFully(Table table)
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(root().toString()));
                BatchTableCommit commit = builder.newCommit()) {
            for (int partition = 1; partition <= 2; partition++) {
                for (int bucket = 0; bucket < 2; bucket++) {
                    write.compact(BinaryRow.singleColumn(partition), bucket, true);
                }
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
