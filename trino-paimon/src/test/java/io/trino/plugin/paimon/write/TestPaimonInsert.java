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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INSERT through Trino, read back by Paimon Java 1.4.2 (the oracle) and by Trino: every merge engine a write
 * supports, partitions and several buckets, append tables, duplicate keys in one statement, every type, tables that
 * Paimon Java writes into and compacts afterwards, and the tables a write refuses.
 */
final class TestPaimonInsert
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "inserts";

    private Table nullableKeys;

    TestPaimonInsert()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        // the table as Paimon Java loads it from its rewritten schema (the catalog's cached one has NOT NULL keys)
        nullableKeys = paimon.createTableWithNullableKeys(DATABASE, "nullable_keys", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "2")
                .build());
        paimon.createTable(DATABASE, "dedup", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("score", DataTypes.DOUBLE())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "3")
                .build());
        paimon.createTable(DATABASE, "sequence_field", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("ts", DataTypes.BIGINT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("sequence.field", "ts")
                .build());
        paimon.createTable(DATABASE, "partial", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "2")
                .option("merge-engine", "partial-update")
                .build());
        paimon.createTable(DATABASE, "totals", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .column("latest", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .build());
        paimon.createTable(DATABASE, "append_unaware", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("msg", DataTypes.STRING())
                .partitionKeys("dt")
                .build());
        // append_fixed_java is written by Paimon Java, to compare the buckets of its rows with ours
        for (String table : List.of("append_fixed", "append_fixed_java")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("msg", DataTypes.STRING())
                    .option("bucket", "2")
                    .option("bucket-key", "id")
                    .build());
        }
        paimon.createTable(DATABASE, "shared", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("write-only", "true")
                .build());
        for (String table : List.of("wide", "wide_copy")) {
            paimon.createTable(DATABASE, table, wideSchema());
        }
        for (String table : List.of("small_buffer", "small_buffer_runs")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("write-buffer-size", "4 kb")
                    .option("write-buffer-spillable", String.valueOf(table.equals("small_buffer")))
                    .build());
        }
        paimon.createTable(DATABASE, "small_buffer_sum", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "2")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("write-buffer-size", "4 kb")
                .build());

        for (String table : List.of("stats_trino", "stats_paimon")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("code", DataTypes.STRING())
                    .column("name", DataTypes.STRING())
                    .column("amount", DataTypes.DECIMAL(10, 2))
                    .column("price", DataTypes.DOUBLE())
                    .column("flag", DataTypes.BOOLEAN())
                    .column("day", DataTypes.DATE())
                    .column("at", DataTypes.TIME())
                    .column("ts", DataTypes.TIMESTAMP(3))
                    .column("ts6", DataTypes.TIMESTAMP(6))
                    .column("bin", DataTypes.BYTES())
                    .column("arr", DataTypes.ARRAY(DataTypes.INT()))
                    .column("note", DataTypes.STRING())
                    .primaryKey("id", "code")
                    .option("bucket", "1")
                    .option("fields.note.stats-mode", "none")
                    .option("fields.price.stats-mode", "counts")
                    .build());
        }

        Schema.Builder refused = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id");
        paimon.createTable(DATABASE, "cross_partition", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .partitionKeys("dt")
                .build());
        paimon.createTable(DATABASE, "postpone_bucket", refused.option("bucket", "-2").build());
        paimon.createTable(DATABASE, "deletion_vectors", refused.option("bucket", "1").option("deletion-vectors.enabled", "true").option("write-only", "true").build());
        paimon.createTable(DATABASE, "first_row", Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).primaryKey("id")
                .option("bucket", "1").option("merge-engine", "first-row").build());
        paimon.createTable(DATABASE, "changelog_format", Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).primaryKey("id")
                .option("bucket", "1").option("changelog-producer", "input").option("changelog-file.stats-mode", "full").build());
        paimon.createTable(DATABASE, "orc_files", Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).primaryKey("id")
                .option("bucket", "1").option("file.format", "orc").option("file.compression", "gzip").build());
    }

    private static Schema wideSchema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_bigint", DataTypes.BIGINT())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal_9", DataTypes.DECIMAL(9, 2))
                .column("c_decimal_18", DataTypes.DECIMAL(18, 3))
                .column("c_decimal_38", DataTypes.DECIMAL(38, 10))
                .column("c_char", DataTypes.CHAR(5))
                .column("c_varchar", DataTypes.VARCHAR(20))
                .column("c_string", DataTypes.STRING())
                .column("c_binary", DataTypes.BINARY(4))
                .column("c_varbinary", DataTypes.VARBINARY(10))
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME(3))
                .column("c_timestamp_3", DataTypes.TIMESTAMP(3))
                .column("c_timestamp_6", DataTypes.TIMESTAMP(6))
                .column("c_timestamp_9", DataTypes.TIMESTAMP(9))
                .column("c_ltz_3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("c_ltz_6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .column("c_ltz_9", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9))
                .column("c_array", DataTypes.ARRAY(DataTypes.INT()))
                .column("c_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column("c_row", DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()), DataTypes.FIELD(101, "y", DataTypes.STRING())))
                .column("c_multiset", DataTypes.MULTISET(DataTypes.STRING()))
                .primaryKey("id")
                .option("bucket", "1")
                .build();
    }

    @Test
    void deduplicateReadByPaimonJava()
    {
        assertUpdate("INSERT INTO dedup VALUES ('a', 1, 'one', 1.0), ('a', 2, 'two', 2.0), ('b', 1, 'b-one', 3.0), ('a', 1, 'one again', 4.0)", 4);
        assertThat(paimonRows("dedup")).containsExactly(
                "+I(a, 1, one again, 4.0)",
                "+I(a, 2, two, 2.0)",
                "+I(b, 1, b-one, 3.0)");
        assertUpdate("INSERT INTO dedup VALUES ('a', 2, 'two updated', 5.0), ('c', 7, 'seven', 7.0), ('c', 8, 'eight', 8.0), ('c', 9, 'nine', 9.0)", 4);
        assertThat(paimonRows("dedup")).containsExactly(
                "+I(a, 1, one again, 4.0)",
                "+I(a, 2, two updated, 5.0)",
                "+I(b, 1, b-one, 3.0)",
                "+I(c, 7, seven, 7.0)",
                "+I(c, 8, eight, 8.0)",
                "+I(c, 9, nine, 9.0)");
        assertQuery("SELECT * FROM dedup", "VALUES ('a', 1, 'one again', 4.0), ('a', 2, 'two updated', 5.0), ('b', 1, 'b-one', 3.0), ('c', 7, 'seven', 7.0), ('c', 8, 'eight', 8.0), ('c', 9, 'nine', 9.0)");
        // each written file holds each key once, and the sequence numbers of a bucket's files do not overlap
        List<org.apache.paimon.manifest.ManifestEntry> files = ((FileStoreTable) paimon().getTable(DATABASE, "dedup")).store().newScan().plan().files();
        assertThat(files).hasSizeGreaterThan(3);
        Map<String, List<org.apache.paimon.manifest.ManifestEntry>> byBucket = files.stream()
                .collect(Collectors.groupingBy(entry -> entry.partition().getString(0) + "/" + entry.bucket()));
        byBucket.forEach((bucket, entries) -> {
            List<org.apache.paimon.manifest.ManifestEntry> sorted = entries.stream().sorted((left, right) -> Long.compare(left.file().minSequenceNumber(), right.file().minSequenceNumber())).toList();
            for (int i = 1; i < sorted.size(); i++) {
                assertThat(sorted.get(i).file().minSequenceNumber()).as(bucket).isGreaterThan(sorted.get(i - 1).file().maxSequenceNumber());
            }
            entries.forEach(entry -> {
                assertThat(entry.file().level()).isZero();
                assertThat(entry.file().fileName()).matches("data-[0-9a-f-]{36}-\\d+\\.parquet");
            });
        });
    }

    @Test
    void sequenceFieldOrdersDuplicatesAndLaterInserts()
    {
        assertUpdate("INSERT INTO sequence_field VALUES (1, 5, 'newest'), (1, 3, 'older'), (2, 1, 'two'), (3, NULL, 'null sequence')", 4);
        assertThat(paimonRows("sequence_field")).containsExactly("+I(1, 5, newest)", "+I(2, 1, two)", "+I(3, null, null sequence)");
        // a later statement with a smaller sequence field loses; a larger one wins
        assertUpdate("INSERT INTO sequence_field VALUES (1, 4, 'late but old'), (2, 2, 'two updated'), (3, 0, 'beats null')", 3);
        assertThat(paimonRows("sequence_field")).containsExactly("+I(1, 5, newest)", "+I(2, 2, two updated)", "+I(3, 0, beats null)");
        assertQuery("SELECT * FROM sequence_field", "VALUES (1, 5, 'newest'), (2, 2, 'two updated'), (3, 0, 'beats null')");
    }

    @Test
    void partialUpdateFillsColumnsAcrossStatements()
    {
        assertUpdate("INSERT INTO partial VALUES (1, 'a', NULL), (2, NULL, 20), (1, NULL, 10)", 3);
        assertThat(paimonRows("partial")).containsExactly("+I(1, a, 10)", "+I(2, null, 20)");
        assertUpdate("INSERT INTO partial VALUES (2, 'b', NULL), (1, 'a2', NULL)", 2);
        assertThat(paimonRows("partial")).containsExactly("+I(1, a2, 10)", "+I(2, b, 20)");
        // columns left out of the INSERT are null, which partial-update does not apply
        assertUpdate("INSERT INTO partial (id, b) VALUES (1, 11)", 1);
        assertThat(paimonRows("partial")).containsExactly("+I(1, a2, 11)", "+I(2, b, 20)");
        assertQuery("SELECT * FROM partial", "VALUES (1, 'a2', 11), (2, 'b', 20)");
    }

    @Test
    void aggregationSumsAcrossAndWithinStatements()
    {
        assertUpdate("INSERT INTO totals VALUES (1, 10, 'x'), (2, 5, 'y'), (1, 7, 'z')", 3);
        assertThat(paimonRows("totals")).containsExactly("+I(1, 17, z)", "+I(2, 5, y)");
        assertUpdate("INSERT INTO totals VALUES (1, 100, NULL), (3, 1, 'new')", 2);
        // last_non_null_value keeps 'z' for key 1
        assertThat(paimonRows("totals")).containsExactly("+I(1, 117, z)", "+I(2, 5, y)", "+I(3, 1, new)");
        assertQuery("SELECT * FROM totals", "VALUES (1, 117, 'z'), (2, 5, 'y'), (3, 1, 'new')");
        // Paimon Java adds to the same keys, and compacts: the sums still hold
        Table table = paimon().getTable(DATABASE, "totals");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, 1000L, null), GenericRow.of(2, 1000L, BinaryString.fromString("java"))));
        PaimonJavaCatalog.compact(paimon().getTable(DATABASE, "totals"), root(), 2, _ -> true);
        assertThat(paimonRows("totals")).containsExactly("+I(1, 1117, z)", "+I(2, 1005, java)", "+I(3, 1, new)");
        assertQuery("SELECT * FROM totals", "VALUES (1, 1117, 'z'), (2, 1005, 'java'), (3, 1, 'new')");
    }

    @Test
    void nullableKeysFoldAndOrderNullFirst()
    {
        assertUpdate("INSERT INTO nullable_keys VALUES (NULL, 'a'), (1, 'b'), (NULL, 'c'), (2, NULL)", 4);
        assertThat(PaimonJavaCatalog.readRows(nullableKeys)).containsExactly("+I(1, b)", "+I(2, null)", "+I(null, c)");
        assertUpdate("INSERT INTO nullable_keys VALUES (NULL, 'd')", 1);
        assertThat(PaimonJavaCatalog.readRows(nullableKeys)).containsExactly("+I(1, b)", "+I(2, null)", "+I(null, d)");
        assertQuery("SELECT * FROM nullable_keys", "VALUES (NULL, 'd'), (1, 'b'), (2, NULL)");
    }

    @Test
    void appendTables()
    {
        assertUpdate("INSERT INTO append_unaware VALUES ('d1', 'a'), ('d2', 'b'), ('d1', 'a')", 3);
        assertUpdate("INSERT INTO append_unaware VALUES ('d1', 'c')", 1);
        assertThat(paimonRows("append_unaware")).containsExactly("+I(d1, a)", "+I(d1, a)", "+I(d1, c)", "+I(d2, b)");
        assertQuery("SELECT * FROM append_unaware", "VALUES ('d1', 'a'), ('d1', 'a'), ('d1', 'c'), ('d2', 'b')");

        assertUpdate("INSERT INTO append_fixed SELECT CAST(x AS integer), 'm' || CAST(x AS varchar) FROM UNNEST(sequence(1, 20)) t(x)", 20);
        assertThat(paimonRows("append_fixed")).hasSize(20);
        assertQuery("SELECT count(*), sum(id) FROM append_fixed", "VALUES (20, 210)");
        // the rows are in the buckets Paimon Java puts them in: it writes the same rows into a table of its own
        Table theirs = paimon().getTable(DATABASE, "append_fixed_java");
        PaimonJavaCatalog.write(theirs, IntStream.rangeClosed(1, 20).mapToObj(id -> GenericRow.of(id, BinaryString.fromString("m" + id))).toList());
        Map<Integer, List<String>> ours = PaimonJavaCatalog.readRowsByBucket(paimon().getTable(DATABASE, "append_fixed"));
        assertThat(ours.keySet()).containsExactly(0, 1);
        assertThat(ours).isEqualTo(PaimonJavaCatalog.readRowsByBucket(theirs));
    }

    @Test
    void paimonJavaWritesAndCompactsAfterTrino()
    {
        assertUpdate("INSERT INTO shared VALUES (1, 'trino-1'), (2, 'trino-2'), (3, 'trino-3'), (4, 'trino-4')", 4);
        Table table = paimon().getTable(DATABASE, "shared");
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(2, BinaryString.fromString("java-2")), GenericRow.of(5, BinaryString.fromString("java-5"))));
        assertUpdate("INSERT INTO shared VALUES (3, 'trino-3b'), (5, 'trino-5b')", 2);
        List<String> expected = List.of("+I(1, trino-1)", "+I(2, java-2)", "+I(3, trino-3b)", "+I(4, trino-4)", "+I(5, trino-5b)");
        assertThat(paimonRows("shared")).isEqualTo(expected);
        assertQuery("SELECT * FROM shared", "VALUES (1, 'trino-1'), (2, 'java-2'), (3, 'trino-3b'), (4, 'trino-4'), (5, 'trino-5b')");
        PaimonJavaCatalog.compact(paimon().getTable(DATABASE, "shared"), root(), 2, _ -> true);
        assertThat(paimonRows("shared")).isEqualTo(expected);
        assertQuery("SELECT * FROM shared", "VALUES (1, 'trino-1'), (2, 'java-2'), (3, 'trino-3b'), (4, 'trino-4'), (5, 'trino-5b')");
        assertUpdate("INSERT INTO shared VALUES (1, 'after compaction')", 1);
        assertThat(paimonRows("shared")).contains("+I(1, after compaction)");
    }

    @Test
    void everyTypeSurvivesPaimonJavasReaderAndWriter()
    {
        String values = """
                VALUES
                  (1, true, TINYINT '-7', SMALLINT '300', BIGINT '-9000000000', REAL '1.5', DOUBLE '-2.25',
                   DECIMAL '1234567.89', DECIMAL '123456789012345.678', DECIMAL '1234567890123456789012345678.0123456789',
                   CAST('ab' AS char(5)), CAST('varchar' AS varchar(20)), 'a string that is longer than sixteen characters',
                   X'01020304', X'0A0B', X'FF00',
                   DATE '2026-11-30', TIME '12:34:56.789',
                   TIMESTAMP '2026-11-30 01:02:03.456', TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP '2026-11-30 01:02:03.123456789',
                   TIMESTAMP '2026-11-30 01:02:03.456 UTC', TIMESTAMP '2026-11-30 01:02:03.456789 Europe/Berlin', TIMESTAMP '2026-11-30 01:02:03.456789123 UTC',
                   ARRAY[1, NULL, 3], MAP(ARRAY['k1', 'k2'], ARRAY[1, NULL]), CAST(ROW(7, 'seven') AS row(x integer, y varchar)), MAP(ARRAY['e'], ARRAY[2])),
                  (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                  (3, false, TINYINT '127', SMALLINT '-32768', BIGINT '9223372036854775807', REAL 'NaN', DOUBLE 'Infinity',
                   DECIMAL '-0.01', DECIMAL '-999999999999999.999', DECIMAL '-0.0000000001',
                   CAST('abcde' AS char(5)), CAST('' AS varchar(20)), 'ü€😀',
                   X'', X'', X'',
                   DATE '1900-01-01', TIME '00:00:00.001',
                   TIMESTAMP '1900-01-01 00:00:00.000', TIMESTAMP '2262-04-11 23:47:16.854775', TIMESTAMP '1969-12-31 23:59:59.999999999',
                   TIMESTAMP '1970-01-01 00:00:00.000 UTC', TIMESTAMP '1969-12-31 23:59:59.999999 UTC', TIMESTAMP '1969-12-31 23:59:59.999999999 UTC',
                   ARRAY[], MAP(), CAST(ROW(NULL, NULL) AS row(x integer, y varchar)), MAP())
                """;
        assertUpdate("INSERT INTO wide " + values, 3);
        MaterializedResult expected = computeActual("SELECT * FROM (" + values + ")");
        MaterializedResult written = computeActual("SELECT * FROM wide");
        assertThat(Set.copyOf(comparable(written))).isEqualTo(Set.copyOf(comparable(expected)));

        // Paimon Java reads every value and writes it again into a table of its own, which reads the same
        PaimonJavaCatalog.writeInternalRows(paimon().getTable(DATABASE, "wide_copy"), PaimonJavaCatalog.readInternalRows(paimon().getTable(DATABASE, "wide")));
        MaterializedResult copied = computeActual("SELECT * FROM wide_copy");
        assertThat(Set.copyOf(comparable(copied))).isEqualTo(Set.copyOf(comparable(written)));
    }

    @Test
    void fileDescriptionEqualsPaimonJavasForTheSameRows()
    {
        assertUpdate("""
                INSERT INTO stats_trino VALUES
                  (3, 'c', 'a name longer than sixteen characters', DECIMAL '12.50', 1.5, true, DATE '2026-01-02', TIME '10:11:12.345', TIMESTAMP '2026-01-02 03:04:05.678', TIMESTAMP '2026-01-02 03:04:05.678901', X'0102', ARRAY[1], 'n1'),
                  (1, 'zz', 'short', DECIMAL '-3.00', NULL, false, DATE '1999-12-31', TIME '00:00:01.000', TIMESTAMP '1999-12-31 23:59:59.999', NULL, NULL, NULL, NULL),
                  (2, 'b', NULL, NULL, -7.25, NULL, NULL, NULL, NULL, TIMESTAMP '1970-01-01 00:00:00.000001', X'FF', ARRAY[], 'n3'),
                  (1, 'zz', 'short again', DECIMAL '99.99', 2.0, true, DATE '2000-01-01', TIME '23:59:59.999', TIMESTAMP '2000-01-01 00:00:00.000', NULL, NULL, NULL, 'n4')
                """, 4);
        Table paimonTable = paimon().getTable(DATABASE, "stats_paimon");
        PaimonJavaCatalog.writeInternalRows(paimonTable, PaimonJavaCatalog.readInternalRows(paimon().getTable(DATABASE, "stats_trino")).stream()
                // Paimon Java writes the rows in the order Trino received them: key (1, 'zz') is written twice
                .flatMap(row -> row.getInt(0) == 1 ? Stream.of(firstVersionOfKeyOne(row), row) : Stream.of(row))
                .sorted((left, right) -> Integer.compare(order(left), order(right)))
                .toList());

        org.apache.paimon.io.DataFileMeta ours = onlyFile("stats_trino");
        org.apache.paimon.io.DataFileMeta theirs = onlyFile("stats_paimon");
        assertThat(ours.rowCount()).isEqualTo(theirs.rowCount()).isEqualTo(3);
        assertThat(ours.minKey()).isEqualTo(theirs.minKey());
        assertThat(ours.maxKey()).isEqualTo(theirs.maxKey());
        assertThat(ours.keyStats()).isEqualTo(theirs.keyStats());
        assertThat(ours.valueStats()).isEqualTo(theirs.valueStats());
        assertThat(ours.valueStatsCols()).isEqualTo(theirs.valueStatsCols()).isNotNull();
        assertThat(ours.minSequenceNumber()).isEqualTo(theirs.minSequenceNumber());
        assertThat(ours.maxSequenceNumber()).isEqualTo(theirs.maxSequenceNumber());
        assertThat(ours.deleteRowCount()).isEqualTo(theirs.deleteRowCount());
        assertThat(ours.level()).isEqualTo(theirs.level());
        assertThat(ours.fileSource()).isEqualTo(theirs.fileSource());
        assertThat(ours.schemaId()).isEqualTo(theirs.schemaId());
        assertThat(ours.extraFiles()).isEqualTo(theirs.extraFiles());
        assertThat(ours.embeddedIndex()).isEqualTo(theirs.embeddedIndex());

        // Paimon Java's scan prunes our file by its key range as it prunes its own
        for (String table : List.of("stats_trino", "stats_paimon")) {
            Table scanned = paimon().getTable(DATABASE, table);
            org.apache.paimon.predicate.PredicateBuilder predicates = new org.apache.paimon.predicate.PredicateBuilder(scanned.rowType());
            assertThat(scanned.newReadBuilder().withFilter(predicates.greaterThan(0, 3)).newScan().plan().splits()).as(table).isEmpty();
            assertThat(scanned.newReadBuilder().withFilter(predicates.equal(0, 2)).newScan().plan().splits()).as(table).hasSize(1);
        }
    }

    // the statement's order of the rows read back: key 1 first (twice), then 3, then 2
    private static int order(org.apache.paimon.data.InternalRow row)
    {
        return switch (row.getInt(0)) {
            case 3 -> 0;
            case 1 -> row.getString(2).toString().equals("short") ? 1 : 3;
            default -> 2;
        };
    }

    // the first version of key (1, 'zz') in the statement, which the statement's second version replaced
    private static org.apache.paimon.data.InternalRow firstVersionOfKeyOne(org.apache.paimon.data.InternalRow row)
    {
        GenericRow first = new GenericRow(row.getFieldCount());
        first.setField(0, row.getInt(0));
        first.setField(1, row.getString(1));
        first.setField(2, BinaryString.fromString("short"));
        first.setField(3, org.apache.paimon.data.Decimal.fromUnscaledLong(-300, 10, 2));
        first.setField(5, false);
        first.setField(6, (int) java.time.LocalDate.of(1999, 12, 31).toEpochDay());
        first.setField(7, 1000);
        first.setField(8, org.apache.paimon.data.Timestamp.fromEpochMillis(946684799999L));
        return first;
    }

    private org.apache.paimon.io.DataFileMeta onlyFile(String table)
    {
        List<org.apache.paimon.manifest.ManifestEntry> files = ((FileStoreTable) paimon().getTable(DATABASE, table)).store().newScan().plan().files();
        assertThat(files).hasSize(1);
        return files.getFirst().file();
    }

    /**
     * A statement whose rows overflow the write buffer leaves one sorted run per bucket, as Paimon's spillable buffer
     * does: the runs flushed on the way are merged when the statement's writers finish, and deleted.
     */
    @Test
    void smallWriteBufferLeavesOneSortedRunPerBucket()
    {
        assertUpdate("INSERT INTO small_buffer SELECT CAST(x % 500 AS integer), 'v' || CAST(x AS varchar) FROM UNNEST(sequence(1, 2000)) t(x)", 2000);
        List<org.apache.paimon.manifest.ManifestEntry> files = ((FileStoreTable) paimon().getTable(DATABASE, "small_buffer")).store().newScan().plan().files();
        assertThat(files).hasSize(1);
        assertThat(files.getFirst().file().rowCount()).isEqualTo(500);
        assertThat(files.getFirst().file().level()).isZero();
        assertThat(files.getFirst().file().fileSource()).hasValue(org.apache.paimon.manifest.FileSource.APPEND);
        assertThat(dataFileNames("small_buffer")).containsExactly(files.getFirst().file().fileName());
        // the last row of each key wins, wherever the flushes cut the statement
        assertThat(paimonRows("small_buffer")).hasSize(500).contains("+I(0, v2000)", "+I(1, v1501)", "+I(499, v1999)");
        assertQuery("SELECT count(*), min(v), max(v) FROM small_buffer WHERE id = 7", "VALUES (1, 'v1507', 'v1507')");

        // a DELETE whose removals overflow the buffer leaves one more run, of -D records
        assertUpdate("DELETE FROM small_buffer WHERE id < 400", 400);
        files = ((FileStoreTable) paimon().getTable(DATABASE, "small_buffer")).store().newScan().plan().files();
        assertThat(files).hasSize(2);
        assertThat(files.stream().mapToLong(entry -> entry.file().deleteRowCount().orElseThrow()).sum()).isEqualTo(400);
        assertThat(dataFileNames("small_buffer")).containsExactlyInAnyOrderElementsOf(files.stream().map(entry -> entry.file().fileName()).toList());
        assertThat(paimonRows("small_buffer")).hasSize(100).contains("+I(400, v1900)", "+I(499, v1999)");
        assertThat(fsckViolations("small_buffer")).isEmpty();
    }

    /** Records of one key in different flushes of a statement are folded by the merge engine when the runs merge. */
    @Test
    void smallWriteBufferFoldsAggregatesAcrossFlushes()
    {
        assertUpdate("INSERT INTO small_buffer_sum SELECT CAST(x % 300 AS integer), x FROM UNNEST(sequence(1, 3000)) t(x)", 3000);
        List<org.apache.paimon.manifest.ManifestEntry> files = ((FileStoreTable) paimon().getTable(DATABASE, "small_buffer_sum")).store().newScan().plan().files();
        assertThat(files).hasSize(2);
        assertThat(files.stream().mapToLong(entry -> entry.file().rowCount()).sum()).isEqualTo(300);
        // key k sums k + (k + 300) + ... + (k + 2700), key 0 the multiples of 300 up to 3000
        assertThat(paimonRows("small_buffer_sum")).hasSize(300).contains("+I(1, %s)".formatted(10 * 1 + 300 * 45), "+I(0, %s)".formatted(300 * 55));
        assertQuery("SELECT sum(total) FROM small_buffer_sum", "VALUES %s".formatted(3000L * 3001 / 2));
    }

    /** With {@code write-buffer-spillable} = false each flush stays a sorted run, as in Paimon. */
    @Test
    void unspillableWriteBufferFlushesSeveralSortedRuns()
    {
        assertUpdate("INSERT INTO small_buffer_runs SELECT CAST(x % 500 AS integer), 'v' || CAST(x AS varchar) FROM UNNEST(sequence(1, 2000)) t(x)", 2000);
        List<org.apache.paimon.manifest.ManifestEntry> files = ((FileStoreTable) paimon().getTable(DATABASE, "small_buffer_runs")).store().newScan().plan().files();
        assertThat(files).hasSizeGreaterThan(1);
        assertThat(paimonRows("small_buffer_runs")).hasSize(500).contains("+I(0, v2000)", "+I(1, v1501)", "+I(499, v1999)");
    }

    @Test
    void refusedTables()
    {
        assertQueryFails("INSERT INTO cross_partition VALUES ('a', 1, 'x')", ".*Cannot write to Paimon table inserts.cross_partition: the primary key \\[id\\] does not contain every partition key \\[dt\\] \\(cross-partition upsert\\).*");
        assertQueryFails("INSERT INTO postpone_bucket VALUES (1, 'x')", ".*Cannot write to Paimon table inserts.postpone_bucket: the table has postpone buckets \\('bucket' = '-2'\\).*");
        // tables whose level-0 files Paimon does not read, where the compaction after the write is off
        assertQueryFails("INSERT INTO deletion_vectors VALUES (1, 'x')", ".*Cannot write to Paimon table inserts.deletion_vectors: with option 'deletion-vectors.enabled' = 'true' .* option 'write-only' = 'true' turns that compaction off");
        assertQueryFails(
                withoutCompactionOnWrite(),
                "INSERT INTO first_row VALUES (1, 'x')",
                ".*Cannot write to Paimon table inserts.first_row: with option 'merge-engine' = 'first-row' .* session property 'compaction_on_write_enabled' = false turns that compaction off");
        assertQueryFails("INSERT INTO changelog_format VALUES (1, 'x')", ".*Cannot write to Paimon table inserts.changelog_format: option 'changelog-file.stats-mode' is set.*");
        assertQueryFails("INSERT INTO orc_files VALUES (1, 'x')", ".*Cannot write to Paimon table inserts.orc_files: option 'file.compression' = 'gzip' is not a codec of orc files \\(zstd, lz4, snappy, zlib or none\\).*");
        // nothing was written
        for (String table : List.of("cross_partition", "postpone_bucket", "deletion_vectors", "first_row", "changelog_format", "orc_files")) {
            assertThat(paimonRows(table)).as(table).isEmpty();
        }
    }

    // rows whose values compare by content: binaries as hex, and a TIMESTAMP WITH TIME ZONE as its instant, which is
    // what Paimon keeps (it comes back in UTC)
    private static List<List<Object>> comparable(MaterializedResult result)
    {
        return result.getMaterializedRows().stream()
                .map(MaterializedRow::getFields)
                .map(fields -> fields.stream()
                        .map(value -> switch (value) {
                            case java.time.ZonedDateTime zoned -> zoned.toInstant();
                            case byte[] bytes -> HexFormat.of().formatHex(bytes);
                            case null, default -> value;
                        })
                        .collect(Collectors.toList()))
                .toList();
    }

    // the names of the data files in the table's folders, committed or not
    private List<String> dataFileNames(String table)
    {
        return tableFiles(table).stream()
                .map(path -> path.substring(path.lastIndexOf('/') + 1))
                .filter(name -> name.startsWith("data-"))
                .toList();
    }

    private List<String> paimonRows(String table)
    {
        return PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table));
    }
}
