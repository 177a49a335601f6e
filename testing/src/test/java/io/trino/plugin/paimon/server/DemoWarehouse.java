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
package io.trino.plugin.paimon.server;

import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import static io.trino.plugin.paimon.testing.PaimonJavaCatalog.write;

/**
 * A small warehouse written by Paimon Java, so a new user has something to look at: {@code <root>/warehouse} with
 * database {@code demo}. Each table gets several commits, hence several sorted runs per bucket to merge.
 * Run: {@code DemoWarehouse <local root>}; an existing demo database is left as it is.
 */
public final class DemoWarehouse
{
    public static final String DATABASE = "demo";

    private DemoWarehouse() {}

    public static void main(String[] args)
            throws Exception
    {
        if (args.length != 1) {
            System.err.println("usage: DemoWarehouse <local root>");
            System.exit(2);
        }
        Path root = Path.of(args[0]).toAbsolutePath();
        if (Files.isDirectory(root.resolve("warehouse").resolve(DATABASE + ".db"))) {
            System.out.println("Demo warehouse already exists: " + root.resolve("warehouse"));
            return;
        }
        create(root);
        System.out.println("Demo warehouse written: " + root.resolve("warehouse"));
    }

    /** Writes the demo database under {@code <root>/warehouse}. */
    public static void create(Path root)
            throws Exception
    {
        Path warehouse = Files.createDirectories(root.resolve("warehouse"));
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(warehouse)) {
            paimon.createDatabase(DATABASE);
            writeOrders(paimon);
            writeCustomers(paimon);
            writePageViews(paimon);
            writeEvents(paimon);
            writeAccounts(paimon);
        }
    }

    private static void writeOrders(PaimonJavaCatalog paimon)
    {
        Table orders = paimon.createTable(DATABASE, "orders", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("order_id", DataTypes.BIGINT(), "order number, unique within a day")
                .column("customer", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(12, 2))
                .column("status", DataTypes.STRING())
                .column("updated_at", DataTypes.TIMESTAMP(3))
                .partitionKeys("dt")
                .primaryKey("dt", "order_id")
                .option("bucket", "2")
                .option("file.format", "parquet")
                .option("write-only", "true")
                .comment("Orders; each commit is a new sorted run, merged at read time")
                .build());
        write(orders, List.of(
                order(RowKind.INSERT, "2026-11-01", 1, "alice", "19.99", "NEW", "2026-11-01T09:00:00"),
                order(RowKind.INSERT, "2026-11-01", 2, "bob", "5.00", "NEW", "2026-11-01T09:05:00"),
                order(RowKind.INSERT, "2026-11-02", 3, "carol", "120.50", "NEW", "2026-11-02T10:00:00")));
        write(orders, List.of(
                order(RowKind.UPDATE_AFTER, "2026-11-01", 1, "alice", "19.99", "SHIPPED", "2026-11-02T08:00:00"),
                order(RowKind.INSERT, "2026-11-02", 4, "dave", "42.00", "NEW", "2026-11-02T11:30:00")));
        write(orders, List.of(
                order(RowKind.DELETE, "2026-11-01", 2, "bob", "5.00", "NEW", "2026-11-01T09:05:00"),
                order(RowKind.UPDATE_AFTER, "2026-11-02", 3, "carol", "99.00", "PAID", "2026-11-02T12:00:00")));
    }

    private static GenericRow order(RowKind kind, String dt, long id, String customer, String amount, String status, String updatedAt)
    {
        return GenericRow.ofKind(kind,
                BinaryString.fromString(dt),
                id,
                BinaryString.fromString(customer),
                Decimal.fromBigDecimal(new BigDecimal(amount), 12, 2),
                BinaryString.fromString(status),
                Timestamp.fromLocalDateTime(LocalDateTime.parse(updatedAt)));
    }

    private static void writeCustomers(PaimonJavaCatalog paimon)
    {
        Table customers = paimon.createTable(DATABASE, "customers", Schema.newBuilder()
                .column("name", DataTypes.STRING())
                .column("email", DataTypes.STRING())
                .column("city", DataTypes.STRING())
                .column("signup_date", DataTypes.DATE())
                .primaryKey("name")
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .option("write-only", "true")
                .comment("Customers; partial-update fills in columns commit by commit")
                .build());
        write(customers, List.of(
                GenericRow.of(s("alice"), s("alice@example.com"), null, days("2025-01-15")),
                GenericRow.of(s("bob"), null, s("Lisbon"), days("2025-03-02"))));
        write(customers, List.of(
                GenericRow.of(s("alice"), null, s("Oslo"), null),
                GenericRow.of(s("bob"), s("bob@example.com"), null, null)));
    }

    private static void writePageViews(PaimonJavaCatalog paimon)
    {
        Table pageViews = paimon.createTable(DATABASE, "page_views", Schema.newBuilder()
                .column("page", DataTypes.STRING())
                .column("views", DataTypes.BIGINT())
                .column("last_visit", DataTypes.TIMESTAMP(3))
                .primaryKey("page")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.views.aggregate-function", "sum")
                .option("fields.last_visit.aggregate-function", "max")
                .option("write-only", "true")
                .comment("Page views; the aggregation engine sums views and keeps the latest visit")
                .build());
        write(pageViews, List.of(
                GenericRow.of(s("/home"), 10L, ts("2026-11-01T10:00:00")),
                GenericRow.of(s("/docs"), 3L, ts("2026-11-01T11:00:00"))));
        write(pageViews, List.of(
                GenericRow.of(s("/home"), 5L, ts("2026-11-02T09:00:00"))));
    }

    private static void writeEvents(PaimonJavaCatalog paimon)
    {
        Table events = paimon.createTable(DATABASE, "events", Schema.newBuilder()
                .column("event_date", DataTypes.DATE())
                .column("kind", DataTypes.STRING())
                .column("payload", DataTypes.STRING())
                .partitionKeys("event_date")
                .comment("An append table (no primary key)")
                .build());
        write(events, List.of(
                GenericRow.of(days("2026-11-01"), s("login"), s("{\"user\": \"alice\"}")),
                GenericRow.of(days("2026-11-02"), s("logout"), s("{\"user\": \"bob\"}"))));
    }

    private static void writeAccounts(PaimonJavaCatalog paimon)
    {
        Table accounts = paimon.createTable(DATABASE, "accounts", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("owner", DataTypes.STRING())
                .column("balance", DataTypes.DECIMAL(12, 2))
                .primaryKey("id")
                .option("bucket", "4")
                .option("file.format", "parquet")
                .comment("Accounts; four fixed buckets, so Trino can INSERT (upsert) into it")
                .build());
        write(accounts, List.of(
                GenericRow.of(1L, s("alice"), Decimal.fromBigDecimal(new BigDecimal("100.00"), 12, 2)),
                GenericRow.of(2L, s("bob"), Decimal.fromBigDecimal(new BigDecimal("20.50"), 12, 2))));
    }

    private static BinaryString s(String value)
    {
        return BinaryString.fromString(value);
    }

    private static int days(String date)
    {
        return (int) LocalDate.parse(date).toEpochDay();
    }

    private static Timestamp ts(String value)
    {
        return Timestamp.fromLocalDateTime(LocalDateTime.parse(value));
    }
}
