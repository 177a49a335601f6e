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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code table_changes} reads what Paimon Java's incremental reads read ({@code incremental-between} with each
 * {@code incremental-between-scan-mode}, through its audit log, which keeps retractions), for every range of the
 * history of a partitioned primary-key table under each changelog producer and of an append table, all written by
 * Paimon Java: appends, upserts, deletes and a full compaction.
 */
final class TestTableChanges
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "changes";
    private static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");
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
                    .build());
            write(paimon.getTable(DATABASE, name), List.of(
                    row(RowKind.INSERT, 1, 1, "a", 1L), row(RowKind.INSERT, 1, 2, "a", 2L), row(RowKind.INSERT, 1, 3, "a", 3L),
                    row(RowKind.INSERT, 1, 4, "a", 4L), row(RowKind.INSERT, 2, 1, "a", 5L), row(RowKind.INSERT, 2, 2, "a", 6L)));
            write(paimon.getTable(DATABASE, name), List.of(
                    row(RowKind.INSERT, 1, 2, "b", 20L), row(RowKind.INSERT, 1, 3, "b", null), row(RowKind.INSERT, 2, 5, "b", 50L)));
            write(paimon.getTable(DATABASE, name), List.of(
                    row(RowKind.DELETE, 1, 4, "a", 4L), row(RowKind.DELETE, 2, 1, "a", 5L), row(RowKind.INSERT, 2, 6, "c", 60L)));
            compactFully(paimon.getTable(DATABASE, name));
            write(paimon.getTable(DATABASE, name), List.of(
                    row(RowKind.INSERT, 1, 2, "d", 200L), row(RowKind.INSERT, 1, 7, "d", 70L), row(RowKind.DELETE, 2, 2, "a", 6L)));
        }

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
                List<String> expected = paimonChanges(table, snapshot - 1, snapshot, mode);
                assertThat(sorted(byVersion.getOrDefault(snapshot, List.of())))
                        .as("%s %s rows of version %s", table, mode, snapshot)
                        .isEqualTo(expected);
                assertThat(trinoChanges(table, 0, latest, mode, "_change_version_id = " + snapshot))
                        .as("%s %s filtered on version %s", table, mode, snapshot)
                        .isEqualTo(expected);
            }
        }
    }

    private void assertEveryRange(String table)
    {
        long latest = latestSnapshotIdOf(table);
        assertThat(latest).as("snapshots of %s", table).isGreaterThanOrEqualTo(3);
        for (String mode : MODES) {
            // Paimon's diff reads the start's snapshot file, so it starts at the first snapshot
            for (long start = mode.equals("diff") ? 1 : 0; start < latest; start++) {
                for (long end = start + 1; end <= latest; end++) {
                    assertThat(trinoChanges(table, start, end, mode, "true"))
                            .as("%s, %s, (%s, %s]", table, mode, start, end)
                            .isEqualTo(paimonChanges(table, start, end, mode));
                }
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

    private List<String> paimonChanges(String table, long start, long end, String mode)
    {
        Table auditLog = uncachedPaimon().getTable(DATABASE, table + "$audit_log")
                .copy(Map.of("incremental-between", start + "," + end, "incremental-between-scan-mode", mode));
        // the audit log's rows are inserts whose first value is the change's kind: +I(-U, 1, a) is -U(1, a)
        return sorted(PaimonJavaCatalog.readRows(auditLog).stream()
                .map(row -> row.replaceFirst("^\\+I\\(([-+][IUD]), ", "$1("))
                .toList());
    }

    private static List<String> sorted(List<String> rows)
    {
        return rows.stream().sorted().toList();
    }

    private static String primaryKeyTable(String producer)
    {
        return "pk_" + producer.replace('-', '_');
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
