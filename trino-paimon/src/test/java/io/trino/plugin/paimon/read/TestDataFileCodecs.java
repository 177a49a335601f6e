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
import org.apache.orc.OrcProto;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static com.google.common.base.Throwables.getStackTraceAsString;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.regex.Pattern.quote;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every {@code file.compression} Paimon 1.4.2 accepts for each data file format, written by Paimon Java with many
 * pages, row groups, stripes and Avro blocks, and read by Trino exactly as Paimon Java reads it. The codecs are those
 * of Paimon's writers: ORC {@code CompressionKind.valueOf} (Paimon's {@code WriterImpl.createCodec}), Parquet
 * {@code CompressionCodecName.fromConf} (plus Paimon's {@code none}), Avro {@code CodecFactory.fromString} (plus
 * Paimon's {@code zstd}). The ones Paimon cannot write here are listed with the reason, and checked to fail; a
 * codec the connector cannot decompress fails the read with an error naming the file and the codec.
 */
final class TestDataFileCodecs
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "codecs";
    private static final int ROWS = 4_000;

    private static final Map<String, List<String>> WRITTEN = ImmutableMap.of(
            "orc", List.of("none", "zlib", "snappy", "lzo", "lz4", "zstd"),
            "parquet", List.of("none", "uncompressed", "snappy", "gzip", "lz4", "lz4_raw", "zstd"),
            // Parquet's v2 data pages, whose levels are never compressed
            "parquetv2", List.of("lz4_raw", "snappy"),
            "avro", List.of("null", "deflate", "snappy", "bzip2", "zstd", "zstandard"));

    // codec -> what Paimon Java 1.4.2 fails with when it writes it with the test class path
    private static final Map<String, Map<String, String>> NOT_WRITTEN = ImmutableMap.of(
            // Paimon's ORC WriterImpl.createCodec has no BROTLI case
            "orc", Map.of("brotli", "Unknown compression codec: BROTLI"),
            // parquet-hadoop loads Hadoop codec classes: hadoop-lzo (GPL) and a Brotli codec are not on the class path
            "parquet", Map.of(
                    "lzo", "com.hadoop.compression.lzo.LzoCodec",
                    "brotli", "org.apache.hadoop.io.compress.BrotliCodec"),
            // Avro's XZ codec needs org.tukaani:xz, which paimon-bundle does not carry
            "avro", Map.of("xz", "org.tukaani.xz.FilterOptions"));

    TestDataFileCodecs()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        for (Map.Entry<String, List<String>> format : WRITTEN.entrySet()) {
            for (String codec : format.getValue()) {
                Table table = createTable(paimon, format.getKey(), codec);
                writeRows(table);
            }
        }
        // files whose codec the connector cannot decompress: Paimon's snappy files, their footer or postscript
        // rewritten in place to say BROTLI
        writeRows(createTable(paimon, "parquet", "snappy", "brotli_parquet"));
        writeRows(createTable(paimon, "orc", "snappy", "brotli_orc"));
        // and an Avro file whose header names xz, which Paimon cannot write here
        writeRows(createTable(paimon, "avro", "null", "xz_avro"));
    }

    static Stream<Arguments> writtenCodecs()
    {
        return WRITTEN.entrySet().stream()
                .flatMap(format -> format.getValue().stream().map(codec -> Arguments.of(format.getKey(), codec)));
    }

    static Stream<Arguments> writtenCodecsWithRowGroups()
    {
        // Parquet row groups and ORC stripes; Avro files have no such thing
        return writtenCodecs().filter(arguments -> !arguments.get()[0].equals("avro"));
    }

    @ParameterizedTest
    @MethodSource("writtenCodecs")
    void readsAsPaimonJavaReads(String format, String codec)
    {
        String name = tableName(format, codec);
        Table table = paimon().getTable(DATABASE, name);
        List<String> expected = PaimonJavaValues.readValues(table).stream().map(Object::toString).sorted().toList();
        assertThat(expected).as(name).hasSize(ROWS);
        List<String> actual = computeActual("SELECT * FROM " + name).getMaterializedRows().stream()
                .map(PaimonJavaValues::values)
                .map(Object::toString)
                .sorted()
                .toList();
        assertThat(actual).as(name).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("writtenCodecsWithRowGroups")
    void readsAcrossRowGroupsAndStripes(String format, String codec)
    {
        String name = tableName(format, codec);
        ScanStatistics scan = ScanStatistics.execute(getQueryRunner(), "SELECT count(*), count(DISTINCT name), count(note), count(tags) FROM " + name);
        // 1 in 4 notes and 1 in 5 tag arrays are null
        assertThat(scan.result().getMaterializedRows().getFirst().toString()).as(name).isEqualTo("[%s, 50, %s, %s]".formatted(ROWS, ROWS * 3 / 4, ROWS * 4 / 5));
        assertThat(scan.rowGroupsRead()).as(name).isGreaterThan(3);
    }

    @ParameterizedTest
    @MethodSource("writtenCodecs")
    void keyPredicatesSkipRowGroups(String format, String codec)
    {
        String name = tableName(format, codec);
        assertThat(computeActual("SELECT count(*), min(id), max(id) FROM %s WHERE id BETWEEN 1990 AND 2010".formatted(name)).getMaterializedRows().getFirst().toString())
                .as(name)
                .isEqualTo("[21, 1990, 2010]");
    }

    @Test
    void physicalInputCountsBytesOfTheFiles()
            throws IOException
    {
        // the codecs decompressed here read each file's bytes at most twice (to lay it out, then as served), plus
        // the tail Trino's readers read for the footer (up to 64 kB); the decompressed bytes served are not input
        for (String name : List.of("parquet_lz4_raw", "orc_lzo")) {
            long fileBytes = 0;
            int files = 0;
            try (Stream<Path> paths = Files.walk(root().resolve("warehouse").resolve(DATABASE + ".db").resolve(name))) {
                for (Path path : paths.filter(path -> path.getFileName().toString().startsWith("data-")).toList()) {
                    fileBytes += Files.size(path);
                    files++;
                }
            }
            ScanStatistics scan = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM " + name);
            assertThat(scan.physicalInputBytes()).as(name).isPositive().isLessThanOrEqualTo(2 * fileBytes + files * 65_536L);
        }
    }

    @Test
    void codecsPaimonCannotWriteHere()
    {
        for (Map.Entry<String, Map<String, String>> format : NOT_WRITTEN.entrySet()) {
            for (Map.Entry<String, String> codec : format.getValue().entrySet()) {
                String name = "unwritten_" + format.getKey() + "_" + codec.getKey();
                Throwable failure = catchThrowable(() -> writeRows(createTable(paimon(), format.getKey(), codec.getKey(), name)));
                assertThat(failure).as(name).isNotNull();
                // the reason is in the failure, or is a class the write needs and cannot load
                assertThat(getStackTraceAsString(failure).contains(codec.getValue()) || !onClassPath(codec.getValue()))
                        .as("%s fails for want of %s", name, codec.getValue())
                        .isTrue();
            }
        }
    }

    private static boolean onClassPath(String className)
    {
        try {
            Class.forName(className);
            return true;
        }
        catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Test
    void parquetBrotliFailsNamingFileAndCodec()
            throws IOException
    {
        Path file = onlyDataFile("brotli_parquet");
        rewriteParquetCodec(file, CompressionCodec.BROTLI);
        assertQueryFails("SELECT * FROM brotli_parquet",
                "Paimon data file .*" + quote(file.getFileName().toString()) + ": column \\w+ is compressed with BROTLI, which the connector cannot decompress.*");
    }

    @Test
    void orcBrotliFailsNamingFileAndCodec()
            throws IOException
    {
        Path file = onlyDataFile("brotli_orc");
        rewriteOrcCompression(file, OrcProto.CompressionKind.BROTLI);
        assertQueryFails("SELECT * FROM brotli_orc",
                "Paimon data file .*" + quote(file.getFileName().toString()) + ": compressed with BROTLI, which the connector cannot decompress.*");
    }

    @Test
    void avroXzFailsNamingFileAndCodec()
            throws IOException
    {
        Path file = onlyDataFile("xz_avro");
        rewriteAvroCodec(file, "xz");
        assertQueryFails("SELECT * FROM xz_avro",
                "Paimon data file .*" + quote(file.getFileName().toString()) + ": compressed with xz, which the connector cannot decompress.*");
    }

    private static Table createTable(PaimonJavaCatalog paimon, String format, String codec)
    {
        return createTable(paimon, format, codec, tableName(format, codec));
    }

    private static Table createTable(PaimonJavaCatalog paimon, String format, String codec, String name)
    {
        return paimon.createTable(DATABASE, name, Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.DOUBLE())
                .column("note", DataTypes.STRING())
                .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                .primaryKey("id")
                .option("bucket", "1")
                .option("file.format", format.equals("parquetv2") ? "parquet" : format)
                .option("parquet.writer.version", format.equals("parquetv2") ? "v2" : "v1")
                .option("file.compression", codec)
                .option("write-only", "true")
                // small row groups and pages (Parquet), stripes, row groups and compression chunks (ORC)
                .option("parquet.block.size", "16384")
                .option("parquet.page.size", "2048")
                .option("parquet.page.row.count.limit", "200")
                .option("orc.stripe.size", "4096")
                .option("orc.rows.between.memory.checks", "200")
                .option("orc.row.index.stride", "1000")
                .option("orc.compress.size", "4096")
                .build());
    }

    // two commits, the second replacing every third key, so that the read merges two sorted runs
    private static void writeRows(Table table)
    {
        Random random = new Random(31);
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (long id = 0; id < ROWS; id++) {
                if (commit == 1 && id % 3 != 0) {
                    continue;
                }
                rows.add(GenericRow.of(
                        id,
                        BinaryString.fromString("name " + random.nextInt(50)),
                        random.nextDouble() * 1000,
                        id % 4 == 0 ? null : BinaryString.fromString("note %s of commit %s: %s".formatted(id, commit, Long.toHexString(random.nextLong()))),
                        id % 5 == 0 ? null : new GenericArray(new Object[] {BinaryString.fromString("t" + random.nextInt(9)), null, BinaryString.fromString("c" + commit)})));
            }
            PaimonJavaCatalog.write(table, rows);
        }
    }

    private static String tableName(String format, String codec)
    {
        return format + "_" + codec;
    }

    private Path onlyDataFile(String table)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(root().resolve("warehouse").resolve(DATABASE + ".db").resolve(table))) {
            List<Path> dataFiles = files.filter(path -> path.getFileName().toString().startsWith("data-")).collect(toImmutableList());
            assertThat(dataFiles).as(table).isNotEmpty();
            // the newest, highest sequence file is read first; any one file with a bad codec fails the read
            return dataFiles.getFirst();
        }
    }

    // rewrites the footer with every column chunk's codec replaced, keeping the file's length, which its manifest holds
    private static void rewriteParquetCodec(Path file, CompressionCodec codec)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int footerStart = bytes.length - 8 - footerLength;
        FileMetaData footer = Util.readFileMetaData(new ByteArrayInputStream(bytes, footerStart, footerLength));
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                chunk.getMeta_data().setCodec(codec);
            }
        }
        ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
        Util.writeFileMetaData(footer, rewritten);
        assertThat(rewritten.size()).isEqualTo(footerLength);
        System.arraycopy(rewritten.toByteArray(), 0, bytes, footerStart, footerLength);
        Files.write(file, bytes);
    }

    // renames the codec in the header of a file written with the null codec, padding the schema's JSON with spaces
    // so that the file keeps its length
    private static void rewriteAvroCodec(Path file, String codec)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        // a map entry: key length (zig-zag varint), key, value length, value
        String oldEntry = "\u0014avro.codec\u0008null";
        int at = text.indexOf(oldEntry);
        assertThat(at).as("codec entry in %s", file).isPositive();
        String newEntry = "\u0014avro.codec" + (char) (codec.length() * 2) + codec;
        int padding = oldEntry.length() - newEntry.length();
        int schemaKey = text.indexOf("\u0016avro.schema");
        assertThat(schemaKey).as("schema entry in %s", file).isPositive();
        int lengthAt = schemaKey + 12;
        // the schema's length: a zig-zag varint of one or two bytes
        long zigZag = bytes[lengthAt] & 0x7F;
        int lengthBytes = 1;
        if ((bytes[lengthAt] & 0x80) != 0) {
            zigZag |= (long) (bytes[lengthAt + 1] & 0x7F) << 7;
            lengthBytes = 2;
        }
        int schemaLength = (int) (zigZag >>> 1);
        int newZigZag = (schemaLength + padding) * 2;
        byte[] newLength = newZigZag < 0x80 ? new byte[] {(byte) newZigZag} : new byte[] {(byte) (newZigZag & 0x7F | 0x80), (byte) (newZigZag >>> 7)};
        assertThat(newLength.length).isEqualTo(lengthBytes);
        int schemaEnd = lengthAt + lengthBytes + schemaLength;
        String schema = new String(newLength, StandardCharsets.ISO_8859_1) + text.substring(lengthAt + lengthBytes, schemaEnd) + " ".repeat(padding);
        // the later of the two entries is replaced first, so that the earlier one's offsets hold
        if (at >= schemaEnd) {
            text = text.substring(0, at) + newEntry + text.substring(at + oldEntry.length());
            text = text.substring(0, lengthAt) + schema + text.substring(schemaEnd);
        }
        else {
            text = text.substring(0, lengthAt) + schema + text.substring(schemaEnd);
            text = text.substring(0, at) + newEntry + text.substring(at + oldEntry.length());
        }
        byte[] rewritten = text.getBytes(StandardCharsets.ISO_8859_1);
        assertThat(rewritten.length).isEqualTo(bytes.length);
        Files.write(file, rewritten);
    }

    // rewrites the postscript (the file's last bytes, its length in the very last byte) to name another compression
    private static void rewriteOrcCompression(Path file, OrcProto.CompressionKind compression)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        int postScriptLength = bytes[bytes.length - 1] & 0xFF;
        int postScriptStart = bytes.length - 1 - postScriptLength;
        OrcProto.PostScript postScript = OrcProto.PostScript.parseFrom(Arrays.copyOfRange(bytes, postScriptStart, bytes.length - 1));
        byte[] rewritten = postScript.toBuilder().setCompression(compression).build().toByteArray();
        assertThat(rewritten.length).isEqualTo(postScriptLength);
        System.arraycopy(rewritten, 0, bytes, postScriptStart, postScriptLength);
        Files.write(file, bytes);
    }
}
