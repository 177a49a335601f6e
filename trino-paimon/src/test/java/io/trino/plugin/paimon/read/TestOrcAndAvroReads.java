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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import io.trino.plugin.paimon.testing.ScanStatistics;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ORC and Avro data files as Paimon Java 1.4.2 writes them, read by Trino exactly as Paimon Java reads them: tables
 * of each format with every common type over several sorted runs (so the merge runs), an aggregation table,
 * {@code file.format.per.level} mixing Avro level-0 files with fully compacted Parquet files in one bucket, deletion
 * vectors over ORC files, an ORC table whose columns were renamed and added after files were written, TIME nested in
 * ORC arrays, maps and rows, and each
 * {@code file.compression} Paimon writes in each format.
 */
final class TestOrcAndAvroReads
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "formats";
    private static final int BUCKETS = 2;
    // each format's names of the codecs Paimon writes (zstd, the default, is what every other Parquet test reads)
    private static final Map<String, List<String>> COMPRESSIONS = ImmutableMap.of(
            "orc", List.of("zstd", "lz4", "snappy", "zlib", "none"),
            "avro", List.of("zstd", "snappy", "deflate", "null"),
            "parquet", List.of("lz4", "snappy", "gzip", "none"));

    // instants whose ORC seconds and nanoseconds lie at the edges of the encoding, most before 1970. Paimon Java's read
    // is the expected value where it differs from what was written: an instant within the second before 1970 is
    // stored as zero seconds and reads one second late (-1 ns as 1970-01-01 00:00:00.999999999), and Paimon Java
    // writes through java.sql.Timestamp, whose calendar is Julian before 1582-10-15, while it reads the stored
    // seconds on the proleptic Gregorian calendar (1500-06-15 reads as 1500-06-25, 0001-01-01 as 0000-12-30)
    private static final List<LocalDateTime> PRE_EPOCH_INSTANTS = List.of(
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 500_000_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 0),
            LocalDateTime.of(1969, 12, 31, 23, 59, 58, 1_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 58, 1),
            LocalDateTime.of(1969, 12, 31, 23, 59, 58, 500_000_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 57, 999_999),
            LocalDateTime.of(1969, 12, 31, 23, 59, 57, 1_000_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 57, 999_500),
            LocalDateTime.of(1969, 12, 31, 0, 0, 0, 123_456_789),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000_000),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 0),
            LocalDateTime.of(1582, 10, 15, 0, 0, 0, 1_000),
            LocalDateTime.of(1582, 10, 4, 23, 59, 59, 999_999_000),
            LocalDateTime.of(1500, 6, 15, 12, 34, 56, 123_456_789),
            LocalDateTime.of(1, 1, 1, 0, 0, 0, 0),
            LocalDateTime.of(1, 1, 1, 0, 0, 0, 1_000),
            LocalDateTime.of(1970, 1, 1, 0, 0, 0, 0),
            LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1_000),
            LocalDateTime.of(1970, 1, 1, 0, 0, 1, 1),
            LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_999));

    // a field of each type Paimon writes to ORC, nested in a row (ids clear of the other nested fields' ids)
    private static final List<DataField> EVERY_TYPE = List.of(
            DataTypes.FIELD(500, "f_boolean", DataTypes.BOOLEAN()),
            DataTypes.FIELD(501, "f_tinyint", DataTypes.TINYINT()),
            DataTypes.FIELD(502, "f_smallint", DataTypes.SMALLINT()),
            DataTypes.FIELD(503, "f_int", DataTypes.INT()),
            DataTypes.FIELD(504, "f_bigint", DataTypes.BIGINT()),
            DataTypes.FIELD(505, "f_float", DataTypes.FLOAT()),
            DataTypes.FIELD(506, "f_double", DataTypes.DOUBLE()),
            DataTypes.FIELD(507, "f_decimal_short", DataTypes.DECIMAL(9, 2)),
            DataTypes.FIELD(508, "f_decimal_long", DataTypes.DECIMAL(38, 10)),
            DataTypes.FIELD(509, "f_char", DataTypes.CHAR(4)),
            DataTypes.FIELD(510, "f_varchar", DataTypes.VARCHAR(10)),
            DataTypes.FIELD(511, "f_string", DataTypes.STRING()),
            DataTypes.FIELD(512, "f_binary", DataTypes.BINARY(4)),
            DataTypes.FIELD(513, "f_varbinary", DataTypes.VARBINARY(8)),
            DataTypes.FIELD(514, "f_bytes", DataTypes.BYTES()),
            DataTypes.FIELD(515, "f_date", DataTypes.DATE()),
            DataTypes.FIELD(516, "f_time", DataTypes.TIME(3)),
            DataTypes.FIELD(517, "f_ts0", DataTypes.TIMESTAMP(0)),
            DataTypes.FIELD(518, "f_ts3", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD(519, "f_ts6", DataTypes.TIMESTAMP(6)),
            DataTypes.FIELD(520, "f_ts9", DataTypes.TIMESTAMP(9)),
            DataTypes.FIELD(521, "f_ltz0", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(0)),
            DataTypes.FIELD(522, "f_ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)),
            DataTypes.FIELD(523, "f_ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)),
            DataTypes.FIELD(524, "f_ltz9", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9)),
            DataTypes.FIELD(525, "f_last", DataTypes.STRING()));

    TestOrcAndAvroReads()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        for (String format : List.of("orc", "avro")) {
            Table table = paimon.createTable(DATABASE, "types_" + format, typesSchema(format));
            Random random = new Random(7);
            for (int commit = 0; commit < 3; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    rows.add(typesRow(random, commit * 30 + i, format.equals("orc")));
                }
                PaimonJavaCatalog.write(table, rows);
            }
        }
        // one table per format, one commit per codec, each into keys of its own: every file is read
        for (String format : COMPRESSIONS.keySet()) {
            String name = "compressed_" + format;
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("file.format", format)
                    .option("write-only", "true")
                    .build());
            List<String> compressions = COMPRESSIONS.get(format);
            for (int commit = 0; commit < compressions.size(); commit++) {
                paimon.alterTable(DATABASE, name, SchemaChange.setOption("file.compression", compressions.get(commit)));
                List<GenericRow> rows = new ArrayList<>();
                for (int id = commit * 100; id < commit * 100 + 100; id++) {
                    rows.add(GenericRow.of(id, BinaryString.fromString(compressions.get(commit) + " " + (id % 7))));
                }
                PaimonJavaCatalog.write(paimon.getTable(DATABASE, name), rows);
            }
        }

        // aggregation over three ORC sorted runs of overlapping keys
        Table aggregation = paimon.createTable(DATABASE, "aggregation_orc", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .column("highest", DataTypes.DECIMAL(12, 3))
                .column("latest", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", Integer.toString(BUCKETS))
                .option("file.format", "orc")
                .option("write-only", "true")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.highest.aggregate-function", "max")
                .option("fields.latest.aggregate-function", "last_non_null_value")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = commit * 10; id < 40 + commit * 10; id++) {
                rows.add(GenericRow.of(
                        id,
                        (long) id * (commit + 1),
                        Decimal.fromBigDecimal(BigDecimal.valueOf((id * 7L + commit * 13L) % 50, 3), 12, 3),
                        id % 3 == commit ? null : BinaryString.fromString("c" + commit)));
            }
            PaimonJavaCatalog.write(aggregation, rows);
        }

        // level-0 files in Avro, files at the highest level in Parquet, the rest in ORC: one bucket mixes formats
        Table perLevel = paimon.createTable(DATABASE, "per_level", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(20, 2))
                .column("at", DataTypes.TIMESTAMP(6))
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", "orc")
                .option("file.format.per.level", "0:avro,5:parquet")
                .option("write-only", "true")
                .build());
        for (int commit = 0; commit < 4; commit++) {
            if (commit == 2) {
                PaimonJavaCatalog.compact(perLevel, root(), 1, _ -> true);
            }
            List<GenericRow> rows = new ArrayList<>();
            for (int id = commit * 15; id < 30 + commit * 15; id++) {
                rows.add(GenericRow.of(
                        id,
                        BinaryString.fromString("run " + commit),
                        Decimal.fromBigDecimal(BigDecimal.valueOf(id * 1001L + commit, 2), 20, 2),
                        Timestamp.fromEpochMillis(1_700_000_000_000L + id * 1000L, commit * 1000)));
            }
            PaimonJavaCatalog.write(perLevel, rows);
        }

        // lookup compaction marks the rows each commit replaces in the deeper ORC runs with deletion vectors
        Table deletionVectors = paimon.createTable(DATABASE, "dv_orc", Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", Integer.toString(BUCKETS))
                .option("file.format", "orc")
                .option("deletion-vectors.enabled", "true")
                .build());
        PaimonJavaCatalog.write(deletionVectors, valueRows(0, 200, "first"));
        PaimonJavaCatalog.write(deletionVectors, valueRows(0, 40, "second"));
        PaimonJavaCatalog.write(deletionVectors, valueRows(35, 45, "third"));

        // files written before a column was renamed, another added and a third widened are read by field id
        Table evolved = paimon.createTable(DATABASE, "evolved_orc", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", "orc")
                .option("write-only", "true")
                .build());
        PaimonJavaCatalog.write(evolved, List.of(GenericRow.of(1, 10, BinaryString.fromString("one")), GenericRow.of(2, 20, BinaryString.fromString("two")), GenericRow.of(3, 30, null)));
        paimon.alterTable(DATABASE, "evolved_orc",
                SchemaChange.renameColumn("b", "b_renamed"),
                SchemaChange.addColumn("c", DataTypes.DECIMAL(9, 1)),
                SchemaChange.updateColumnType("a", DataTypes.BIGINT()));
        evolved = paimon.getTable(DATABASE, "evolved_orc");
        PaimonJavaCatalog.write(evolved, List.of(GenericRow.of(2, 5_000_000_000L, BinaryString.fromString("two again"), Decimal.fromBigDecimal(new BigDecimal("2.5"), 9, 1)), GenericRow.of(4, 40L, null, null)));

        // TIME (an ORC int of milliseconds) inside arrays, maps and rows, over two sorted runs
        Table nestedTime = paimon.createTable(DATABASE, "nested_time_orc", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("t", DataTypes.TIME(3))
                .column("times", DataTypes.ARRAY(DataTypes.TIME(3)))
                .column("by_time", DataTypes.MAP(DataTypes.TIME(3), DataTypes.STRING()))
                .column("shift", DataTypes.ROW(DataTypes.FIELD(200, "start", DataTypes.TIME(3)), DataTypes.FIELD(201, "slots", DataTypes.ARRAY(DataTypes.TIME(3)))))
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", "orc")
                .option("write-only", "true")
                .build());
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = commit * 5; id < 10 + commit * 5; id++) {
                int millis = id * 3_600_000 + commit * 61_001;
                rows.add(id % 4 == 3
                        ? GenericRow.of(id, null, null, null, null)
                        : GenericRow.of(
                                id,
                                millis,
                                new GenericArray(new Object[] {millis, null, 86_399_999}),
                                new GenericMap(Map.of(millis, BinaryString.fromString("at " + id))),
                                GenericRow.of(millis + 1, new GenericArray(new Object[] {0, millis + 2}))));
            }
            PaimonJavaCatalog.write(nestedTime, rows);
        }

        // instants at the edges of ORC's encoding of times before 1970 (whole seconds truncated toward zero), each
        // column holding the instant truncated to its precision, top level and nested
        Table preEpoch = paimon.createTable(DATABASE, "pre_epoch_orc", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("ts3", DataTypes.TIMESTAMP(3))
                .column("ts6", DataTypes.TIMESTAMP(6))
                .column("ts9", DataTypes.TIMESTAMP(9))
                .column("ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .column("ltz9", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9))
                .column("ts6_array", DataTypes.ARRAY(DataTypes.TIMESTAMP(6)))
                .column("ltz6_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)))
                .column("ts9_row", DataTypes.ROW(DataTypes.FIELD(300, "at", DataTypes.TIMESTAMP(9))))
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", "orc")
                .option("write-only", "true")
                .build());
        List<GenericRow> preEpochRows = new ArrayList<>();
        for (int id = 0; id < PRE_EPOCH_INSTANTS.size(); id++) {
            LocalDateTime instant = PRE_EPOCH_INSTANTS.get(id);
            preEpochRows.add(GenericRow.of(
                    id,
                    truncated(instant, 3),
                    truncated(instant, 6),
                    truncated(instant, 9),
                    truncated(instant, 3),
                    truncated(instant, 6),
                    truncated(instant, 9),
                    new GenericArray(new Object[] {truncated(instant, 6), null}),
                    new GenericMap(Map.of(BinaryString.fromString("at"), truncated(instant, 6))),
                    GenericRow.of(truncated(instant, 9))));
        }
        PaimonJavaCatalog.write(preEpoch, preEpochRows);

        // the types Paimon writes to ORC that Trino's reader takes in another form (TIME, timestamps of every
        // precision), and arrays of rows, maps of arrays and rows of rows, with nulls and empty arrays and maps, over
        // three commits into two buckets
        Table nestedTypes = paimon.createTable(DATABASE, "nested_types_orc", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("t", DataTypes.TIME(3))
                .column("ts0", DataTypes.TIMESTAMP(0))
                .column("ts9", DataTypes.TIMESTAMP(9))
                .column("ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .column("points", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(400, "x", DataTypes.INT()), DataTypes.FIELD(401, "y", DataTypes.STRING()))))
                .column("lists", DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.INT())))
                .column("nested", DataTypes.ROW(
                        DataTypes.FIELD(402, "r", DataTypes.ROW(DataTypes.FIELD(403, "z", DataTypes.INT()))),
                        DataTypes.FIELD(404, "l", DataTypes.ARRAY(DataTypes.INT()))))
                .column("ts0_array", DataTypes.ARRAY(DataTypes.TIMESTAMP(0)))
                .column("by_instant", DataTypes.MAP(DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3).notNull(), DataTypes.TIMESTAMP(7)))
                .column("tags", DataTypes.MULTISET(DataTypes.STRING()))
                .column("every", DataTypes.ARRAY(DataTypes.ROW(EVERY_TYPE.toArray(DataField[]::new))))
                .primaryKey("id")
                .option("bucket", Integer.toString(BUCKETS))
                .option("file.format", "orc")
                .option("write-only", "true")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = commit * 8; id < 16 + commit * 8; id++) {
                rows.add(nestedTypesRow(id, commit));
            }
            PaimonJavaCatalog.write(nestedTypes, rows);
        }

        // one sorted run of small stripes, to see key predicates skip them
        Table stripes = paimon.createTable(DATABASE, "stripes_orc", Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", "orc")
                .option("orc.stripe.size", "1024")
                .option("orc.rows.between.memory.checks", "1000")
                .option("write-only", "true")
                .build());
        PaimonJavaCatalog.write(stripes, valueRows(0, 8_000, "v"));
    }

    @Test
    void everyTypeReadsAsPaimonJavaReadsIt()
    {
        for (String format : List.of("orc", "avro")) {
            Table table = paimon().getTable(DATABASE, "types_" + format);
            assertThat(dataFileExtensions(table)).as(format).containsOnly(format);
            assertSameRows(table, "SELECT * FROM types_" + format, 110);
        }
    }

    @Test
    void everyCompressionReads()
    {
        List<String> scans = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (String format : COMPRESSIONS.keySet()) {
            String name = "compressed_" + format;
            assertThat(dataFileExtensions(paimon().getTable(DATABASE, name))).as(name).containsOnly(format);
            scans.add("SELECT substr(v, 1, strpos(v, ' ') - 1), count(*), count(DISTINCT v), sum(id) FROM %s GROUP BY 1".formatted(name));
            List<String> compressions = COMPRESSIONS.get(format);
            for (int commit = 0; commit < compressions.size(); commit++) {
                // ids commit * 100 .. commit * 100 + 99
                expected.add("[%s, 100, 7, %s]".formatted(compressions.get(commit), commit * 10_000 + 4950));
            }
        }
        assertThat(computeActual(String.join(" UNION ALL ", scans)).getMaterializedRows().stream().map(Object::toString).sorted().toList())
                .isEqualTo(expected.stream().sorted().toList());
    }

    @Test
    void aggregationMergesOrcRuns()
    {
        assertSameRows(paimon().getTable(DATABASE, "aggregation_orc"), "SELECT * FROM aggregation_orc", 60);
    }

    @Test
    void oneBucketMixesTheFormatsOfItsLevels()
    {
        Table table = paimon().getTable(DATABASE, "per_level");
        assertThat(dataFileExtensions(table)).contains("avro", "parquet");
        assertSameRows(table, "SELECT * FROM per_level", 75);
        assertThat(computeActual("SELECT v, count(*) FROM per_level GROUP BY v").getMaterializedRows().stream().map(Object::toString).sorted().toList())
                .containsExactly("[run 0, 15]", "[run 1, 15]", "[run 2, 15]", "[run 3, 30]");
    }

    @Test
    void deletionVectorsDropRowsOfOrcFiles()
            throws IOException
    {
        Table table = paimon().getTable(DATABASE, "dv_orc");
        Path index = tableLocation(table).resolve("index");
        try (Stream<Path> files = Files.list(index)) {
            assertThat(files.map(path -> path.getFileName().toString())).as("deletion vector index files").anyMatch(name -> name.startsWith("index-"));
        }
        assertSameRows(table, "SELECT * FROM dv_orc", 200);
        // keys 0-34 second, 35-44 third, 45-199 first
        assertThat(computeActual("SELECT v, count(*) FROM dv_orc GROUP BY v").getMaterializedRows().stream().map(Object::toString).sorted().toList())
                .containsExactly("[first, 155]", "[second, 35]", "[third, 10]");
    }

    @Test
    void renamedAddedAndWidenedColumnsReadByFieldId()
    {
        assertSameRows(paimon().getTable(DATABASE, "evolved_orc"), "SELECT * FROM evolved_orc", 4);
        assertThat(computeActual("SELECT id, a, b_renamed, c FROM evolved_orc ORDER BY id").getMaterializedRows().stream().map(Object::toString).toList())
                .containsExactly("[1, 10, one, null]", "[2, 5000000000, two again, 2.5]", "[3, 30, null, null]", "[4, 40, null, null]");
    }

    @Test
    void timeNestedInOrcArraysMapsAndRows()
    {
        assertSameRows(paimon().getTable(DATABASE, "nested_time_orc"), "SELECT * FROM nested_time_orc", 15);
        // key 6 of the second run: 6 hours, 1 minute, 1.001 seconds
        assertThat(computeActual("SELECT CAST(t AS varchar), CAST(times[3] AS varchar), CAST(shift.start AS varchar), CAST(shift.slots[2] AS varchar), by_time[TIME '06:01:01.001'] FROM nested_time_orc WHERE id = 6")
                .getMaterializedRows().getFirst().getFields())
                .containsExactly("06:01:01.001", "23:59:59.999", "06:01:01.002", "06:01:01.003", "at 6");
    }

    @Test
    void timestampsBefore1970ReadAsPaimonJavaReadsThem()
    {
        assertSameRows(paimon().getTable(DATABASE, "pre_epoch_orc"), "SELECT * FROM pre_epoch_orc", PRE_EPOCH_INSTANTS.size());
        // 1969-12-31 23:59:58.000001 is stored as -2 seconds and 1,000 nanoseconds: no second is borrowed
        int id = PRE_EPOCH_INSTANTS.indexOf(LocalDateTime.of(1969, 12, 31, 23, 59, 58, 1_000));
        assertThat(computeActual("SELECT CAST(ts6 AS varchar), CAST(ts9 AS varchar), CAST(ltz6 AS varchar), CAST(ts6_array[1] AS varchar), CAST(ts9_row.at AS varchar) FROM pre_epoch_orc WHERE id = " + id)
                .getMaterializedRows().getFirst().getFields())
                .containsExactly("1969-12-31 23:59:58.000001", "1969-12-31 23:59:58.000001000", "1969-12-31 23:59:58.000001 UTC", "1969-12-31 23:59:58.000001", "1969-12-31 23:59:58.000001000");
    }

    @Test
    void everyTypeReadsNestedInOrc()
    {
        Table table = paimon().getTable(DATABASE, "nested_types_orc");
        assertThat(dataFileExtensions(table)).containsOnly("orc");
        assertSameRows(table, "SELECT * FROM nested_types_orc", 32);
        assertThat(computeActual("SELECT cardinality(points), cardinality(lists), nested.r.z, cardinality(nested.l) FROM nested_types_orc WHERE id = 0")
                .getMaterializedRows().getFirst().getFields())
                .containsExactly(0L, 0L, null, 0L);
    }

    @Test
    void keyPredicatesSkipOrcStripes()
    {
        ScanStatistics whole = ScanStatistics.execute(getQueryRunner(), "SELECT count(*) FROM stripes_orc");
        ScanStatistics lookup = ScanStatistics.execute(getQueryRunner(), "SELECT id, v FROM stripes_orc WHERE id = 4242");
        assertThat(whole.result().getOnlyValue()).isEqualTo(8_000L);
        assertThat(lookup.result().getMaterializedRows().stream().map(Object::toString).toList()).containsExactly("[4242, v]");
        assertThat(whole.rowGroupsRead()).isGreaterThan(3);
        assertThat(lookup.rowGroupsRead()).isEqualTo(1);
        assertThat(lookup.rowGroupsSkipped()).isEqualTo(whole.rowGroupsRead() - 1);
        // the reader also skips the row groups (10,000 rows) of the stripe that miss the key
        assertThat(lookup.physicalInputRows()).isLessThan(whole.physicalInputRows());
        assertThat(computeActual("SELECT count(*), min(id), max(id) FROM stripes_orc WHERE id BETWEEN 4990 AND 5010").getMaterializedRows().getFirst().toString())
                .isEqualTo("[21, 4990, 5010]");
    }

    private void assertSameRows(Table table, String query, int expectedRows)
    {
        List<String> expected = PaimonJavaValues.readValues(table).stream().map(Object::toString).sorted().toList();
        assertThat(expected).as(table.name()).hasSize(expectedRows);
        List<String> actual = computeActual(query).getMaterializedRows().stream()
                .map(PaimonJavaValues::values)
                .map(Object::toString)
                .sorted()
                .toList();
        assertThat(actual).as(table.name()).isEqualTo(expected);
    }

    // the extensions of the data files in the table's bucket folders
    private Set<String> dataFileExtensions(Table table)
    {
        try (Stream<Path> files = Files.walk(tableLocation(table))) {
            return files.filter(path -> path.getFileName().toString().startsWith("data-"))
                    .map(path -> path.getFileName().toString().substring(path.getFileName().toString().lastIndexOf('.') + 1))
                    .collect(toImmutableSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path tableLocation(Table table)
    {
        return root().resolve("warehouse").resolve(DATABASE + ".db").resolve(table.name());
    }

    private static List<GenericRow> valueRows(long from, long to, String value)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(value)));
        }
        return rows;
    }

    // Paimon's timestamp of the wall clock, its digits below the precision dropped
    private static Timestamp truncated(LocalDateTime value, int precision)
    {
        int unit = (int) Math.pow(10, 9 - precision);
        return Timestamp.fromLocalDateTime(value.withNano(value.getNano() / unit * unit));
    }

    private static GenericRow nestedTypesRow(int id, int commit)
    {
        if (id % 7 == 3) {
            return GenericRow.of(id, null, null, null, null, null, null, null, null, null, null, null, null);
        }
        // before and after 1970, whole seconds for TIMESTAMP(0)
        long millis = (id - 12) * 86_400_123L + commit * 1_001L;
        Object points = switch (id % 4) {
            case 0 -> new GenericArray(new Object[0]);
            case 1 -> null;
            default -> new GenericArray(new Object[] {GenericRow.of(id, BinaryString.fromString("p" + id)), GenericRow.of(null, null), null});
        };
        // one entry a map at most: the comparison sees maps in read order
        Object lists = switch (id % 3) {
            case 0 -> new GenericMap(Map.of());
            case 1 -> new GenericMap(Map.of(BinaryString.fromString(id % 2 == 0 ? "empty" : "some"), new GenericArray(id % 2 == 0 ? new Object[0] : new Object[] {id, null, commit})));
            default -> null;
        };
        Object nested = switch (id % 5) {
            case 0 -> GenericRow.of(null, new GenericArray(new Object[0]));
            case 1 -> null;
            case 2 -> GenericRow.of(GenericRow.of((Object) null), null);
            default -> GenericRow.of(GenericRow.of(id * 10), new GenericArray(new Object[] {id, null}));
        };
        return GenericRow.of(
                id,
                (int) Math.floorMod(millis, 86_400_000L),
                Timestamp.fromEpochMillis(Math.floorDiv(millis, 1000) * 1000),
                Timestamp.fromEpochMillis(millis, id * 1_001 % 1_000_000),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, id * 1_000 % 1_000_000),
                points,
                lists,
                nested,
                id % 4 == 0 ? new GenericArray(new Object[0]) : new GenericArray(new Object[] {Timestamp.fromEpochMillis(Math.floorDiv(millis, 1000) * 1000), null}),
                new GenericMap(Map.of(Timestamp.fromEpochMillis(millis), Timestamp.fromEpochMillis(millis, id * 100 % 1_000_000))),
                id % 3 == 0 ? null : new GenericMap(Map.of(BinaryString.fromString("tag" + id % 2), id % 5 + 1)),
                id % 6 == 0 ? new GenericArray(new Object[] {null}) : new GenericArray(new Object[] {everyTypeRow(id, millis), everyTypeRow(-id, -millis - 1)}));
    }

    // a value of each type in EVERY_TYPE, from the key and an instant in milliseconds
    private static GenericRow everyTypeRow(int id, long millis)
    {
        return GenericRow.of(
                id % 2 == 0,
                (byte) id,
                (short) (id * 300),
                id * 70_000,
                id * 5_000_000_000L,
                id / 4.0f,
                id / 3.0,
                Decimal.fromBigDecimal(BigDecimal.valueOf(id * 101L, 2), 9, 2),
                Decimal.fromBigDecimal(new BigDecimal(id + "1234567890123456789.0123456789"), 38, 10),
                BinaryString.fromString("c" + id),
                BinaryString.fromString("v" + id),
                BinaryString.fromString("s-é-" + id),
                new byte[] {(byte) id, 2, 3, 4},
                new byte[] {(byte) id},
                new byte[0],
                id * 7,
                (int) Math.floorMod(millis, 86_400_000L),
                Timestamp.fromEpochMillis(Math.floorDiv(millis, 1000) * 1000),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, Math.floorMod(id, 1000) * 1000),
                Timestamp.fromEpochMillis(millis, Math.floorMod(id * 7919, 1_000_000)),
                Timestamp.fromEpochMillis(Math.floorDiv(millis, 1000) * 1000),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, Math.floorMod(id, 1000) * 1000),
                Timestamp.fromEpochMillis(millis, Math.floorMod(id * 7919, 1_000_000)),
                id % 3 == 0 ? null : BinaryString.fromString("last"));
    }

    private static Schema typesSchema(String format)
    {
        Schema.Builder schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal_short", DataTypes.DECIMAL(10, 2))
                .column("c_decimal_long", DataTypes.DECIMAL(38, 10))
                .column("c_char", DataTypes.CHAR(5))
                .column("c_varchar", DataTypes.VARCHAR(20))
                .column("c_string", DataTypes.STRING())
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME(3))
                .column("c_ts3", DataTypes.TIMESTAMP(3))
                .column("c_ts6", DataTypes.TIMESTAMP(6))
                .column("c_ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("c_ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .column("c_array", DataTypes.ARRAY(DataTypes.INT()))
                .column("c_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("c_row", DataTypes.ROW(DataTypes.FIELD(100, "a", DataTypes.INT()), DataTypes.FIELD(101, "b", DataTypes.STRING())));
        if (format.equals("orc")) {
            // Avro holds timestamps up to microseconds only
            schema.column("c_ts9", DataTypes.TIMESTAMP(9));
        }
        return schema.primaryKey("id")
                .option("bucket", Integer.toString(BUCKETS))
                .option("file.format", format)
                .option("write-only", "true")
                .build();
    }

    private static GenericRow typesRow(Random random, long id, boolean withNanos)
    {
        long millis = Math.floorMod(random.nextLong(), 4_000_000_000_000L) - 1_000_000_000_000L;
        List<Object> values = new ArrayList<>(List.of(
                id,
                random.nextBoolean(),
                (byte) random.nextInt(),
                (short) random.nextInt(),
                random.nextInt(),
                random.nextFloat(),
                random.nextDouble(),
                Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2), 10, 2),
                Decimal.fromBigDecimal(new BigDecimal(new java.math.BigInteger(90, random).negate(), 10), 38, 10),
                BinaryString.fromString("ab" + random.nextInt(10)),
                BinaryString.fromString("v" + random.nextInt(1000)),
                BinaryString.fromString("string-é-" + random.nextInt()),
                new byte[] {(byte) random.nextInt(), 1, 2},
                random.nextInt(40_000) - 20_000,
                random.nextInt(86_400_000),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, random.nextInt(1000) * 1000),
                Timestamp.fromEpochMillis(millis),
                Timestamp.fromEpochMillis(millis, random.nextInt(1000) * 1000),
                new GenericArray(new Object[] {random.nextInt(), null, 3}),
                new GenericMap(Map.of(BinaryString.fromString("k" + random.nextInt(10)), random.nextLong())),
                GenericRow.of(random.nextInt(), BinaryString.fromString("nested"))));
        if (withNanos) {
            values.add(Timestamp.fromEpochMillis(millis, random.nextInt(1_000_000)));
        }
        // every other row leaves the nullable columns null
        if (id % 5 == 0) {
            for (int i = 1; i < values.size(); i++) {
                values.set(i, null);
            }
        }
        return GenericRow.of(values.toArray());
    }
}
