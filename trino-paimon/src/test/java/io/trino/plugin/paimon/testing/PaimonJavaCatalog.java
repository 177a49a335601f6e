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

import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.RowKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.RowType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

/**
 * Paimon Java's own filesystem catalog over a local warehouse folder: the oracle that writes the tables our
 * connector reads. Test scope only.
 */
public final class PaimonJavaCatalog
        implements AutoCloseable
{
    private final Path warehouse;
    private final Catalog catalog;

    public PaimonJavaCatalog(Path warehouse)
    {
        this(warehouse, true);
    }

    private PaimonJavaCatalog(Path warehouse, boolean cached)
    {
        this.warehouse = requireNonNull(warehouse, "warehouse is null");
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        if (!cached) {
            options.set("cache-enabled", "false");
        }
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    private PaimonJavaCatalog(String warehouse, Configuration hadoopConfiguration, Map<String, String> catalogOptions)
    {
        this.warehouse = null;
        Options options = new Options();
        options.set("warehouse", warehouse);
        options.set("cache-enabled", "false");
        catalogOptions.forEach(options::set);
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options, hadoopConfiguration));
    }

    private PaimonJavaCatalog(Options options)
    {
        this.warehouse = null;
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /**
     * Paimon Java's REST catalog client ({@code metastore=rest}) on a REST catalog server, with a bearer token,
     * loading every table afresh from the server.
     */
    public static PaimonJavaCatalog onRest(String uri, String warehouse, String token)
    {
        Options options = new Options();
        options.set("metastore", "rest");
        options.set("uri", uri);
        options.set("warehouse", warehouse);
        options.set("token.provider", "bear");
        options.set("token", token);
        options.set("cache-enabled", "false");
        return new PaimonJavaCatalog(options);
    }

    /** The catalog itself, for what this class does not wrap. */
    public Catalog catalog()
    {
        return catalog;
    }

    /**
     * A catalog over a warehouse that Paimon Java reaches through its own Hadoop file IO (e.g.
     * {@code hdfs://127.0.0.1:port/warehouse}), loading every table afresh, as another engine's writer would.
     */
    public static PaimonJavaCatalog onHadoop(String warehouse, Configuration hadoopConfiguration)
    {
        return new PaimonJavaCatalog(warehouse, hadoopConfiguration, Map.of());
    }

    /** As {@link #onHadoop(String, Configuration)}, with more of Paimon's catalog options. */
    public static PaimonJavaCatalog onHadoop(String warehouse, Configuration hadoopConfiguration, Map<String, String> catalogOptions)
    {
        return new PaimonJavaCatalog(warehouse, hadoopConfiguration, catalogOptions);
    }

    /**
     * Paimon Java's catalog of another metastore over a local warehouse folder, e.g. {@code metastore=jdbc} with its
     * {@code uri}: the options are Paimon's catalog options; every table is loaded afresh.
     */
    public static PaimonJavaCatalog withOptions(Path warehouse, Map<String, String> catalogOptions)
    {
        return new PaimonJavaCatalog(warehouse, catalogOptions);
    }

    private PaimonJavaCatalog(Path warehouse, Map<String, String> catalogOptions)
    {
        this.warehouse = requireNonNull(warehouse, "warehouse is null");
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        options.set("cache-enabled", "false");
        catalogOptions.forEach(options::set);
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /**
     * Paimon's HiveCatalog over the metastore at {@code metastoreUri} (thrift://host:port), new databases under
     * {@code warehouse}, loading every table afresh; {@code options} are further catalog options (e.g. lock.enabled).
     */
    public static PaimonJavaCatalog onHiveMetastore(String metastoreUri, String warehouse, Map<String, String> catalogOptions)
    {
        Options options = new Options();
        options.set("metastore", "hive");
        options.set("uri", metastoreUri);
        options.set("warehouse", warehouse);
        options.set("cache-enabled", "false");
        catalogOptions.forEach(options::set);
        return new PaimonJavaCatalog(CatalogFactory.createCatalog(CatalogContext.create(options, new Configuration())));
    }

    private PaimonJavaCatalog(Catalog catalog)
    {
        this.warehouse = null;
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    /** The metastore entry of a table, as Paimon's HiveCatalog reads it (a catalog made by {@link #onHiveMetastore}). */
    public org.apache.hadoop.hive.metastore.api.Table hiveMetastoreEntry(String database, String table)
            throws Exception
    {
        return ((org.apache.paimon.hive.HiveCatalog) catalog).getHmsClient().getTable(database, table);
    }

    /** The metastore client of Paimon's HiveCatalog, for entries that are not Paimon tables. */
    public org.apache.hadoop.hive.metastore.IMetaStoreClient hiveMetastoreClient()
    {
        return ((org.apache.paimon.hive.HiveCatalog) catalog).getHmsClient();
    }

    /** A catalog that loads every table afresh, for tests that change schemas or move tables behind Paimon Java's back. */
    public static PaimonJavaCatalog uncached(Path warehouse)
    {
        return new PaimonJavaCatalog(warehouse, false);
    }

    public Path warehouse()
    {
        checkState(warehouse != null, "the warehouse is not on the local disk");
        return warehouse;
    }

    public void createDatabase(String database)
    {
        try {
            catalog.createDatabase(database, true);
        }
        catch (Catalog.DatabaseAlreadyExistException e) {
            throw new IllegalStateException(e);
        }
    }

    public Table createTable(String database, String table, Schema schema)
    {
        try {
            Identifier identifier = Identifier.create(database, table);
            catalog.createTable(identifier, schema, false);
            return catalog.getTable(identifier);
        }
        catch (Catalog.TableAlreadyExistException | Catalog.DatabaseNotExistException | Catalog.TableNotExistException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A primary-key table whose key columns may be null ({@code primary-key.nullable}, which Paimon 1.x does not
     * offer): created as usual, then its schema file rewritten with nullable key columns and the option. Paimon
     * 1.4.2's writer and reader take such a schema as it is, ordering null key fields first.
     */
    public Table createTableWithNullableKeys(String database, String table, Schema schema)
            throws Exception
    {
        createTable(database, table, schema);
        Path schemaFile = warehouse.resolve(database + ".db").resolve(table).resolve("schema/schema-0");
        String json = Files.readString(schemaFile);
        for (String key : schema.primaryKeys()) {
            json = json.replaceFirst("(\"name\" : \"%s\",\\s*\"type\" : \"[^\"]*) NOT NULL\"".formatted(key), "$1\"");
        }
        json = json.replace("\"options\" : {", "\"options\" : {\n    \"primary-key.nullable\" : \"true\",");
        Files.writeString(schemaFile, json);
        // a fresh catalog, so that the table is loaded from the rewritten schema rather than from a cache
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        options.set("cache-enabled", "false");
        try (Catalog fresh = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            return fresh.getTable(Identifier.create(database, table));
        }
    }

    /**
     * Compacts buckets 0 .. buckets - 1 of an unpartitioned table in one commit, as Paimon Java's writer does:
     * fully where {@code fullCompaction} says so, else by its own pick of runs.
     *
     * @param ioDirectory where the writer may spill (lookup and deletion-vector tables need one)
     */
    public static void compact(Table table, Path ioDirectory, int buckets, IntPredicate fullCompaction)
    {
        Table compacting = table.copy(Map.of("write-only", "false"));
        BatchWriteBuilder builder = compacting.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(ioDirectory.toString()));
                BatchTableCommit commit = builder.newCommit()) {
            for (int bucket = 0; bucket < buckets; bucket++) {
                write.compact(BinaryRow.EMPTY_ROW, bucket, fullCompaction.test(bucket));
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    public void alterTable(String database, String table, SchemaChange... changes)
    {
        try {
            catalog.alterTable(Identifier.create(database, table), List.of(changes), false);
        }
        catch (Catalog.TableNotExistException | Catalog.ColumnAlreadyExistException | Catalog.ColumnNotExistException e) {
            throw new IllegalStateException(e);
        }
    }

    public void dropTable(String database, String table)
    {
        try {
            catalog.dropTable(Identifier.create(database, table), false);
        }
        catch (Catalog.TableNotExistException e) {
            throw new IllegalStateException(e);
        }
    }

    public List<String> listDatabases()
    {
        return catalog.listDatabases();
    }

    public List<String> listTables(String database)
    {
        try {
            return catalog.listTables(database);
        }
        catch (Catalog.DatabaseNotExistException e) {
            throw new IllegalStateException(e);
        }
    }

    public Table getTable(String database, String table)
    {
        try {
            return catalog.getTable(Identifier.create(database, table));
        }
        catch (Catalog.TableNotExistException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the rows in one batch commit, which adds one level-0 sorted run per bucket it touches. */
    public static void write(Table table, List<GenericRow> rows)
    {
        write(table, rows, null);
    }

    /**
     * Writes the rows in one batch commit; with a bucket assigner, each row goes to the bucket it names (the way
     * Flink and Spark feed dynamic-bucket tables).
     */
    public static void write(Table table, List<GenericRow> rows, ToIntFunction<GenericRow> bucketAssigner)
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        // lookup compaction (first-row, deletion vectors, lookup changelog) needs a local spill directory
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                if (bucketAssigner == null) {
                    write.write(row);
                }
                else {
                    write.write(row, bucketAssigner.applyAsInt(row));
                }
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to write " + table.name(), e);
        }
    }

    /**
     * Writes the rows of a dynamic-bucket table in one batch commit, each in the bucket Paimon's hash bucket assigner
     * gives it from the table's key index: one assigner, as a single Flink assigner task.
     */
    public static void writeDynamicBuckets(Table table, List<GenericRow> rows)
    {
        FileStoreTable fileStoreTable = (FileStoreTable) table;
        CoreOptions options = fileStoreTable.coreOptions();
        HashBucketAssigner assigner = new HashBucketAssigner(
                fileStoreTable.snapshotManager(),
                "paimon-java-test",
                fileStoreTable.store().newIndexFileHandler(),
                1,
                1,
                0,
                options.dynamicBucketTargetRowNum(),
                options.dynamicBucketMaxBuckets());
        RowKeyExtractor extractor = fileStoreTable.createRowKeyExtractor();
        write(table, rows, row -> {
            extractor.setRecord(row);
            return assigner.assign(extractor.partition(), extractor.trimmedPrimaryKey().hashCode());
        });
    }

    /** Writes rows of any kind (e.g. rows read back with {@link #readInternalRows}) in one batch commit. */
    public static void writeInternalRows(Table table, List<InternalRow> rows)
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
                BatchTableCommit commit = builder.newCommit()) {
            for (InternalRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to write " + table.name(), e);
        }
    }

    /** Every row Paimon Java reads from the table's latest snapshot, each copied out of the reader's buffers. */
    public static List<InternalRow> readInternalRows(Table table)
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        InternalRowSerializer serializer = new InternalRowSerializer(table.rowType());
        List<InternalRow> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan())) {
            reader.forEachRemaining(row -> rows.add(serializer.copy(row)));
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to read " + table.name(), e);
        }
        return rows;
    }

    /**
     * The changelog a streaming read from the first snapshot sees, one plan per snapshot, rows rendered as
     * {@link #readRows} renders them, in the order read.
     */
    public static List<String> readChangelog(Table table)
    {
        ReadBuilder readBuilder = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
        StreamTableScan scan = readBuilder.newStreamScan();
        TableRead read = readBuilder.newRead();
        List<InternalRow.FieldGetter> getters = fieldGetters(table.rowType());
        long snapshots = ((FileStoreTable) table).snapshotManager().latestSnapshotId();
        List<String> rows = new ArrayList<>();
        // one plan per snapshot, and one more that finds nothing new
        for (long plan = 0; plan <= snapshots + 1; plan++) {
            try (RecordReader<InternalRow> reader = read.createReader(scan.plan().splits())) {
                reader.forEachRemaining(row -> rows.add(text(row, getters)));
            }
            catch (Exception e) {
                throw new RuntimeException("Paimon Java failed to stream the changelog of " + table.name(), e);
            }
        }
        return rows;
    }

    /** Every row Paimon Java reads from the table's latest snapshot, rendered as text, sorted. */
    public static List<String> readRows(Table table)
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        List<InternalRow.FieldGetter> getters = fieldGetters(table.rowType());
        List<String> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan())) {
            reader.forEachRemaining(row -> rows.add(text(row, getters)));
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to read " + table.name(), e);
        }
        rows.sort(null);
        return rows;
    }

    /** The rows of {@link #readRows} by the bucket whose files Paimon Java read them from, each bucket's sorted. */
    public static Map<Integer, List<String>> readRowsByBucket(Table table)
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        List<InternalRow.FieldGetter> getters = fieldGetters(table.rowType());
        Map<Integer, List<String>> buckets = new TreeMap<>();
        for (Split split : readBuilder.newScan().plan().splits()) {
            List<String> rows = buckets.computeIfAbsent(((DataSplit) split).bucket(), _ -> new ArrayList<>());
            try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(split)) {
                reader.forEachRemaining(row -> rows.add(text(row, getters)));
            }
            catch (Exception e) {
                throw new RuntimeException("Paimon Java failed to read " + table.name(), e);
            }
        }
        buckets.values().forEach(rows -> rows.sort(null));
        return buckets;
    }

    private static List<InternalRow.FieldGetter> fieldGetters(RowType rowType)
    {
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            getters.add(InternalRow.createFieldGetter(rowType.getTypeAt(i), i));
        }
        return getters;
    }

    private static String text(InternalRow row, List<InternalRow.FieldGetter> getters)
    {
        StringBuilder text = new StringBuilder(row.getRowKind().shortString()).append('(');
        for (int i = 0; i < getters.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(getters.get(i).getFieldOrNull(row));
        }
        return text.append(')').toString();
    }

    @Override
    public void close()
            throws Exception
    {
        catalog.close();
    }
}
