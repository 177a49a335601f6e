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
package io.trino.plugin.paimon.testing;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static java.util.Objects.requireNonNull;

/**
 * Tables that Paimon Java writes in the shapes the format and read tests need: many commits (several level-0 runs
 * per bucket), a full compaction followed by more commits (mixed levels), deletion vectors, several schema
 * versions, an append table. Each is written in database {@link #DATABASE} of the given catalog.
 */
public final class PaimonTestTables
{
    public static final String DATABASE = "tables";
    public static final String MULTI_COMMIT = "multi_commit";
    public static final String COMPACTED = "compacted";
    public static final String DELETION_VECTORS = "deletion_vectors";
    public static final String EVOLVED = "evolved";
    public static final String APPEND = "append_only";
    public static final List<String> ALL = List.of(MULTI_COMMIT, COMPACTED, DELETION_VECTORS, EVOLVED, APPEND);

    private static final List<String> DAYS = List.of("2026-11-01", "2026-11-02", "2026-11-03");

    private final PaimonJavaCatalog paimon;
    private final String ioTempDirectory;

    public PaimonTestTables(PaimonJavaCatalog paimon, String ioTempDirectory)
    {
        this.paimon = requireNonNull(paimon, "paimon is null");
        this.ioTempDirectory = requireNonNull(ioTempDirectory, "ioTempDirectory is null");
    }

    /** A temporary warehouse holding all these tables; closing it removes them. */
    public static TempWarehouse inTempWarehouse()
    {
        TempWarehouse warehouse = TempWarehouse.create();
        try {
            new PaimonTestTables(warehouse.paimon(), warehouse.root().toString()).createAll();
            return warehouse;
        }
        catch (Exception e) {
            try {
                warehouse.close();
            }
            catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw new RuntimeException("Paimon Java failed to write the test tables", e);
        }
    }

    public void createAll()
            throws Exception
    {
        paimon.createDatabase(DATABASE);
        Random random = new Random(42);

        Table multiCommit = paimon.createTable(DATABASE, MULTI_COMMIT, keyedSchema().option("write-only", "true").build());
        for (int commit = 0; commit < 4; commit++) {
            commit(multiCommit, randomChanges(random, 40), false);
        }

        Table compacted = paimon.createTable(DATABASE, COMPACTED, keyedSchema().option("write-only", "true").build());
        for (int commit = 0; commit < 3; commit++) {
            commit(compacted, randomChanges(random, 40), false);
        }
        commit(compacted, List.of(), true);
        for (int commit = 0; commit < 2; commit++) {
            commit(compacted, randomChanges(random, 20), false);
        }

        Table deletionVectors = paimon.createTable(DATABASE, DELETION_VECTORS, keyedSchema().option("deletion-vectors.enabled", "true").build());
        for (int commit = 0; commit < 3; commit++) {
            commit(deletionVectors, randomChanges(random, 30), false);
        }

        Table evolved = paimon.createTable(DATABASE, EVOLVED, keyedSchema().option("write-only", "true").build());
        commit(evolved, randomChanges(random, 20), false);
        paimon.alterTable(DATABASE, EVOLVED, SchemaChange.addColumn("extra", DataTypes.BIGINT()));
        evolved = paimon.getTable(DATABASE, EVOLVED);
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add(GenericRow.of(BinaryString.fromString(DAYS.get(i % DAYS.size())), (long) random.nextInt(100), BinaryString.fromString("after"), (double) i, (long) i));
        }
        commit(evolved, rows, false);
        // a renamed and a dropped column: older files are read by field id
        paimon.alterTable(DATABASE, EVOLVED, SchemaChange.renameColumn("name", "full_name"));
        paimon.alterTable(DATABASE, EVOLVED, SchemaChange.dropColumn("score"));
        evolved = paimon.getTable(DATABASE, EVOLVED);
        rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add(GenericRow.of(BinaryString.fromString(DAYS.get(i % DAYS.size())), (long) random.nextInt(100), BinaryString.fromString("renamed"), (long) -i));
        }
        commit(evolved, rows, false);

        Table append = paimon.createTable(DATABASE, APPEND, Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("msg", DataTypes.STRING())
                .partitionKeys("dt")
                .build());
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> messages = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                messages.add(GenericRow.of(BinaryString.fromString(DAYS.get(i % DAYS.size())), BinaryString.fromString("m" + commit + "-" + i)));
            }
            commit(append, messages, false);
        }
    }

    /** The two columns of the small tables the procedure tests compact: {@code id INT} and {@code v STRING}. */
    public static Schema.Builder idValueSchema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING());
    }

    /** Orders by day: {@code dt STRING, id BIGINT, item STRING, amount DECIMAL(10, 2)}, keyed by day and id, two buckets. */
    public static Schema.Builder ordersSchema()
    {
        return Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.BIGINT())
                .column("item", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(10, 2))
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2");
    }

    /**
     * Creates an {@link #ordersSchema() orders} table and writes it in two sorted runs that a read merges: four
     * orders, then an update of order 2, a delete of order 3 and a new order 5.
     */
    public static void createOrders(PaimonJavaCatalog paimon, String database, String table)
    {
        Table orders = paimon.createTable(database, table, ordersSchema().build());
        PaimonJavaCatalog.write(orders, List.of(
                order("2026-11-01", 1, "apple", 150),
                order("2026-11-01", 2, "pear", 275),
                order("2026-11-02", 3, "plum", 99),
                order("2026-11-02", 4, "fig", 1000)));
        GenericRow deleted = order("2026-11-02", 3, "plum", 99);
        deleted.setRowKind(RowKind.DELETE);
        PaimonJavaCatalog.write(paimon.getTable(database, table), List.of(
                order("2026-11-01", 2, "pear", 300),
                deleted,
                order("2026-11-02", 5, "kiwi", 42)));
    }

    /** A row of an {@link #ordersSchema() orders} table, its amount in cents. */
    public static GenericRow order(String dt, long id, String item, long cents)
    {
        return GenericRow.of(BinaryString.fromString(dt), id, BinaryString.fromString(item), Decimal.fromUnscaledLong(cents, 10, 2));
    }

    private static Schema.Builder keyedSchema()
    {
        return Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("score", DataTypes.DOUBLE())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2");
    }

    private static List<GenericRow> randomChanges(Random random, int count)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RowKind kind = random.nextInt(8) == 0 ? RowKind.DELETE : RowKind.INSERT;
            rows.add(GenericRow.ofKind(kind,
                    BinaryString.fromString(DAYS.get(random.nextInt(DAYS.size()))),
                    (long) random.nextInt(100),
                    BinaryString.fromString("n" + random.nextInt(1000)),
                    random.nextDouble()));
        }
        return rows;
    }

    /** One batch commit; with fullCompaction, every bucket of every day is fully compacted in it. */
    private void commit(Table table, List<GenericRow> rows, boolean fullCompaction)
            throws Exception
    {
        if (fullCompaction) {
            // the table's writers skip compaction (write-only); this one commit compacts
            table = table.copy(Map.of("write-only", "false"));
        }
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(ioTempDirectory));
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            if (fullCompaction) {
                for (String day : DAYS) {
                    for (int bucket = 0; bucket < 2; bucket++) {
                        write.compact(BinaryRow.singleColumn(day), bucket, true);
                    }
                }
            }
            commit.commit(write.prepareCommit());
        }
    }
}
