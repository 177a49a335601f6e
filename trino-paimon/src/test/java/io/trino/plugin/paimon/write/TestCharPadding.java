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

import com.google.common.collect.ImmutableMap;
import io.trino.orc.FileOrcDataSource;
import io.trino.orc.OrcReader;
import io.trino.orc.OrcReaderOptions;
import io.trino.orc.metadata.ColumnMetadata;
import io.trino.orc.metadata.OrcColumnId;
import io.trino.orc.metadata.OrcType;
import io.trino.orc.metadata.statistics.StringStatistics;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CHAR(n) values written through Trino are stored padded to n characters, as Flink and Spark hand them to Paimon:
 * Paimon Java 1.4.2 (the oracle) reads the padded strings back at the top level and nested in arrays, maps and rows,
 * in every format, after INSERT, UPDATE, MERGE and optimize; primary keys, partition values, bucket numbers, key
 * ranges and statistics equal those of Paimon Java writing the padded values itself. Trino reads the values back
 * without trailing spaces, its CHAR semantic.
 */
final class TestCharPadding
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "char_padding";

    TestCharPadding()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        for (String format : List.of("parquet", "orc", "avro")) {
            paimon.createTable(DATABASE, "nested_" + format, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("c", DataTypes.CHAR(5))
                    .column("a", DataTypes.ARRAY(DataTypes.CHAR(3)))
                    .column("m", DataTypes.MAP(DataTypes.CHAR(2).notNull(), DataTypes.CHAR(4)))
                    .column("r", DataTypes.ROW(DataTypes.FIELD(10, "x", DataTypes.CHAR(3)), DataTypes.FIELD(11, "y", DataTypes.INT())))
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("file.format", format)
                    .build());
        }
        paimon.createTable(DATABASE, "append_chars", Schema.newBuilder()
                .column("c", DataTypes.CHAR(4))
                .column("a", DataTypes.ARRAY(DataTypes.CHAR(2)))
                .option("bucket", "-1")
                .build());
        for (String table : List.of("ordered_java", "ordered_trino")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("k", DataTypes.CHAR(3))
                    .column("v", DataTypes.INT())
                    .primaryKey("k")
                    .option("bucket", "1")
                    .build());
        }
        paimon.createTable(DATABASE, "dynamic", Schema.newBuilder()
                .column("k", DataTypes.CHAR(3))
                .column("v", DataTypes.INT())
                .primaryKey("k")
                .option("bucket", "-1")
                .option("dynamic-bucket.target-row-num", "1")
                .build());
        for (String table : List.of("keyed", "keyed_java")) {
            paimon.createTable(DATABASE, table, Schema.newBuilder()
                    .column("p", DataTypes.CHAR(4))
                    .column("k", DataTypes.CHAR(3))
                    .column("v", DataTypes.CHAR(6))
                    .primaryKey("p", "k")
                    .partitionKeys("p")
                    .option("bucket", "4")
                    .build());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void everyCharValueIsStoredPadded(String format)
    {
        String table = "nested_" + format;
        assertUpdate("""
                INSERT INTO %s VALUES
                    (1, CAST('' AS char(5)), ARRAY[CAST('' AS char(3)), 'a', NULL], MAP(ARRAY[CAST('' AS char(2)), 'k'], ARRAY[CAST('' AS char(4)), 'vv']), CAST(ROW('', 1) AS row(x char(3), y integer))),
                    (2, '     ', ARRAY['   '], MAP(ARRAY[CAST('  ' AS char(2))], ARRAY[CAST(NULL AS char(4))]), CAST(ROW(' ', 2) AS row(x char(3), y integer))),
                    (3, 'ab', ARRAY['abc', 'x y'], MAP(ARRAY[CAST('ab' AS char(2))], ARRAY[CAST('ü' AS char(4))]), CAST(ROW('z', 3) AS row(x char(3), y integer))),
                    (4, 'abcde', ARRAY[], MAP(), CAST(ROW(NULL, 4) AS row(x char(3), y integer))),
                    (5, NULL, NULL, NULL, NULL)
                """.formatted(table), 5);
        assertUpdate("UPDATE %s SET c = 'u', a = ARRAY['b'] WHERE id = 3".formatted(table), 1);
        assertUpdate("""
                MERGE INTO %s t USING (VALUES 4, 6) s(id) ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET r = CAST(ROW('m', 40) AS row(x char(3), y integer))
                    WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'é', ARRAY['é'], MAP(ARRAY[CAST('é' AS char(2))], ARRAY[CAST('é' AS char(4))]), CAST(ROW('é', 6) AS row(x char(3), y integer)))
                """.formatted(table), 2);

        List<List<Object>> expected = List.of(
                Arrays.asList(1, "     ", Arrays.asList("   ", "a  ", null), ImmutableMap.of("  ", "    ", "k ", "vv  "), List.of("   ", 1)),
                Arrays.asList(2, "     ", List.of("   "), mapOfNullValue("  "), List.of("   ", 2)),
                Arrays.asList(3, "u    ", List.of("b  "), ImmutableMap.of("ab", "ü   "), List.of("z  ", 3)),
                Arrays.asList(4, "abcde", List.of(), ImmutableMap.of(), List.of("m  ", 40)),
                Arrays.asList(5, null, null, null, null),
                Arrays.asList(6, "é    ", List.of("é  "), ImmutableMap.of("é ", "é   "), List.of("é  ", 6)));
        // ORC's own reader, which Paimon Java reads ORC files with, trims CHAR values: the padding shows in the
        // file's statistics only
        List<List<Object>> paimonJavaReads = format.equals("orc") ? withoutTrailingSpaces(expected) : expected;
        assertThat(storedValues(table)).isEqualTo(paimonJavaReads);
        assertTrinoReadsWithoutTrailingSpaces(table);

        // a compaction reads the values back (without trailing spaces) and writes them again
        assertUpdate("ALTER TABLE %s EXECUTE optimize".formatted(table));
        assertThat(storedValues(table)).isEqualTo(paimonJavaReads);
        assertTrinoReadsWithoutTrailingSpaces(table);
        if (format.equals("orc")) {
            // one file after optimize: c from "     " (ids 1, 2) to "é    ", the elements of a from "   " to "é  "
            assertThat(orcStringRange(table, "c")).isEqualTo(List.of("     ", "é    "));
            assertThat(orcStringRange(table, "a")).isEqualTo(List.of("   ", "é  "));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T withoutTrailingSpaces(T value)
    {
        return (T) switch (value) {
            case String string -> string.stripTrailing();
            case List<?> list -> list.stream().map(TestCharPadding::withoutTrailingSpaces).collect(ArrayList::new, ArrayList::add, ArrayList::addAll);
            case Map<?, ?> map -> {
                Map<Object, Object> result = new LinkedHashMap<>();
                map.forEach((key, entry) -> result.put(withoutTrailingSpaces(key), withoutTrailingSpaces(entry)));
                yield result;
            }
            case null -> null;
            default -> value;
        };
    }

    // min and max of a string column of the table's only live ORC file (of the element, for an array column), from
    // the file's statistics
    private List<String> orcStringRange(String table, String column)
    {
        List<ManifestEntry> entries = ((FileStoreTable) paimon().getTable(DATABASE, table)).store().newScan().plan().files();
        assertThat(entries).hasSize(1);
        Path file = root().resolve("warehouse/%s.db/%s/bucket-0/%s".formatted(DATABASE, table, entries.getFirst().file().fileName()));
        OrcReaderOptions options = new OrcReaderOptions();
        try (FileOrcDataSource source = new FileOrcDataSource(file.toFile(), options)) {
            OrcReader reader = OrcReader.createOrcReader(source, options).orElseThrow();
            ColumnMetadata<OrcType> types = reader.getFooter().getTypes();
            OrcType root = types.get(OrcColumnId.ROOT_COLUMN);
            OrcColumnId id = root.getFieldTypeIndex(root.getFieldNames().indexOf(column));
            if (types.get(id).getOrcTypeKind() == OrcType.OrcTypeKind.LIST) {
                id = types.get(id).getFieldTypeIndex(0);
            }
            StringStatistics statistics = reader.getFooter().getFileStats().orElseThrow().get(id).getStringStatistics();
            return List.of(statistics.getMin().toStringUtf8(), statistics.getMax().toStringUtf8());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // Trino compares CHAR values by their bytes, without trailing spaces: a value read padded would equal nothing here
    private void assertTrinoReadsWithoutTrailingSpaces(String table)
    {
        List<List<Object>> rows = computeActual("""
                SELECT t.id, t.c IS NOT DISTINCT FROM v.c, t.a IS NOT DISTINCT FROM v.a, element_at(t.m, v.k) IS NOT DISTINCT FROM v.mv, t.r.x IS NOT DISTINCT FROM v.x
                FROM %s t JOIN (VALUES
                    (1, CAST('' AS char(5)), ARRAY[CAST('' AS char(3)), 'a', NULL], CAST('k' AS char(2)), CAST('vv' AS char(4)), CAST('' AS char(3))),
                    (2, '', ARRAY[''], '', NULL, ''),
                    (3, 'u', ARRAY['b'], 'ab', 'ü', 'z'),
                    (4, 'abcde', ARRAY[], '', NULL, 'm'),
                    (5, NULL, NULL, '', NULL, NULL),
                    (6, 'é', ARRAY['é'], 'é', 'é', 'é')) v(id, c, a, k, mv, x) ON t.id = v.id
                ORDER BY t.id
                """.formatted(table))
                .getMaterializedRows().stream()
                .map(row -> row.getFields())
                .toList();
        assertThat(rows).isEqualTo(List.of(
                List.of(1, true, true, true, true),
                List.of(2, true, true, true, true),
                List.of(3, true, true, true, true),
                List.of(4, true, true, true, true),
                List.of(5, true, true, true, true),
                List.of(6, true, true, true, true)));
        // and the key '' of the first row's map is found by its value without spaces; compared as CHAR, since a cast to
        // VARCHAR pads the value on Trino 476 but not since Trino 482
        assertQuery("SELECT element_at(m, CAST('' AS char(2))) = CAST('' AS char(4)) FROM %s WHERE id = 1".formatted(table), "VALUES true");
    }

    @Test
    void appendTablesStoreCharValuesPadded()
    {
        assertUpdate("INSERT INTO append_chars VALUES ('', ARRAY['', 'a']), ('abc', ARRAY[])", 2);
        assertThat(storedValues("append_chars")).containsExactlyInAnyOrder(
                List.of("    ", List.of("  ", "a ")),
                List.of("abc ", List.of()));
    }

    @Test
    void keysPartitionsAndStatisticsAreThoseOfPaddedValues()
    {
        List<String[]> rows = List.of(
                new String[] {"", "", ""},
                new String[] {"", "a", "x"},
                new String[] {"ab", "", "yy"},
                new String[] {"ab", "b", null},
                new String[] {"ab", "bc", "bc"},
                new String[] {"abcd", "ccc", "cccccc"},
                new String[] {"abcd", "d", " "},
                new String[] {"abcd", "e f", "e"});
        StringBuilder values = new StringBuilder();
        List<GenericRow> paddedRows = new ArrayList<>();
        for (String[] row : rows) {
            values.append(values.isEmpty() ? "" : ", ")
                    .append("('%s', '%s', %s)".formatted(row[0], row[1], row[2] == null ? "NULL" : "'" + row[2] + "'"));
            // Flink and Spark hand Paimon CHAR values padded
            paddedRows.add(GenericRow.of(padded(row[0], 4), padded(row[1], 3), row[2] == null ? null : padded(row[2], 6)));
        }
        assertUpdate("INSERT INTO keyed VALUES " + values, rows.size());
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "keyed_java"), paddedRows);

        assertThat(sortedText(storedValues("keyed"))).isEqualTo(sortedText(storedValues("keyed_java")));
        assertThat(fileDescriptions("keyed")).isEqualTo(fileDescriptions("keyed_java"));
        assertThat(partitionFolders("keyed")).isEqualTo(partitionFolders("keyed_java"))
                // Paimon names a partition whose value is only spaces by the default partition name
                .containsExactly("p=__DEFAULT_PARTITION__", "p=ab  ", "p=abcd");
        // Paimon Java finds each key by its padded value, in the bucket of the padded value
        assertUpdate("UPDATE keyed SET v = 'new' WHERE k = 'b'", 1);
        assertThat(sortedText(storedValues("keyed"))).contains("[ab  , b  , new   ]").doesNotContain("[ab  , b  , null]");
        assertQuery("SELECT count(*) FROM keyed", "VALUES " + rows.size());
        assertQuery("SELECT count(*) FROM keyed WHERE p = 'ab' AND k = 'b' AND v = 'new'", "VALUES 1");
    }

    @Test
    void charKeysOrderAsTheirPaddedValues()
    {
        // padded, "a\t " sorts before "a  " (a tab is below a space): Paimon Java's file holds them in that order
        PaimonJavaCatalog.write(paimon().getTable(DATABASE, "ordered_java"), List.of(
                GenericRow.of(BinaryString.fromString("a  "), 1),
                GenericRow.of(BinaryString.fromString("a\t "), 2)));
        // a second sorted run replaces "a  "; the merge must meet both runs' "a  " as one key
        assertUpdate("INSERT INTO ordered_java VALUES ('a', 10)", 1);
        assertQuery("SELECT v, k = 'a' FROM ordered_java", "VALUES (10, true), (2, false)");
        assertThat(sortedText(storedValues("ordered_java"))).containsExactly("[a\t , 2]", "[a  , 10]");

        // Trino's own file is sorted the same way, and its key range says so
        assertUpdate("INSERT INTO ordered_trino VALUES ('a', 1), ('a' || chr(9), 2)", 2);
        List<ManifestEntry> entries = ((FileStoreTable) paimon().getTable(DATABASE, "ordered_trino")).store().newScan().plan().files();
        assertThat(entries).hasSize(1);
        assertThat(text(entries.getFirst().file().minKey(), 1)).isEqualTo("['a\t ']");
        assertThat(text(entries.getFirst().file().maxKey(), 1)).isEqualTo("['a  ']");
        assertThat(PaimonJavaValues.readStoredValues(paimon().getTable(DATABASE, "ordered_trino")))
                .containsExactly(List.of("a\t ", 2), List.of("a  ", 1));
    }

    @Test
    void dynamicBucketsFindCharKeysByTheirPaddedHash()
    {
        // one key per bucket: the key index of Paimon's assigner holds the hashes of the padded keys
        PaimonJavaCatalog.writeDynamicBuckets(paimon().getTable(DATABASE, "dynamic"), List.of(
                GenericRow.of(BinaryString.fromString("a  "), 1),
                GenericRow.of(BinaryString.fromString("b  "), 2)));
        assertUpdate("INSERT INTO dynamic VALUES ('b', 20), ('c', 3)", 2);
        // "b" is found in its bucket and replaced there, "c" opens a bucket of its own
        assertThat(sortedText(storedValues("dynamic"))).containsExactly("[a  , 1]", "[b  , 20]", "[c  , 3]");
        List<ManifestEntry> entries = ((FileStoreTable) paimon().getTable(DATABASE, "dynamic")).store().newScan().plan().files();
        assertThat(entries.stream().map(ManifestEntry::bucket).distinct().count()).isEqualTo(3);
    }

    private static BinaryString padded(String value, int length)
    {
        return BinaryString.fromString(value + " ".repeat(length - value.length()));
    }

    private static Map<String, String> mapOfNullValue(String key)
    {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(key, null);
        return map;
    }

    private List<List<Object>> storedValues(String table)
    {
        List<List<Object>> rows = new ArrayList<>(PaimonJavaValues.readStoredValues(paimon().getTable(DATABASE, table)));
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    private static List<String> sortedText(List<List<Object>> rows)
    {
        return rows.stream().map(Object::toString).sorted().toList();
    }

    // per data file: partition, bucket, key range, row count and value statistics, as Paimon Java reads the manifests
    private List<String> fileDescriptions(String table)
    {
        List<ManifestEntry> entries = ((FileStoreTable) paimon().getTable(DATABASE, table)).store().newScan().plan().files();
        return entries.stream()
                .map(entry -> {
                    DataFileMeta file = entry.file();
                    return "%s/%s %s..%s rows=%s keyStats=%s..%s valueStats=%s..%s nulls=%s".formatted(
                            text(entry.partition(), 1), entry.bucket(), text(file.minKey(), 1), text(file.maxKey(), 1), file.rowCount(),
                            text(file.keyStats().minValues(), 1), text(file.keyStats().maxValues(), 1),
                            text(file.valueStats().minValues(), 3), text(file.valueStats().maxValues(), 3),
                            Arrays.toString(file.valueStats().nullCounts().toLongArray()));
                })
                .sorted()
                .toList();
    }

    private static String text(BinaryRow row, int fields)
    {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < fields; i++) {
            values.add(row.isNullAt(i) ? "null" : "'" + row.getString(i) + "'");
        }
        return values.toString();
    }

    private List<String> partitionFolders(String table)
    {
        try (Stream<Path> folders = Files.list(root().resolve("warehouse/%s.db/%s".formatted(DATABASE, table)))) {
            return folders.map(folder -> folder.getFileName().toString())
                    .filter(name -> name.startsWith("p="))
                    .sorted()
                    .toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
