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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.orc.FileOrcDataSource;
import io.trino.orc.OrcReader;
import io.trino.orc.OrcReaderOptions;
import io.trino.orc.metadata.OrcType.OrcTypeKind;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes in ORC and Avro (issue 16): INSERT of every type into primary-key and append tables, UPDATE, DELETE and
 * MERGE, read back by Paimon Java 1.4.2 (the oracle) and by Trino; Paimon Java writing into the same tables;
 * {@code file.format.per.level} through optimize; every codec of each format; changelog files of
 * {@code changelog-producer = input} in the table's format; and the types and codecs a format refuses.
 */
final class TestOrcAndAvroWrites
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "format_writes";
    private static final Map<String, List<String>> CODECS = ImmutableMap.of(
            "orc", List.of("zstd", "lz4", "snappy", "zlib", "none"),
            "avro", List.of("zstd", "snappy", "deflate", "null"));

    // every type a write supports: name, Paimon type, a value, an edge value (the second row is all nulls)
    private static final List<Column> COLUMNS = ImmutableList.of(
            new Column("c_boolean", DataTypes.BOOLEAN(), "true", "false"),
            new Column("c_tinyint", DataTypes.TINYINT(), "TINYINT '-7'", "TINYINT '127'"),
            new Column("c_smallint", DataTypes.SMALLINT(), "SMALLINT '300'", "SMALLINT '-32768'"),
            new Column("c_bigint", DataTypes.BIGINT(), "BIGINT '-9000000000'", "BIGINT '9223372036854775807'"),
            new Column("c_float", DataTypes.FLOAT(), "REAL '1.5'", "REAL 'NaN'"),
            new Column("c_double", DataTypes.DOUBLE(), "DOUBLE '-2.25'", "DOUBLE 'Infinity'"),
            new Column("c_decimal_9", DataTypes.DECIMAL(9, 2), "DECIMAL '1234567.89'", "DECIMAL '-0.01'"),
            new Column("c_decimal_18", DataTypes.DECIMAL(18, 3), "DECIMAL '123456789012345.678'", "DECIMAL '-999999999999999.999'"),
            new Column("c_decimal_38", DataTypes.DECIMAL(38, 10), "DECIMAL '1234567890123456789012345678.0123456789'", "DECIMAL '-0.0000000001'"),
            new Column("c_char", DataTypes.CHAR(5), "CAST('ab' AS char(5))", "CAST('abcde' AS char(5))"),
            new Column("c_varchar", DataTypes.VARCHAR(20), "CAST('varchar' AS varchar(20))", "CAST('' AS varchar(20))"),
            new Column("c_string", DataTypes.STRING(), "'a string that is longer than sixteen characters'", "'ü€😀'"),
            new Column("c_binary", DataTypes.BINARY(4), "X'01020304'", "X''"),
            new Column("c_varbinary", DataTypes.VARBINARY(10), "X'0A0B'", "X''"),
            new Column("c_bytes", DataTypes.BYTES(), "X'FF00'", "X''"),
            new Column("c_date", DataTypes.DATE(), "DATE '2026-11-30'", "DATE '1900-01-01'"),
            new Column("c_time", DataTypes.TIME(3), "TIME '12:34:56.789'", "TIME '00:00:00.001'"),
            new Column("c_timestamp_3", DataTypes.TIMESTAMP(3), "TIMESTAMP '2026-11-30 01:02:03.456'", "TIMESTAMP '1900-01-01 00:00:00.000'"),
            new Column("c_timestamp_6", DataTypes.TIMESTAMP(6), "TIMESTAMP '1969-12-31 23:59:58.999999'", "TIMESTAMP '2262-04-11 23:47:16.854775'"),
            new Column("c_timestamp_9", DataTypes.TIMESTAMP(9), "TIMESTAMP '2026-11-30 01:02:03.123456789'", "TIMESTAMP '1969-12-31 23:59:58.999999999'"),
            new Column("c_ltz_3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), "TIMESTAMP '2026-11-30 01:02:03.456 UTC'", "TIMESTAMP '1970-01-01 00:00:00.000 UTC'"),
            new Column("c_ltz_6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6), "TIMESTAMP '2026-11-30 01:02:03.456789 Europe/Berlin'", "TIMESTAMP '1969-12-31 23:59:58.999999 UTC'"),
            new Column("c_ltz_9", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9), "TIMESTAMP '2026-11-30 01:02:03.456789123 UTC'", "TIMESTAMP '1969-12-31 23:59:58.999999999 UTC'"),
            new Column("c_array", DataTypes.ARRAY(DataTypes.INT()), "ARRAY[1, NULL, 3]", "ARRAY[]"),
            new Column("c_nested_array", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.STRING())), "ARRAY[ARRAY['a', NULL], NULL, ARRAY[]]", "ARRAY[]"),
            new Column("c_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), "MAP(ARRAY['k1', 'k2'], ARRAY[1, NULL])", "MAP()"),
            new Column("c_int_map", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.DECIMAL(38, 2)), "MAP(ARRAY[5, -1], ARRAY[DECIMAL '1.25', NULL])", "MAP()"),
            new Column("c_row", DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()), DataTypes.FIELD(101, "y", DataTypes.STRING())),
                    "CAST(ROW(7, 'seven') AS row(x integer, y varchar))", "CAST(ROW(NULL, NULL) AS row(x integer, y varchar))"),
            new Column("c_multiset", DataTypes.MULTISET(DataTypes.STRING()), "MAP(ARRAY['e'], ARRAY[2])", "MAP()"));

    TestOrcAndAvroWrites()
    {
        super(DATABASE);
    }

    private record Column(String name, DataType type, String value, String edge)
    {
        // Avro holds timestamps up to microseconds
        boolean inAvro()
        {
            return !name.endsWith("_9");
        }
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        for (String format : List.of("orc", "avro")) {
            for (String table : List.of("wide_" + format, "wide_copy_" + format)) {
                Schema.Builder wide = Schema.newBuilder().column("id", DataTypes.INT());
                columns(format).forEach(column -> wide.column(column.name(), column.type()));
                wide.primaryKey("id").option("bucket", "1");
                // the copy is Paimon Java's own Parquet table
                paimon.createTable(DATABASE, table, table.startsWith("wide_copy") ? wide.build() : wide.option("file.format", format).build());
            }
            Schema.Builder append = Schema.newBuilder().column("id", DataTypes.INT());
            columns(format).forEach(column -> append.column(column.name(), column.type()));
            paimon.createTable(DATABASE, "append_" + format, append.option("bucket", "-1").option("file.format", format).build());
            paimon.createTable(DATABASE, "append_copy_" + format, append.option("file.format", "parquet").build());
            paimon.createTable(DATABASE, "changes_" + format, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .column("n", DataTypes.BIGINT())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("file.format", format)
                    .build());
            paimon.createTable(DATABASE, "changelog_" + format, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("file.format", format)
                    .option("changelog-producer", "input")
                    .build());
            for (String codec : CODECS.get(format)) {
                paimon.createTable(DATABASE, codecTable(format, codec), Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("v", DataTypes.STRING())
                        .column("d", DataTypes.DECIMAL(20, 4))
                        .primaryKey("id")
                        .option("bucket", "1")
                        .option("file.format", format)
                        .option("file.compression", codec)
                        .build());
            }
        }
        for (String table : List.of("orc_stripes", "orc_small_stripes")) {
            Schema.Builder stripes = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("file.format", "orc");
            paimon.createTable(DATABASE, table, table.equals("orc_small_stripes") ? stripes.option("orc.stripe.size", "65536").build() : stripes.build());
        }
        paimon.createTable(DATABASE, "orc_pre_epoch_ours", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("ts", DataTypes.TIMESTAMP(6))
                .column("ts_9", DataTypes.TIMESTAMP(9))
                .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", "orc")
                .build());
        for (String table : List.of("orc_epoch_ours", "orc_epoch_theirs")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("ts", DataTypes.TIMESTAMP(6))
                    .column("ts_3", DataTypes.TIMESTAMP(3))
                    .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("file.format", "orc")
                    .build());
        }
        for (String format : List.of("orc", "avro")) {
            for (String table : List.of("schema_ours_" + format, "schema_theirs_" + format)) {
                paimon.createTable(DATABASE, table, Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("c_char", DataTypes.CHAR(3))
                        .column("c_varchar", DataTypes.VARCHAR(10))
                        .column("c_binary", DataTypes.BINARY(4))
                        .column("c_decimal", DataTypes.DECIMAL(20, 4))
                        .column("c_time", DataTypes.TIME())
                        .column("c_timestamp", DataTypes.TIMESTAMP(6))
                        .column("c_ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                        .column("c_strings", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.STRING())))
                        .column("c_string_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT().notNull()))
                        .column("c_int_map", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ROW(DataTypes.FIELD(200, "a", DataTypes.INT()), DataTypes.FIELD(201, "b", DataTypes.STRING()))))
                        .column("c_multiset", format.equals("orc") ? DataTypes.MULTISET(DataTypes.INT()) : DataTypes.MULTISET(DataTypes.STRING()))
                        .column("c_row", DataTypes.ROW(DataTypes.FIELD(300, "x", DataTypes.DATE().notNull()), DataTypes.FIELD(301, "y", DataTypes.ARRAY(DataTypes.DOUBLE()))))
                        .primaryKey("id")
                        .option("bucket", "1")
                        .option("file.format", format)
                        .build());
            }
        }
        paimon.createTable(DATABASE, "levels", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .column("ts", DataTypes.TIMESTAMP(6))
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format.per.level", "0:avro,5:orc")
                .option("file.compression.per.level", "5:lz4")
                .build());

        Schema.Builder refused = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).primaryKey("id").option("bucket", "1");
        paimon.createTable(DATABASE, "avro_nanos", Schema.newBuilder().column("id", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(9)).primaryKey("id")
                .option("bucket", "1").option("file.format.per.level", "0:avro").build());
        paimon.createTable(DATABASE, "avro_int_multiset", Schema.newBuilder().column("id", DataTypes.INT()).column("m", DataTypes.MULTISET(DataTypes.INT())).primaryKey("id")
                .option("bucket", "1").option("file.format", "avro").build());
        paimon.createTable(DATABASE, "orc_brotli", refused.option("file.format", "orc").option("file.compression", "brotli").build());
        paimon.createTable(DATABASE, "avro_lz4_level", Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).primaryKey("id")
                .option("bucket", "1").option("file.format.per.level", "0:avro").option("file.compression.per.level", "0:lz4").build());
    }

    private static List<Column> columns(String format)
    {
        return COLUMNS.stream().filter(column -> format.equals("orc") || column.inAvro()).toList();
    }

    private static String codecTable(String format, String codec)
    {
        return "codec_%s_%s".formatted(format, codec);
    }

    private static Stream<List<String>> codecs()
    {
        return CODECS.entrySet().stream().flatMap(entry -> entry.getValue().stream().map(codec -> List.of(entry.getKey(), codec)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"orc", "avro"})
    void everyTypeInPrimaryKeyTableIsReadByPaimonJava(String format)
    {
        List<Column> columns = columns(format);
        String values = "VALUES (1, %s), (2, %s), (3, %s)".formatted(
                columns.stream().map(Column::value).collect(Collectors.joining(", ")),
                columns.stream().map(_ -> "NULL").collect(Collectors.joining(", ")),
                columns.stream().map(Column::edge).collect(Collectors.joining(", ")));
        assertUpdate("INSERT INTO wide_%s %s".formatted(format, values), 3);
        assertThat(dataFiles("wide_" + format)).allMatch(file -> file.fileName().endsWith("." + format)).isNotEmpty();

        MaterializedResult expected = computeActual("SELECT * FROM (" + values + ")");
        assertThat(Set.copyOf(comparable(computeActual("SELECT * FROM wide_" + format)))).isEqualTo(Set.copyOf(comparable(expected)));
        // Paimon Java reads every value of our file and writes it into a Parquet table of its own, which reads the same
        List<org.apache.paimon.data.InternalRow> read = PaimonJavaCatalog.readInternalRows(paimon().getTable(DATABASE, "wide_" + format));
        assertThat(read).hasSize(3);
        PaimonJavaCatalog.writeInternalRows(paimon().getTable(DATABASE, "wide_copy_" + format), read);
        assertThat(Set.copyOf(comparable(computeActual("SELECT * FROM wide_copy_" + format)))).isEqualTo(Set.copyOf(comparable(expected)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"orc", "avro"})
    void everyTypeInAppendTableIsReadByPaimonJava(String format)
    {
        List<Column> columns = columns(format);
        String values = "VALUES (1, %s), (2, %s), (1, %s)".formatted(
                columns.stream().map(Column::value).collect(Collectors.joining(", ")),
                columns.stream().map(_ -> "NULL").collect(Collectors.joining(", ")),
                columns.stream().map(Column::edge).collect(Collectors.joining(", ")));
        assertUpdate("INSERT INTO append_%s %s".formatted(format, values), 3);
        assertThat(dataFiles("append_" + format)).allMatch(file -> file.fileName().endsWith("." + format)).isNotEmpty();
        MaterializedResult expected = computeActual("SELECT * FROM (" + values + ")");
        assertThat(comparable(computeActual("SELECT * FROM append_" + format))).containsExactlyInAnyOrderElementsOf(comparable(expected));
        // Paimon Java reads every value of our file and writes it into a Parquet table of its own, which reads the same
        List<org.apache.paimon.data.InternalRow> read = PaimonJavaCatalog.readInternalRows(paimon().getTable(DATABASE, "append_" + format));
        assertThat(read).hasSize(3);
        PaimonJavaCatalog.writeInternalRows(paimon().getTable(DATABASE, "append_copy_" + format), read);
        assertThat(comparable(computeActual("SELECT * FROM append_copy_" + format))).containsExactlyInAnyOrderElementsOf(comparable(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"orc", "avro"})
    void updateDeleteAndMergeAreReadByPaimonJava(String format)
    {
        String table = "changes_" + format;
        assertUpdate("INSERT INTO %s VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', 30), (4, 'four', 40)".formatted(table), 4);
        assertUpdate("UPDATE %s SET v = 'two updated', n = n + 1 WHERE id = 2".formatted(table), 1);
        assertUpdate("DELETE FROM %s WHERE id = 3".formatted(table), 1);
        assertUpdate("""
                MERGE INTO %s t USING (VALUES (1, 'one merged'), (4, NULL), (5, 'five')) s(id, v) ON t.id = s.id
                WHEN MATCHED AND s.v IS NULL THEN DELETE
                WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n * 2
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 50)
                """.formatted(table), 3);
        // Paimon keeps the row kind of the last change: updated rows read as +U
        List<String> expected = List.of("+I(5, five, 50)", "+U(1, one merged, 20)", "+U(2, two updated, 21)");
        assertThat(paimonRows(table)).isEqualTo(expected);
        assertQuery("SELECT * FROM " + table, "VALUES (1, 'one merged', 20), (2, 'two updated', 21), (5, 'five', 50)");
        assertThat(dataFiles(table)).allMatch(file -> file.fileName().endsWith("." + format));

        // Paimon Java writes into the same table; both read its merge with our files
        Table paimonTable = paimon().getTable(DATABASE, table);
        PaimonJavaCatalog.write(paimonTable, List.of(GenericRow.of(2, BinaryString.fromString("java"), 22L), GenericRow.of(6, BinaryString.fromString("six"), 60L)));
        assertThat(paimonRows(table)).isEqualTo(List.of("+I(2, java, 22)", "+I(5, five, 50)", "+I(6, six, 60)", "+U(1, one merged, 20)"));
        assertQuery("SELECT * FROM " + table, "VALUES (1, 'one merged', 20), (2, 'java', 22), (5, 'five', 50), (6, 'six', 60)");
    }

    @Test
    void formatPerLevelThroughOptimize()
    {
        assertUpdate("INSERT INTO levels VALUES (1, 'a', TIMESTAMP '2026-01-01 00:00:00.000001'), (2, 'b', NULL)", 2);
        assertUpdate("INSERT INTO levels VALUES (2, 'b2', TIMESTAMP '1969-12-31 23:59:58.5'), (3, 'c', TIMESTAMP '2000-02-29 12:00:00')", 2);
        // inserts write level 0: Avro, the table's zstd
        assertThat(dataFiles("levels")).extracting(file -> file.level() + ":" + extension(file.fileName())).containsOnly("0:avro").hasSize(2);
        List<String> expected = List.of("+I(1, a, 2026-01-01T00:00:00.000001)", "+I(2, b2, 1969-12-31T23:59:58.500)", "+I(3, c, 2000-02-29T12:00)");
        assertThat(paimonRows("levels")).isEqualTo(expected);

        getQueryRunner().execute("ALTER TABLE levels EXECUTE optimize");
        // the full compaction writes the highest level: ORC compressed with lz4
        List<DataFileMeta> compacted = dataFiles("levels");
        assertThat(compacted).extracting(file -> file.level() + ":" + extension(file.fileName())).containsExactly("5:orc");
        assertThat(paimonRows("levels")).isEqualTo(expected);
        String trinoExpected = "VALUES (1, 'a', TIMESTAMP '2026-01-01 00:00:00.000001'), (2, 'b2', TIMESTAMP '1969-12-31 23:59:58.5'), (3, 'c', TIMESTAMP '2000-02-29 12:00:00')";
        assertQuery("SELECT * FROM levels", trinoExpected);
        assertQuery("SELECT level, file_format FROM \"levels$files\"", "VALUES (5, 'orc')");

        // Paimon Java adds an Avro level-0 file over our ORC file; both read the merge
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "levels"), List.of(GenericRow.of(3, BinaryString.fromString("java"), null)));
        assertThat(dataFiles("levels")).extracting(file -> file.level() + ":" + extension(file.fileName())).containsExactlyInAnyOrder("5:orc", "0:avro");
        assertThat(paimonRows("levels")).isEqualTo(List.of("+I(1, a, 2026-01-01T00:00:00.000001)", "+I(2, b2, 1969-12-31T23:59:58.500)", "+I(3, java, null)"));
        assertQuery("SELECT * FROM levels", "VALUES (1, 'a', TIMESTAMP '2026-01-01 00:00:00.000001'), (2, 'b2', TIMESTAMP '1969-12-31 23:59:58.5'), (3, 'java', NULL)");
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void everyCodecRoundTrips(List<String> formatAndCodec)
            throws IOException
    {
        String format = formatAndCodec.get(0);
        String codec = formatAndCodec.get(1);
        String table = codecTable(format, codec);
        assertUpdate("INSERT INTO %s SELECT x, 'value ' || CAST(x AS varchar), CAST(x AS decimal(20, 4)) / 8 FROM UNNEST(sequence(1, 2000)) t(x)".formatted(table), 2000);
        List<String> rows = paimonRows(table);
        assertThat(rows).hasSize(2000);
        assertThat(rows).contains("+I(1, value 1, 0.1250)", "+I(2000, value 2000, 250.0000)");
        assertQuery("SELECT count(*), sum(id), min(v), max(d) FROM " + table, "VALUES (2000, 2001000, 'value 1', 250.0)");
        if (format.equals("avro")) {
            // the codec Avro names in the file's header
            try (InputStream input = Files.newInputStream(dataFilePath(table)); DataFileStream<GenericRecord> stream = new DataFileStream<>(input, new GenericDatumReader<>())) {
                assertThat(stream.getMetaString("avro.codec")).isEqualTo(codec.equals("zstd") ? "zstandard" : codec);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"orc", "avro"})
    void inputChangelogFilesHaveTheTableFormat(String format)
            throws IOException
    {
        String table = "changelog_" + format;
        assertUpdate("INSERT INTO %s VALUES (1, 'a'), (2, 'b'), (1, 'a2')".formatted(table), 3);
        assertThat(paimonRows(table)).isEqualTo(List.of("+I(1, a2)", "+I(2, b)"));
        Path bucket = root().resolve("warehouse").resolve(DATABASE + ".db").resolve(table).resolve("bucket-0");
        try (Stream<Path> files = Files.list(bucket)) {
            assertThat(files.map(path -> path.getFileName().toString()).filter(name -> name.startsWith("changelog-")))
                    .isNotEmpty()
                    .allMatch(name -> name.endsWith("." + format));
        }
        // Paimon Java's streaming read sees every input record, unmerged, from the changelog files
        assertThat(PaimonJavaCatalog.readChangelog(paimon().getTable(DATABASE, table))).containsExactlyInAnyOrder("+I(1, a)", "+I(1, a2)", "+I(2, b)");
    }

    @Test
    void orcTimestampsInTheSecondBeforeTheEpochReadAsPaimonJavasOwn()
    {
        // ORC stores whole seconds truncated toward zero, so a value in the second before 1970 comes back one second
        // late from Paimon Java's and Trino's readers alike: our file must read exactly as the file Paimon Java writes
        assertUpdate("INSERT INTO orc_epoch_ours VALUES (1, TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP '1969-12-31 23:59:59.5', TIMESTAMP '1969-12-31 23:59:59.999999 UTC')", 1);
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "orc_epoch_theirs"), List.of(GenericRow.of(
                1,
                org.apache.paimon.data.Timestamp.fromMicros(-1),
                org.apache.paimon.data.Timestamp.fromEpochMillis(-500),
                org.apache.paimon.data.Timestamp.fromMicros(-1))));
        assertThat(paimonRows("orc_epoch_ours")).isEqualTo(paimonRows("orc_epoch_theirs")).hasSize(1);
        assertThat(comparable(computeActual("SELECT * FROM orc_epoch_ours"))).isEqualTo(comparable(computeActual("SELECT * FROM orc_epoch_theirs")));
    }

    @Test
    void orcTimestampsBefore1970BelowAMillisecondReadBackAsInserted()
    {
        // Trino's ORC writer truncates microseconds to whole seconds where ORC Java truncates milliseconds: our files
        // are read by our writer's convention, not by the one the files of Paimon Java are read with
        assertUpdate("INSERT INTO orc_pre_epoch_ours VALUES (1, TIMESTAMP '1969-12-31 23:59:58.000001', TIMESTAMP '1969-12-31 23:59:58.000000001', TIMESTAMP '1969-12-31 23:59:58.000001 UTC')", 1);
        assertThat(computeActual("SELECT CAST(ts AS varchar), CAST(ts_9 AS varchar), CAST(ltz AS varchar) FROM orc_pre_epoch_ours").getMaterializedRows().getFirst().getFields())
                .containsExactly("1969-12-31 23:59:58.000001", "1969-12-31 23:59:58.000000001", "1969-12-31 23:59:58.000001 UTC");
    }

    @ParameterizedTest
    @ValueSource(strings = {"orc", "avro"})
    void fileSchemaIsPaimonJavas(String format)
            throws IOException
    {
        assertUpdate("INSERT INTO schema_ours_%s (id) VALUES (1)".formatted(format), 1);
        Table theirs = paimon().getTable(DATABASE, "schema_theirs_" + format);
        GenericRow row = new GenericRow(theirs.rowType().getFieldCount());
        row.setField(0, 1);
        PaimonJavaCatalog.write(theirs, List.of(row));
        assertThat(paimonRows("schema_ours_" + format)).isEqualTo(paimonRows("schema_theirs_" + format));
        Path ours = dataFilePath("schema_ours_" + format);
        Path paimons = dataFilePath("schema_theirs_" + format);
        if (format.equals("avro")) {
            // the record schema in the header: names, nullability, logical types, maps, records
            assertThat(avroSchema(ours)).isEqualTo(avroSchema(paimons));
        }
        else {
            // every ORC type of the footer: kind, struct field names, length, precision, scale and the paimon.id attribute
            assertThat(orcTypes(ours)).isEqualTo(orcTypes(paimons));
        }
    }

    /** {@code orc.stripe.size}, the option Paimon hands its ORC writer, bounds the stripes: 64 kB of distinct strings make several. */
    @Test
    void orcStripesKeepToTheStripeSize()
            throws IOException
    {
        for (String table : List.of("orc_stripes", "orc_small_stripes")) {
            assertUpdate("INSERT INTO %s SELECT id, to_hex(sha256(to_utf8(CAST(id AS varchar)))) FROM UNNEST(sequence(1, 5000)) t(id)".formatted(table), 5000);
            assertThat(paimonRows(table)).hasSize(5000);
        }
        assertThat(orcStripes(dataFilePath("orc_stripes"))).isEqualTo(1);
        assertThat(orcStripes(dataFilePath("orc_small_stripes"))).isGreaterThan(2);
        assertThat(paimonRows("orc_small_stripes")).isEqualTo(paimonRows("orc_stripes"));
    }

    private static int orcStripes(Path path)
            throws IOException
    {
        OrcReaderOptions options = new OrcReaderOptions();
        try (FileOrcDataSource source = new FileOrcDataSource(path.toFile(), options)) {
            return OrcReader.createOrcReader(source, options).orElseThrow().getFooter().getStripes().size();
        }
    }

    private Path dataFilePath(String table)
    {
        DataFileMeta file = dataFiles(table).getFirst();
        return root().resolve("warehouse").resolve(DATABASE + ".db").resolve(table).resolve("bucket-0").resolve(file.fileName());
    }

    private static String avroSchema(Path path)
            throws IOException
    {
        try (InputStream input = Files.newInputStream(path); DataFileStream<GenericRecord> stream = new DataFileStream<>(input, new GenericDatumReader<>())) {
            return stream.getSchema().toString(true);
        }
    }

    private static List<String> orcTypes(Path path)
            throws IOException
    {
        OrcReaderOptions options = new OrcReaderOptions();
        try (FileOrcDataSource source = new FileOrcDataSource(path.toFile(), options)) {
            OrcReader reader = OrcReader.createOrcReader(source, options).orElseThrow();
            return reader.getFooter().getTypes().stream()
                    // Trino's writer also names the children of lists and maps (item, key, value), which ORC readers ignore
                    .map(type -> "%s %s %s %s %s %s".formatted(
                            type.getOrcTypeKind(),
                            type.getOrcTypeKind() == OrcTypeKind.STRUCT ? type.getFieldNames() : "",
                            type.getLength(),
                            type.getPrecision(),
                            type.getScale(),
                            type.getAttributes()))
                    .toList();
        }
    }

    @Test
    void refusedTypesAndCodecs()
    {
        assertQueryFails("INSERT INTO avro_nanos VALUES (1, TIMESTAMP '2026-01-01 00:00:00.123456789')",
                ".*Cannot write to Paimon table format_writes.avro_nanos: column 'ts' of type TIMESTAMP\\(9\\) cannot be stored in avro files.*");
        assertQueryFails("INSERT INTO avro_int_multiset VALUES (1, MAP(ARRAY[1], ARRAY[2]))",
                ".*Cannot write to Paimon table format_writes.avro_int_multiset: column 'm' of type MULTISET<INT> cannot be stored in avro files.*");
        assertQueryFails("INSERT INTO orc_brotli VALUES (1, 'x')",
                ".*Cannot write to Paimon table format_writes.orc_brotli: option 'file.compression' = 'brotli' is not a codec of orc files \\(zstd, lz4, snappy, zlib or none\\).*");
        assertQueryFails("INSERT INTO avro_lz4_level VALUES (1, 'x')",
                ".*Cannot write to Paimon table format_writes.avro_lz4_level: option 'file.compression.per.level' = 'lz4' is not a codec of avro files \\(zstd, snappy, deflate or null\\).*");
        for (String table : List.of("avro_nanos", "avro_int_multiset", "orc_brotli", "avro_lz4_level")) {
            assertThat(paimonRows(table)).as(table).isEmpty();
        }
    }

    private List<DataFileMeta> dataFiles(String table)
    {
        return ((FileStoreTable) paimon().getTable(DATABASE, table)).store().newScan().plan().files().stream()
                .map(ManifestEntry::file)
                .toList();
    }

    private static String extension(String fileName)
    {
        return fileName.substring(fileName.lastIndexOf('.') + 1);
    }

    private List<String> paimonRows(String table)
    {
        return PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table));
    }

    // rows whose values compare by content: binaries as hex, a TIMESTAMP WITH TIME ZONE as its instant (Paimon keeps
    // the instant), maps and arrays as they are
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
}
