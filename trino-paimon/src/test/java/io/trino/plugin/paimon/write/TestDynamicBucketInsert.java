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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.catalog.HashIndexConflictCheck;
import io.trino.plugin.paimon.catalog.HashIndexConflictCheck.IndexFile;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.spi.TrinoException;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.index.HashIndexFile;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.RowKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * INSERT into dynamic-bucket primary-key tables ({@code bucket} = -1), against Paimon Java 1.4.2 writing the same
 * tables with its own hash bucket assigner (one assigner): keys Paimon Java wrote stay in their buckets, new keys fill
 * buckets up to {@code dynamic-bucket.target-row-num} in Paimon's order, Paimon Java's assigner continues from the key
 * index Trino wrote, no key is ever in two buckets, and every bucket's index file holds exactly its keys' hashes.
 */
final class TestDynamicBucketInsert
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "dynamic";

    TestDynamicBucketInsert()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // no 'bucket' option: Paimon 1.4.2's default for a primary-key table is a dynamic bucket
        paimon.createTable(DATABASE, "default_options", keyValueSchema().build());
        for (String table : List.of("filling", "layout_paimon", "layout_trino")) {
            paimon.createTable(DATABASE, table, keyValueSchema().option("dynamic-bucket.target-row-num", "5").build());
        }
        paimon.createTable(DATABASE, "two_assigners", keyValueSchema()
                .option("dynamic-bucket.target-row-num", "5")
                .option("dynamic-bucket.assigner-parallelism", "2")
                .build());
        for (String table : List.of("partitioned", "raced")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("dt", DataTypes.STRING())
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("dt", "id")
                    .partitionKeys("dt")
                    .option("dynamic-bucket.target-row-num", "5")
                    .build());
        }
    }

    private static Schema.Builder keyValueSchema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id");
    }

    @Test
    void defaultOptionsPutEveryKeyInBucketZero()
    {
        assertThat(((FileStoreTable) table("default_options")).coreOptions().bucket()).isEqualTo(-1);
        assertUpdate("INSERT INTO default_options SELECT CAST(x AS integer), 'v' || CAST(x AS varchar) FROM UNNEST(sequence(1, 100)) t(x)", 100);
        List<String> expected = IntStream.rangeClosed(1, 100).mapToObj(id -> "+I(%s, v%s)".formatted(id, id)).sorted().toList();
        assertThat(PaimonJavaCatalog.readRows(table("default_options"))).isEqualTo(expected);
        // far below the default target of 2,000,000 keys: one bucket
        assertThat(new HashSet<>(bucketOfKey(table("default_options")).values())).containsExactly(0);
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("default_options"));
        assertQuery("SELECT count(*), min(id), max(id) FROM default_options", "VALUES (100, 1, 100)");
    }

    @Test
    void bucketsFillInPaimonsOrderAndKeysStayInTheirBucket()
            throws IOException
    {
        // Paimon Java's assigner: keys 1..5 fill bucket 0, keys 6 and 7 open bucket 1
        PaimonJavaCatalog.writeDynamicBuckets(table("filling"), rows(1, 7, "paimon"));
        Map<String, Integer> paimonBuckets = bucketOfKey(table("filling"));
        assertThat(paimonBuckets).containsEntry("1", 0).containsEntry("5", 0).containsEntry("6", 1).containsEntry("7", 1);

        // keys 3 and 6 exist: they stay in buckets 0 and 1; of the new keys 8..15, three fill bucket 1 and five open bucket 2
        assertUpdate("INSERT INTO filling VALUES (3, 'trino-3'), (6, 'trino-6'), (8, 'trino-8'), (9, 'trino-9'), (10, 'trino-10'), (11, 'trino-11'), (12, 'trino-12'), (13, 'trino-13'), (14, 'trino-14'), (15, 'trino-15')", 10);
        Map<String, Integer> buckets = bucketOfKey(table("filling"));
        assertThat(buckets).containsEntry("3", 0).containsEntry("6", 1).hasSize(15);
        assertThat(bucketSizes(buckets)).isEqualTo(Map.of(0, 5, 1, 5, 2, 5));
        List<String> expected = new ArrayList<>();
        for (int id = 1; id <= 15; id++) {
            String writer = id == 3 || id == 6 || id > 7 ? "trino" : "paimon";
            expected.add("+I(%s, %s-%s)".formatted(id, writer, id));
        }
        expected.sort(null);
        assertThat(PaimonJavaCatalog.readRows(table("filling"))).isEqualTo(expected);
        assertThat(trinoRows("filling")).isEqualTo(expected);
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("filling"));

        // Paimon Java's assigner reads the index Trino wrote: key 12 stays where Trino put it, new keys open bucket 3
        int bucketOf12 = buckets.get("12");
        List<GenericRow> paimonRows = new ArrayList<>(rows(16, 20, "paimon"));
        paimonRows.add(GenericRow.of(12, BinaryString.fromString("paimon-12")));
        PaimonJavaCatalog.writeDynamicBuckets(table("filling"), paimonRows);
        buckets = bucketOfKey(table("filling"));
        assertThat(buckets).containsEntry("12", bucketOf12).containsEntry("16", 3).containsEntry("20", 3).hasSize(20);
        expected.remove("+I(12, trino-12)");
        expected.add("+I(12, paimon-12)");
        IntStream.rangeClosed(16, 20).forEach(id -> expected.add("+I(%s, paimon-%s)".formatted(id, id)));
        expected.sort(null);
        assertThat(PaimonJavaCatalog.readRows(table("filling"))).isEqualTo(expected);
        assertThat(trinoRows("filling")).isEqualTo(expected);
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("filling"));

        // and Trino again, after Paimon Java: existing keys stay; buckets 0..3 hold 5 keys each, so a new key opens bucket 4
        assertUpdate("INSERT INTO filling VALUES (1, 'trino-1'), (16, 'trino-16'), (21, 'trino-21')", 3);
        buckets = bucketOfKey(table("filling"));
        assertThat(buckets).containsEntry("1", 0).containsEntry("16", 3).containsEntry("21", 4).hasSize(21);
        expected.removeAll(List.of("+I(1, paimon-1)", "+I(16, paimon-16)"));
        expected.addAll(List.of("+I(1, trino-1)", "+I(16, trino-16)", "+I(21, trino-21)"));
        expected.sort(null);
        assertThat(PaimonJavaCatalog.readRows(table("filling"))).isEqualTo(expected);

        // Paimon Java compacts every bucket: the same rows, each key still in one bucket
        PaimonJavaCatalog.compact(table("filling"), Files.createDirectories(root().resolve("io")), 5, _ -> true);
        assertThat(bucketOfKey(table("filling"))).isEqualTo(buckets);
        assertThat(PaimonJavaCatalog.readRows(table("filling"))).isEqualTo(expected);
        assertThat(trinoRows("filling")).isEqualTo(expected);
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("filling"));
    }

    @Test
    void twoAssignersEachFillBucketsOfTheirOwn()
    {
        assertUpdate("INSERT INTO two_assigners SELECT CAST(x AS integer), 'trino' FROM UNNEST(sequence(1, 40)) t(x)", 40);
        Map<String, Integer> buckets = bucketOfKey(table("two_assigners"));
        assertThat(buckets).hasSize(40);
        // Paimon's rule: a key goes to assigner (|partition hash % 2| + |key hash % 2|) % 2, which owns the buckets of
        // its parity and fills them 5 keys at a time
        FileStoreTable table = (FileStoreTable) table("two_assigners");
        RowKeyExtractor extractor = table.createRowKeyExtractor();
        Map<Integer, Integer> keysPerAssigner = new HashMap<>();
        for (int id = 1; id <= 40; id++) {
            extractor.setRecord(GenericRow.of(id, BinaryString.fromString("x")));
            int assigner = (Math.abs(extractor.partition().hashCode() % 2) + Math.abs(extractor.trimmedPrimaryKey().hashCode() % 2)) % 2;
            keysPerAssigner.merge(assigner, 1, Integer::sum);
            assertThat(buckets.get(String.valueOf(id)) % 2).as("bucket of key %s", id).isEqualTo(assigner);
        }
        Map<Integer, Integer> expectedSizes = new HashMap<>();
        keysPerAssigner.forEach((assigner, keys) -> {
            for (int bucket = assigner, left = keys; left > 0; bucket += 2, left -= 5) {
                expectedSizes.put(bucket, Math.min(left, 5));
            }
        });
        assertThat(bucketSizes(buckets)).isEqualTo(expectedSizes);
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("two_assigners"));

        // Paimon Java's single assigner takes over: known keys stay, new keys fill the buckets with room first
        PaimonJavaCatalog.writeDynamicBuckets(table("two_assigners"), rows(1, 45, "paimon"));
        Map<String, Integer> after = bucketOfKey(table("two_assigners"));
        assertThat(after).hasSize(45);
        buckets.forEach((key, bucket) -> assertThat(after).containsEntry(key, bucket));
        assertThat(PaimonJavaCatalog.readRows(table("two_assigners"))).hasSize(45).allMatch(row -> row.contains("paimon-"));
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("two_assigners"));
    }

    @Test
    void partitionsAssignBucketsOfTheirOwn()
    {
        assertUpdate("INSERT INTO partitioned SELECT dt, CAST(x AS integer), 'trino' FROM (VALUES 'a', 'b') p(dt) CROSS JOIN UNNEST(sequence(1, 7)) t(x) WHERE dt = 'a' OR x <= 3", 10);
        Map<String, Integer> buckets = bucketOfKey(table("partitioned"));
        assertThat(buckets).hasSize(10);
        Map<String, Integer> partitionA = new TreeMap<>();
        Map<String, Integer> partitionB = new TreeMap<>();
        buckets.forEach((key, bucket) -> (key.startsWith("a") ? partitionA : partitionB).put(key, bucket));
        assertThat(bucketSizes(partitionA)).isEqualTo(Map.of(0, 5, 1, 2));
        assertThat(bucketSizes(partitionB)).isEqualTo(Map.of(0, 3));
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("partitioned"));

        // Paimon Java's assigner continues each partition: a new key of 'a' joins bucket 1, which has room
        PaimonJavaCatalog.writeDynamicBuckets(table("partitioned"), List.of(
                GenericRow.of(BinaryString.fromString("a"), 8, BinaryString.fromString("paimon")),
                GenericRow.of(BinaryString.fromString("b"), 2, BinaryString.fromString("paimon"))));
        buckets = bucketOfKey(table("partitioned"));
        assertThat(buckets).containsEntry("a, 8", 1).containsEntry("b, 2", 0).hasSize(11);
        assertThat(PaimonJavaCatalog.readRows(table("partitioned"))).contains("+I(a, 8, paimon)", "+I(b, 2, paimon)", "+I(b, 1, trino)").hasSize(11);
        assertThat(trinoRows("partitioned")).isEqualTo(PaimonJavaCatalog.readRows(table("partitioned")));
        assertIndexHoldsExactlyTheKeysOfEachBucket(table("partitioned"));
    }

    @Test
    void indexFilesHaveTheLayoutPaimonJavaWrites()
            throws IOException
    {
        PaimonJavaCatalog.writeDynamicBuckets(table("layout_paimon"), rows(1, 12, "v"));
        assertUpdate("INSERT INTO layout_trino SELECT CAST(x AS integer), 'v-' || CAST(x AS varchar) FROM UNNEST(sequence(1, 12)) t(x)", 12);

        IndexFiles paimon = indexFiles("layout_paimon");
        IndexFiles trino = indexFiles("layout_trino");
        // three buckets of 5, 5 and 2 keys: 20, 20 and 8 bytes, one big-endian int per key and nothing else
        assertThat(trino.lengths().values().stream().sorted().toList()).isEqualTo(paimon.lengths().values().stream().sorted().toList()).containsExactly(8L, 20L, 20L);
        assertThat(trino.rowCounts()).isEqualTo(Map.of(0, 5L, 1, 5L, 2, 2L));
        assertThat(trino.rowCounts()).isEqualTo(paimon.rowCounts());
        assertThat(union(trino.hashes())).isEqualTo(union(paimon.hashes())).hasSize(12);
        // the bytes decode, as plain big-endian ints, to the hashes Paimon Java's reader finds in the file
        trino.hashes().forEach((bucket, hashes) -> assertThat(trino.rawInts().get(bucket)).containsExactlyInAnyOrderElementsOf(hashes));
        assertThat(trino.names()).allMatch(name -> name.matches("index-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\\d+"));
    }

    @Test
    void concurrentChangeOfAPartitionsKeyIndexIsAConflict()
    {
        assertUpdate("INSERT INTO raced VALUES ('a', 1, 'trino'), ('a', 2, 'trino'), ('b', 1, 'trino')", 3);
        TrinoFileSystem fileSystem = new LocalFileSystem(root());
        Location location = Location.of("local:///warehouse/%s.db/raced".formatted(DATABASE));
        Snapshot base = new SnapshotFiles(fileSystem, location).latestSnapshot().orElseThrow();
        Map<String, ByteBuffer> partitions = new HashMap<>();
        Set<IndexFile> readIndex = new HashSet<>();
        FileStoreTable table = (FileStoreTable) table("raced");
        for (IndexManifestEntry entry : table.store().newIndexFileHandler().scan(HashIndexFile.HASH_INDEX)) {
            ByteBuffer partition = ByteBuffer.wrap(entry.partition().toBytes());
            partitions.put(entry.partition().getString(0).toString(), partition);
            readIndex.add(new IndexFile(partition, entry.bucket(), entry.indexFile().fileName()));
        }
        assertThat(partitions).containsOnlyKeys("a", "b");

        // unchanged since the statement read it: no conflict
        new HashIndexConflictCheck(fileSystem, location, "dynamic.raced", Set.of(partitions.get("a")), readIndex).accept(Optional.of(base));

        // another writer adds a key to partition a
        PaimonJavaCatalog.writeDynamicBuckets(table, List.of(GenericRow.of(BinaryString.fromString("a"), 3, BinaryString.fromString("paimon"))));
        Optional<Snapshot> latest = new SnapshotFiles(fileSystem, location).latestSnapshot();
        assertThat(latest.orElseThrow().id()).isEqualTo(base.id() + 1);
        assertThatThrownBy(() -> new HashIndexConflictCheck(fileSystem, location, "dynamic.raced", Set.of(partitions.get("a")), readIndex).accept(latest))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(TRANSACTION_CONFLICT.toErrorCode()))
                .hasMessageContaining("Write to Paimon table dynamic.raced conflicts with a concurrent commit: snapshot %s changed the key index of buckets [0]".formatted(latest.get().id()));
        // a statement that assigned only in partition b is not affected
        new HashIndexConflictCheck(fileSystem, location, "dynamic.raced", Set.of(partitions.get("b")), readIndex).accept(latest);
    }

    private record IndexFiles(Map<Integer, List<Integer>> hashes, Map<Integer, Long> lengths, Map<Integer, Long> rowCounts, Map<Integer, List<Integer>> rawInts, List<String> names) {}

    private IndexFiles indexFiles(String tableName)
            throws IOException
    {
        FileStoreTable table = (FileStoreTable) table(tableName);
        IndexFileHandler handler = table.store().newIndexFileHandler();
        Map<Integer, List<Integer>> hashes = new HashMap<>();
        Map<Integer, Long> lengths = new HashMap<>();
        Map<Integer, Long> rowCounts = new HashMap<>();
        Map<Integer, List<Integer>> rawInts = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (IndexManifestEntry entry : handler.scan(HashIndexFile.HASH_INDEX)) {
            int bucket = entry.bucket();
            hashes.put(bucket, handler.hashIndex(entry.partition(), bucket).readList(entry.indexFile()));
            Path file = root().resolve("warehouse/%s.db/%s/index".formatted(DATABASE, tableName)).resolve(entry.indexFile().fileName());
            lengths.put(bucket, Files.size(file));
            assertThat(entry.indexFile().fileSize()).isEqualTo(Files.size(file));
            rowCounts.put(bucket, entry.indexFile().rowCount());
            rawInts.put(bucket, readBigEndianInts(file));
            names.add(entry.indexFile().fileName());
        }
        return new IndexFiles(hashes, lengths, rowCounts, rawInts, names);
    }

    private static List<Integer> readBigEndianInts(Path file)
            throws IOException
    {
        List<Integer> ints = new ArrayList<>();
        try (InputStream input = Files.newInputStream(file); DataInputStream data = new DataInputStream(input)) {
            while (true) {
                ints.add(data.readInt());
            }
        }
        catch (EOFException _) {
            return ints;
        }
    }

    private static Set<Integer> union(Map<Integer, List<Integer>> hashes)
    {
        Set<Integer> union = new HashSet<>();
        hashes.values().forEach(union::addAll);
        return union;
    }

    /**
     * Per partition and bucket, the hashes Paimon Java's index reader finds in the bucket's index file equal the
     * hashes (Paimon Java's) of the keys Paimon Java reads from the bucket, and each bucket with data has a file.
     */
    private static void assertIndexHoldsExactlyTheKeysOfEachBucket(Table table)
    {
        FileStoreTable fileStoreTable = (FileStoreTable) table;
        IndexFileHandler handler = fileStoreTable.store().newIndexFileHandler();
        Map<String, Set<Integer>> indexed = new HashMap<>();
        for (IndexManifestEntry entry : handler.scan(HashIndexFile.HASH_INDEX)) {
            try {
                List<Integer> hashes = handler.hashIndex(entry.partition(), entry.bucket()).readList(entry.indexFile());
                assertThat(hashes).hasSize((int) entry.indexFile().rowCount()).doesNotHaveDuplicates();
                assertThat(indexed.put(partitionText(entry.partition().toBytes()) + "/" + entry.bucket(), new HashSet<>(hashes))).isNull();
            }
            catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
        Map<String, Set<Integer>> stored = new HashMap<>();
        RowKeyExtractor extractor = fileStoreTable.createRowKeyExtractor();
        forEachRowOfEachBucket(table, (split, row) -> {
            extractor.setRecord(row);
            stored.computeIfAbsent(partitionText(split.partition().toBytes()) + "/" + split.bucket(), _ -> new HashSet<>()).add(extractor.trimmedPrimaryKey().hashCode());
        });
        assertThat(indexed).isEqualTo(stored);
    }

    private static String partitionText(byte[] bytes)
    {
        return java.util.HexFormat.of().formatHex(bytes);
    }

    /** The bucket of every key as Paimon Java's scan sees it; fails if a key is in two buckets of its partition. */
    private static Map<String, Integer> bucketOfKey(Table table)
    {
        Map<String, Integer> buckets = new TreeMap<>();
        int valueColumn = table.rowType().getFieldCount() - 1;
        forEachRowOfEachBucket(table, (split, row) -> {
            StringBuilder key = new StringBuilder();
            for (int i = 0; i < valueColumn; i++) {
                key.append(i == 0 ? "" : ", ").append(InternalRow.createFieldGetter(table.rowType().getTypeAt(i), i).getFieldOrNull(row));
            }
            Integer previous = buckets.put(key.toString(), split.bucket());
            assertThat(previous).as("key %s in buckets %s and %s", key, previous, split.bucket()).isNull();
        });
        return buckets;
    }

    private static Map<Integer, Integer> bucketSizes(Map<String, Integer> buckets)
    {
        Map<Integer, Integer> sizes = new HashMap<>();
        buckets.values().forEach(bucket -> sizes.merge(bucket, 1, Integer::sum));
        return sizes;
    }

    private static void forEachRowOfEachBucket(Table table, java.util.function.BiConsumer<DataSplit, InternalRow> consumer)
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        for (Split split : readBuilder.newScan().plan().splits()) {
            DataSplit dataSplit = (DataSplit) split;
            try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(split)) {
                reader.forEachRemaining(row -> consumer.accept(dataSplit, row));
            }
            catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
    }

    private List<String> trinoRows(String table)
    {
        String columns = table.equals("partitioned") ? "dt, id, v" : "id, v";
        return computeActual("SELECT " + columns + " FROM " + table).getMaterializedRows().stream()
                .map(row -> "+I(" + String.join(", ", row.getFields().stream().map(String::valueOf).toList()) + ")")
                .sorted()
                .toList();
    }

    private static List<GenericRow> rows(int from, int to, String prefix)
    {
        return IntStream.rangeClosed(from, to).mapToObj(id -> GenericRow.of(id, BinaryString.fromString(prefix + "-" + id))).toList();
    }

    private Table table(String name)
    {
        return paimon().getTable(DATABASE, name);
    }
}
