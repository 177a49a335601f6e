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
package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.S3Server;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.Plugin;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.security.ConnectorIdentity;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static io.trino.plugin.paimon.testing.PaimonTestTables.createOrders;
import static io.trino.plugin.paimon.testing.PaimonTestTables.order;
import static io.trino.plugin.paimon.testing.PaimonTestTables.ordersSchema;
import static io.trino.plugin.paimon.testing.TrinoReleaseFeatures.S3_EXCLUSIVE_CREATE_OPTIONAL;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A warehouse on an S3-compatible server that the test starts in this process ({@link S3Server}, S3Proxy): Paimon
 * Java 1.4.2 writes it (on local disk, then uploaded as it is: see {@link S3Server#upload}), and the connector,
 * configured with the catalog file docs/catalogs-and-file-systems.md shows ({@code fs.native-s3.enabled},
 * {@code s3.*}), reads exactly Paimon Java's rows, writes rows Paimon Java reads back (from a download of the table), and publishes each snapshot
 * with a conditional PUT ({@code If-None-Match: *}), so that of two commits racing for one snapshot id exactly one
 * takes it. Without an exclusive create, writes are refused.
 * <p>
 * Catalogs: {@code paimon} (the catalog file of docs/catalogs-and-file-systems.md), {@code no_exclusive} (the same with
 * {@code s3.exclusive-create=false}) and {@code faults} (the same S3 file system behind a {@link FaultFs}, which
 * holds or fails chosen operations).
 */
final class TestS3Warehouse
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "lake";
    private static final String WAREHOUSE = "warehouse";
    // each format's names of the codecs Paimon writes
    private static final Map<String, List<String>> CODECS = ImmutableMap.of(
            "parquet", List.of("zstd", "lz4", "snappy", "gzip", "none"),
            "orc", List.of("zstd", "lz4", "snappy", "zlib", "none"),
            "avro", List.of("zstd", "snappy", "deflate", "null"));

    private S3Server server;
    private TempWarehouse local;
    private FaultFs faultFs;
    private final List<TempWarehouse> copies = new ArrayList<>();

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        server = S3Server.start();
        String warehouse = server.warehouse(WAREHOUSE);
        local = TempWarehouse.create();
        local.paimon().createDatabase(DATABASE);
        createTables(local.paimon());
        server.upload(local.warehouse().resolve(DATABASE + ".db"), databaseLocation());

        Map<String, String> catalog = server.catalogProperties(warehouse);
        QueryRunner queryRunner = PaimonQueryRunner.create(catalog, DATABASE);
        try {
            if (S3_EXCLUSIVE_CREATE_OPTIONAL) {
                queryRunner.createCatalog("no_exclusive", "paimon", ImmutableMap.<String, String>builder()
                        .putAll(catalog)
                        .put("s3.exclusive-create", "false")
                        .buildOrThrow());
            }
            faultFs = new FaultFs(server.fileSystemFactory(), 1);
            queryRunner.installPlugin(new Plugin()
            {
                @Override
                public Iterable<ConnectorFactory> getConnectorFactories()
                {
                    return ImmutableList.of(new FaultsConnectorFactory(new PaimonConnectorFactory(Optional.of(faultFs))));
                }
            });
            queryRunner.createCatalog("faults", "paimon_faults", ImmutableMap.of("paimon.warehouse", warehouse));
            // a second catalog over the same warehouse: the commits of one catalog queue for a table's snapshot ids,
            // those of two race for them at the store
            queryRunner.createCatalog("faults_rival", "paimon_faults", ImmutableMap.of("paimon.warehouse", warehouse));
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    private static void createTables(PaimonJavaCatalog paimon)
    {
        createOrders(paimon, DATABASE, "orders");

        Table totals = paimon.createTable(DATABASE, "totals", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .build());
        PaimonJavaCatalog.write(totals, List.of(GenericRow.of(1, 10L), GenericRow.of(2, 20L)));
        PaimonJavaCatalog.write(totals, List.of(GenericRow.of(1, 5L), GenericRow.of(3, 7L)));

        Table events = paimon.createTable(DATABASE, "events", Schema.newBuilder()
                .column("ts", DataTypes.BIGINT())
                .column("kind", DataTypes.STRING())
                .build());
        PaimonJavaCatalog.write(events, List.of(GenericRow.of(1L, BinaryString.fromString("open")), GenericRow.of(2L, BinaryString.fromString("click"))));

        // the other file formats Paimon writes: ORC, and Avro at level 0 over Parquet above it (Paimon's advice for
        // streaming ingest)
        Table orc = paimon.createTable(DATABASE, "orc_orders", ordersSchema()
                .option("file.format", "orc")
                .build());
        PaimonJavaCatalog.write(orc, List.of(order("2026-11-01", 1, "apple", 150), order("2026-11-01", 2, "pear", 275), order("2026-11-02", 3, "plum", 99)));
        PaimonJavaCatalog.write(orc, List.of(order("2026-11-01", 2, "pear", 300), order("2026-11-02", 5, "kiwi", 42)));

        Table mixed = paimon.createTable(DATABASE, "mixed_formats", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("item", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(10, 2))
                .primaryKey("id")
                .option("bucket", "2")
                .option("file.format.per.level", "0:avro")
                .build());
        PaimonJavaCatalog.write(mixed, List.of(item(1, "apple", 150), item(2, "pear", 275), item(3, "plum", 99)));
        // two runs, so that the compaction rewrites them (one run alone would only move up a level, in Avro)
        PaimonJavaCatalog.write(mixed, List.of(item(1, "apple", 150), item(2, "pear", 275), item(3, "plum", 99)));
        PaimonJavaCatalog.compact(mixed, paimon.warehouse(), 2, _ -> true);
        GenericRow deletedItem = item(3, "plum", 99);
        deletedItem.setRowKind(RowKind.DELETE);
        PaimonJavaCatalog.write(mixed, List.of(item(2, "pear", 300), deletedItem, item(4, "kiwi", 42)));

        // per format: one commit per codec, over keys the commit before also wrote, in thin mode with 64-bit
        // deletion vectors (Paimon Java's lookup compaction marks the older rows deleted)
        for (Map.Entry<String, List<String>> format : CODECS.entrySet()) {
            String name = "codecs_" + format.getKey();
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("file.format", format.getKey())
                    .option("data-file.thin-mode", "true")
                    .option("deletion-vectors.enabled", "true")
                    .option("deletion-vectors.bitmap64", "true")
                    .build());
            List<String> codecs = format.getValue();
            for (int commit = 0; commit < codecs.size(); commit++) {
                paimon.alterTable(DATABASE, name, SchemaChange.setOption("file.compression", codecs.get(commit)));
                List<GenericRow> rows = new ArrayList<>();
                for (int id = commit * 50; id < commit * 50 + 100; id++) {
                    rows.add(GenericRow.of(id, BinaryString.fromString(codecs.get(commit))));
                }
                PaimonJavaCatalog.write(paimon.getTable(DATABASE, name), rows);
            }
        }

        for (String table : List.of("race_same_bucket", "race_other_buckets", "ambiguous", "refused")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("k")
                    .option("bucket", table.equals("race_same_bucket") ? "1" : "4")
                    .build());
        }
    }

    private static GenericRow item(int id, String item, long cents)
    {
        return GenericRow.of(id, BinaryString.fromString(item), Decimal.fromUnscaledLong(cents, 10, 2));
    }

    @AfterEach
    void noRulesLeft()
            throws Exception
    {
        for (TempWarehouse copy : copies) {
            copy.close();
        }
        copies.clear();
        faultFs.clearRules();
        assertThat(faultFs.openStreams()).as("streams left open").isEmpty();
    }

    @AfterAll
    void stopServer()
            throws Exception
    {
        try (TempWarehouse _ = local; S3Server _ = server) {
            // closed in reverse order
        }
    }

    @Test
    void readsWhatPaimonJavaWroteOnS3()
    {
        assertThat(rows("orders")).containsExactly(
                "(2026-11-01, 1, apple, 1.50)",
                "(2026-11-01, 2, pear, 3.00)",
                "(2026-11-02, 4, fig, 10.00)",
                "(2026-11-02, 5, kiwi, 0.42)");
        assertThat(rows("totals")).containsExactly("(1, 15)", "(2, 20)", "(3, 7)");
        assertThat(rows("events")).containsExactly("(1, open)", "(2, click)");
        for (String table : List.of("orders", "totals", "events")) {
            assertThat(rows(table)).as(table).isEqualTo(RowText.paimonText(paimonTable(table)));
        }
        assertThat(computeActual("SELECT id FROM orders WHERE dt = '2026-11-02'").getOnlyColumnAsSet()).containsExactlyInAnyOrder(4L, 5L);
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders", "totals", "events");
    }

    @Test
    void readsOrcAndAvroDataFilesOnS3()
    {
        assertThat(objects("orc_orders")).anyMatch(name -> name.endsWith(".orc")).noneMatch(name -> name.endsWith(".parquet"));
        assertThat(rows("orc_orders")).containsExactly(
                "(2026-11-01, 1, apple, 1.50)",
                "(2026-11-01, 2, pear, 3.00)",
                "(2026-11-02, 3, plum, 0.99)",
                "(2026-11-02, 5, kiwi, 0.42)");
        assertThat(computeActual("SELECT item FROM orc_orders WHERE dt = '2026-11-01' AND id = 2").getOnlyValue()).isEqualTo("pear");

        assertThat(objects("mixed_formats")).anyMatch(name -> name.endsWith(".avro")).anyMatch(name -> name.endsWith(".parquet"));
        assertThat(rows("mixed_formats")).containsExactly("(1, apple, 1.50)", "(2, pear, 3.00)", "(4, kiwi, 0.42)");
        for (String table : List.of("orc_orders", "mixed_formats")) {
            assertThat(rows(table)).as(table).isEqualTo(RowText.paimonText(paimonTable(table)));
        }
    }

    @Test
    void readsEveryCodecThinModeAnd64BitDeletionVectorsOnS3()
    {
        for (Map.Entry<String, List<String>> format : CODECS.entrySet()) {
            String table = "codecs_" + format.getKey();
            List<String> codecs = format.getValue();
            // key k was last written by commit min(k / 50, last): commit c wrote [50c, 50c + 100)
            List<String> expected = new ArrayList<>();
            for (int id = 0; id < (codecs.size() - 1) * 50 + 100; id++) {
                expected.add("(%s, %s)".formatted(id, codecs.get(Math.min(id / 50, codecs.size() - 1))));
            }
            expected.sort(null);
            assertThat(objects(table)).as(table).anyMatch(name -> name.startsWith("index/"));
            assertThat(rows(table)).as(table).isEqualTo(expected);
            assertThat(RowText.paimonText(paimonTable(table))).as(table).isEqualTo(expected);
        }
    }

    @Test
    void insertIsReadBackByPaimonJava()
            throws Exception
    {
        assertUpdate("CREATE TABLE inserted (id bigint, name varchar, score double) WITH (primary_key = ARRAY['id'], bucket = 2)");
        assertUpdate("INSERT INTO inserted VALUES (1, 'a', 1.5), (2, 'b', 2.5), (3, 'c', 3.5)", 3);
        assertUpdate("INSERT INTO inserted VALUES (2, 'B', 20.5), (4, 'd', 4.5)", 2);
        List<String> expected = List.of("(1, a, 1.5)", "(2, B, 20.5)", "(3, c, 3.5)", "(4, d, 4.5)");
        assertThat(rows("inserted")).isEqualTo(expected);
        assertThat(RowText.paimonText(paimonTable("inserted"))).isEqualTo(expected);

        // the snapshots are objects in the bucket, as on any S3 store
        assertThat(objects("inserted")).contains("snapshot/snapshot-1", "snapshot/snapshot-2", "snapshot/LATEST", "schema/schema-0");

        // Paimon Java writes on top of ours, and both read the same rows
        try (TempWarehouse copy = TempWarehouse.create()) {
            Path table = download("inserted", copy);
            PaimonJavaCatalog.write(copy.paimon().getTable(DATABASE, "inserted"), List.of(GenericRow.of(5L, BinaryString.fromString("e"), 5.5)));
            server.upload(table, tableLocation("inserted"));
        }
        assertThat(rows("inserted")).contains("(5, e, 5.5)").hasSize(5);
        assertThat(check("inserted")).isEmpty();
        assertUpdate("DROP TABLE inserted");
    }

    @Test
    void insertIntoPaimonJavasTableAndCreateTableAsSelect()
    {
        assertUpdate("INSERT INTO orders VALUES ('2026-11-03', 6, 'lime', 12.34), ('2026-11-01', 1, 'apple', 1.75)", 2);
        assertThat(rows("orders")).isEqualTo(RowText.paimonText(paimonTable("orders")));
        assertThat(rows("orders")).contains("(2026-11-03, 6, lime, 12.34)", "(2026-11-01, 1, apple, 1.75)");

        assertUpdate("CREATE TABLE order_copy WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 2) AS SELECT * FROM orders", 5);
        assertThat(rows("order_copy")).isEqualTo(rows("orders"));
        assertThat(RowText.paimonText(paimonTable("order_copy"))).isEqualTo(rows("orders"));
        assertThat(check("order_copy")).isEmpty();

        assertUpdate("DROP TABLE order_copy");
        assertThat(objects("order_copy")).isEmpty();
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).doesNotContain("order_copy");
    }

    @Test
    void createAndDropSchema()
    {
        // S3 has no folders: the new database is listed, and takes tables, before it holds any
        assertUpdate("CREATE SCHEMA paimon.fresh");
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains("fresh");
        assertUpdate("CREATE TABLE paimon.fresh.t (k int, v varchar)");
        assertUpdate("INSERT INTO paimon.fresh.t VALUES (1, 'one')", 1);
        assertThat(computeActual("SELECT v FROM paimon.fresh.t").getOnlyValue()).isEqualTo("one");
        assertThat(computeActual("SHOW TABLES FROM paimon.fresh").getOnlyColumnAsSet()).containsExactly("t");
        assertUpdate("DROP TABLE paimon.fresh.t");
        assertUpdate("DROP SCHEMA paimon.fresh");
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).doesNotContain("fresh");
        assertThat(server.bucketFolder().resolve(WAREHOUSE).resolve("fresh.db")).satisfiesAnyOf(
                folder -> assertThat(folder).doesNotExist(),
                folder -> assertThat(folder).isEmptyDirectory());
    }

    /**
     * Two INSERTs into the one bucket of a table, held at the publish of the same snapshot id and then let go
     * together: both PUT {@code snapshot-N} with {@code If-None-Match: *}, the store takes one and refuses the other
     * (412), and the refused one, finding that the winner wrote its bucket, fails with {@code TRANSACTION_CONFLICT}
     * and removes its files. Exactly one statement's rows are in the table.
     */
    @Test
    void racingCommitsToOneBucketOneLandsTheOtherConflicts()
            throws Exception
    {
        List<Outcome> outcomes = race("race_same_bucket", "INSERT INTO race_same_bucket VALUES (1, 'first')", "INSERT INTO race_same_bucket VALUES (1, 'second')");

        assertThat(outcomes.stream().filter(Outcome::landed).count()).as("statements that landed").isEqualTo(1);
        Outcome lost = outcomes.stream().filter(outcome -> !outcome.landed()).findFirst().orElseThrow();
        assertThatTrinoException(lost.failure().orElseThrow()).hasErrorCode(TRANSACTION_CONFLICT);
        Outcome won = outcomes.stream().filter(Outcome::landed).findFirst().orElseThrow();

        assertThat(snapshots("race_same_bucket").latestSnapshotId()).hasValue(1);
        assertThat(rows("race_same_bucket")).containsExactly("(1, %s)".formatted(won.value()));
        assertThat(RowText.paimonText(paimonTable("race_same_bucket"))).containsExactly("(1, %s)".formatted(won.value()));
        // the loser's data file is gone: one data file, the winner's
        assertThat(objects("race_same_bucket").stream().filter(name -> name.contains("/data-"))).hasSize(1);
        assertThat(check("race_same_bucket")).isEmpty();
    }

    /**
     * The same race between INSERTs into different buckets: the refused commit is retried on top of the winner's
     * snapshot, so both land, as snapshots 1 and 2, and no row is lost.
     */
    @Test
    void racingCommitsToOtherBucketsBothLand()
            throws Exception
    {
        // keys 0 and 2 are in different buckets of 4 (Paimon Java's bucket function, checked below)
        List<Outcome> outcomes = race("race_other_buckets", "INSERT INTO race_other_buckets VALUES (0, 'first')", "INSERT INTO race_other_buckets VALUES (2, 'second')");

        assertThat(outcomes).allMatch(Outcome::landed);
        assertThat(snapshots("race_other_buckets").latestSnapshotId()).hasValue(2);
        assertThat(rows("race_other_buckets")).containsExactly("(0, first)", "(2, second)");
        assertThat(RowText.paimonText(paimonTable("race_other_buckets"))).containsExactly("(0, first)", "(2, second)");
        assertThat(objects("race_other_buckets").stream().filter(name -> name.contains("/data-")).map(name -> name.substring(0, name.indexOf('/'))).distinct())
                .as("the two rows are in two buckets")
                .hasSize(2);
        assertThat(check("race_other_buckets")).isEmpty();
    }

    private record Outcome(String value, boolean landed, Optional<RuntimeException> failure) {}

    // runs the two statements through two catalogs of the warehouse, holds both at the conditional PUT of snapshot-1, then lets both go
    private List<Outcome> race(String table, String first, String second)
            throws Exception
    {
        Hang firstPublish = faultFs.hang(Operation.CREATE_EXCLUSIVE, "**/%s/snapshot/snapshot-1".formatted(table), 1);
        Hang secondPublish = faultFs.hang(Operation.CREATE_EXCLUSIVE, "**/%s/snapshot/snapshot-1".formatted(table), 2);
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            List<Future<Optional<RuntimeException>>> statements = Stream.of(Map.entry("faults", first), Map.entry("faults_rival", second))
                    .map(statement -> executor.submit(() -> {
                        try {
                            getQueryRunner().execute(testSessionBuilder().setCatalog(statement.getKey()).setSchema(DATABASE).build(), statement.getValue());
                            return Optional.<RuntimeException>empty();
                        }
                        catch (RuntimeException e) {
                            return Optional.of(e);
                        }
                    }))
                    .toList();
            // both statements reach the publish unless one fails before it, which fails the test with its error
            for (Hang publish : List.of(firstPublish, secondPublish)) {
                while (!publish.awaitReached(50, MILLISECONDS)) {
                    for (Future<Optional<RuntimeException>> statement : statements) {
                        if (statement.isDone()) {
                            throw new AssertionError("a statement ended before reaching the publish", statement.get().orElse(null));
                        }
                    }
                }
            }
            firstPublish.release();
            secondPublish.release();
            return List.of(
                    new Outcome("first", statements.get(0).get().isEmpty(), statements.get(0).get()),
                    new Outcome("second", statements.get(1).get().isEmpty(), statements.get(1).get()));
        }
        finally {
            firstPublish.release();
            secondPublish.release();
            executor.shutdownNow();
        }
    }

    /**
     * trinodb/trino #27402 on S3: the SDK retries a conditional PUT whose answer was lost, and the retry is refused
     * because the first attempt created the object. The commit reads {@code snapshot-1} back, finds its own manifest
     * lists in it, and succeeds; the rows are there once.
     */
    @Test
    void publishReportedAsExistingButLandedIsCommittedOnce()
    {
        faultFs.addRule(Rule.nth(Operation.CREATE_EXCLUSIVE, "**/ambiguous/snapshot/snapshot-1", 1, Action.ALREADY_EXISTS_AFTER_WRITE));
        getQueryRunner().execute(faultsSession(), "INSERT INTO ambiguous VALUES (1, 'once'), (2, 'twice')");
        assertThat(faultFs.injectedFaults()).isEqualTo(1);
        faultFs.clearRules();

        faultFs.addRule(Rule.nth(Operation.CREATE_EXCLUSIVE, "**/ambiguous/snapshot/snapshot-2", 1, Action.THROW_AFTER_WRITE));
        getQueryRunner().execute(faultsSession(), "INSERT INTO ambiguous VALUES (2, 'updated')");

        SnapshotFiles snapshots = snapshots("ambiguous");
        assertThat(snapshots.latestSnapshotId()).hasValue(2);
        Snapshot second = snapshots.readSnapshot(2);
        assertThat(second.properties().orElseThrow()).containsKey("trino.commit-id");
        assertThat(rows("ambiguous")).containsExactly("(1, once)", "(2, updated)");
        assertThat(RowText.paimonText(paimonTable("ambiguous"))).containsExactly("(1, once)", "(2, updated)");
        assertThat(check("ambiguous")).isEmpty();
    }

    /**
     * With {@code s3.exclusive-create=false} Trino's S3 file system has no conditional create and S3 has no rename,
     * so no commit could be exclusive: INSERT, CREATE TABLE and CTAS are refused with an error naming the property,
     * before any file is written. Reads still work.
     */
    @Test
    void writesAreRefusedWithoutExclusiveCreate()
    {
        assumeTrue(S3_EXCLUSIVE_CREATE_OPTIONAL, "S3 exclusive create cannot be switched off on this Trino release");
        Session session = testSessionBuilder().setCatalog("no_exclusive").setSchema(DATABASE).build();
        Set<String> before = objects("refused");
        assertThat(computeActual(session, "SELECT count(*) FROM refused").getOnlyValue()).isEqualTo(0L);

        assertThatThrownBy(() -> getQueryRunner().execute(session, "INSERT INTO refused VALUES (1, 'a')"))
                .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_UNSUPPORTED_CONFIGURATION))
                .hasMessageContaining("s3.exclusive-create=true")
                .hasMessageContaining("/%s.db/refused/schema/schema-0".formatted(DATABASE));
        assertThat(objects("refused")).isEqualTo(before);

        assertThatThrownBy(() -> getQueryRunner().execute(session, "CREATE TABLE never (k int, v varchar)"))
                .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_UNSUPPORTED_CONFIGURATION))
                .hasMessageContaining("s3.exclusive-create=true");
        assertThatThrownBy(() -> getQueryRunner().execute(session, "CREATE TABLE never AS SELECT 1 AS k"))
                .satisfies(e -> assertThatTrinoException(e).hasErrorCode(PAIMON_UNSUPPORTED_CONFIGURATION))
                .hasMessageContaining("s3.exclusive-create=true");
        assertThat(objects("never")).isEmpty();
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).doesNotContain("never");
    }

    private Session faultsSession()
    {
        return testSessionBuilder().setCatalog("faults").setSchema(DATABASE).build();
    }

    private List<String> rows(String table)
    {
        return RowText.paimonText(computeActual("SELECT * FROM " + table));
    }

    /** The table as Paimon Java reads it from a copy of its objects as they are now on the server. */
    private Table paimonTable(String table)
    {
        TempWarehouse copy = TempWarehouse.create();
        copies.add(copy);
        download(table, copy);
        return copy.paimon().getTable(DATABASE, table);
    }

    private Path download(String table, TempWarehouse copy)
    {
        Path folder = copy.warehouse().resolve(DATABASE + ".db").resolve(table);
        try {
            server.download(tableLocation(table), folder);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return folder;
    }

    private List<String> check(String table)
    {
        List<String> violations = new ArrayList<>(Fsck.check(fileSystem(), tableLocation(table), paimonTable(table)));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable(table)));
        return violations;
    }

    private SnapshotFiles snapshots(String table)
    {
        return new SnapshotFiles(fileSystem(), tableLocation(table));
    }

    private TrinoFileSystem fileSystem()
    {
        return server.fileSystemFactory().create(ConnectorIdentity.ofUser("test"));
    }

    private Location databaseLocation()
    {
        return Location.of(server.warehouse(WAREHOUSE)).appendPath(DATABASE + ".db");
    }

    private Location tableLocation(String table)
    {
        return databaseLocation().appendPath(table);
    }

    /** The table's objects in the bucket, by key relative to the table's folder. */
    private Set<String> objects(String table)
    {
        Path folder = server.bucketFolder().resolve(WAREHOUSE).resolve(DATABASE + ".db").resolve(table);
        if (!Files.exists(folder)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> folder.relativize(file).toString())
                    .collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // the connector under another name, so that a second catalog of it can use the fault-injecting file system
    private record FaultsConnectorFactory(ConnectorFactory delegate)
            implements ConnectorFactory
    {
        @Override
        public String getName()
        {
            return "paimon_faults";
        }

        @Override
        public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
        {
            return delegate.create(catalogName, config, context);
        }
    }
}
