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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.orc.OrcColumn;
import io.trino.orc.OrcReader;
import io.trino.orc.OrcReaderOptions;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.reader.MetadataReader;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonJavaValues;
import io.trino.plugin.paimon.testing.ScanStatistics;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables Paimon Java 1.4.2 writes with {@code data-file.thin-mode}: their key-value files leave out the
 * {@code _KEY_} columns, and the key is read from the table columns, as Paimon Java's reader always takes it. Each
 * format, each merge engine over several sorted runs, deletion vectors, a bucket holding files of both layouts after
 * the option was switched on, and key predicates pruning files and row groups as on tables with the key copies.
 * Trino's writes into a thin table leave the copies out too, and Paimon Java reads and compacts them.
 */
final class TestThinModeFiles
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "thin";
    private static final List<String> FORMATS = List.of("parquet", "orc", "avro");

    TestThinModeFiles()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // three sorted runs of overlapping keys in two partitions, the last deleting some keys
        for (String format : FORMATS) {
            Table table = paimon.createTable(DATABASE, "dedup_" + format, Schema.newBuilder()
                    .column("dt", DataTypes.STRING().notNull())
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("v", DataTypes.STRING())
                    .column("k", DataTypes.STRING().notNull())
                    .column("n", DataTypes.INT())
                    .partitionKeys("dt")
                    .primaryKey("dt", "id", "k")
                    .options(thin(format))
                    .option("bucket", "2")
                    .build());
            for (int commit = 0; commit < 3; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (long id = commit * 20L; id < 60 + commit * 20L; id++) {
                    for (String dt : List.of("d1", "d2")) {
                        RowKind kind = commit == 2 && id % 7 == 0 ? RowKind.DELETE : RowKind.INSERT;
                        rows.add(GenericRow.ofKind(kind, s(dt), id, s("c" + commit), s("k" + id % 3), commit * 1000 + (int) id));
                    }
                }
                PaimonJavaCatalog.write(table, rows);
            }
        }

        Table partial = paimon.createTable(DATABASE, "partial_parquet", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .options(thin("parquet"))
                .option("bucket", "1")
                .option("merge-engine", "partial-update")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = 0; id < 30; id++) {
                rows.add(GenericRow.of(id, id % 3 == commit ? s("a" + commit) : null, id % 2 == commit % 2 ? commit * 100 + id : null));
            }
            PaimonJavaCatalog.write(partial, rows);
        }

        Table aggregation = paimon.createTable(DATABASE, "aggregation_orc", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .column("latest", DataTypes.STRING())
                .primaryKey("id")
                .options(thin("orc"))
                .option("bucket", "2")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.latest.aggregate-function", "last_non_null_value")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int id = commit * 10; id < 40 + commit * 10; id++) {
                rows.add(GenericRow.of(id, (long) id * (commit + 1), id % 3 == commit ? null : s("c" + commit)));
            }
            PaimonJavaCatalog.write(aggregation, rows);
        }

        // lookup compaction marks the rows each commit replaces in deeper runs with deletion vectors
        Table deletionVectors = paimon.createTable(DATABASE, "dv_parquet", Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("data-file.thin-mode", "true")
                .option("bucket", "2")
                .option("deletion-vectors.enabled", "true")
                .build());
        PaimonJavaCatalog.write(deletionVectors, valueRows(0, 200, "first"));
        PaimonJavaCatalog.write(deletionVectors, valueRows(0, 40, "second"));
        PaimonJavaCatalog.write(deletionVectors, valueRows(35, 45, "third"));

        // files with the key copies, then the option switched on: one bucket holds both layouts
        for (String format : FORMATS) {
            String name = "mixed_" + format;
            Table mixed = paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("file.format", format)
                    .option("bucket", "1")
                    .option("write-only", "true")
                    .build());
            PaimonJavaCatalog.write(mixed, valueRows(0, 50, "wide"));
            paimon.alterTable(DATABASE, name, SchemaChange.setOption("data-file.thin-mode", "true"));
            PaimonJavaCatalog.write(paimon.getTable(DATABASE, name), valueRows(25, 75, "thin"));
        }

        // one sorted run per commit, each of its own key range, in small row groups: for pruning
        for (String layout : List.of("thin", "wide")) {
            Table table = paimon.createTable(DATABASE, "ranges_" + layout, Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("data-file.thin-mode", Boolean.toString(layout.equals("thin")))
                    .option("bucket", "1")
                    .option("write-only", "true")
                    .option("parquet.block.size", "2048")
                    .option("parquet.page.size", "512")
                    .build());
            for (int commit = 0; commit < 4; commit++) {
                PaimonJavaCatalog.write(table, valueRows(commit * 5_000L, (commit + 1) * 5_000L, "v"));
            }
        }
    }

    @Test
    void everyFormatReadsAsPaimonJavaReadsIt()
    {
        for (String format : FORMATS) {
            Table table = paimon().getTable(DATABASE, "dedup_" + format);
            assertThat(keyCopies(table)).as(format).containsOnly(false);
            // keys 0-99 in each partition, less the multiples of 7 in 40-99 the last run deleted
            assertSameRows(table, "SELECT * FROM dedup_" + format, 2 * (100 - 9));
        }
        assertThat(computeActual("SELECT v, count(*) FROM dedup_orc WHERE dt = 'd1' GROUP BY v").getMaterializedRows().stream().map(Object::toString).sorted().toList())
                .containsExactly("[c0, 20]", "[c1, 20]", "[c2, 51]");
    }

    @Test
    void partialUpdateAndAggregationMergeThinRuns()
    {
        assertSameRows(paimon().getTable(DATABASE, "partial_parquet"), "SELECT * FROM partial_parquet", 30);
        assertSameRows(paimon().getTable(DATABASE, "aggregation_orc"), "SELECT * FROM aggregation_orc", 60);
        // key 20 is in all three runs: 20 + 40 + 60
        assertThat(computeActual("SELECT total FROM aggregation_orc WHERE id = 20").getOnlyValue()).isEqualTo(120L);
    }

    @Test
    void deletionVectorsDropRowsOfThinFiles()
    {
        Table table = paimon().getTable(DATABASE, "dv_parquet");
        assertThat(keyCopies(table)).containsOnly(false);
        assertSameRows(table, "SELECT * FROM dv_parquet", 200);
        assertThat(computeActual("SELECT v, count(*) FROM dv_parquet GROUP BY v").getMaterializedRows().stream().map(Object::toString).sorted().toList())
                .containsExactly("[first, 155]", "[second, 35]", "[third, 10]");
    }

    @Test
    void oneBucketMixesFilesWithAndWithoutKeyCopies()
    {
        for (String format : FORMATS) {
            Table table = paimon().getTable(DATABASE, "mixed_" + format);
            assertThat(keyCopies(table)).as(format).containsExactlyInAnyOrder(true, false);
            assertSameRows(table, "SELECT * FROM mixed_" + format, 75);
            assertThat(computeActual("SELECT v, count(*), min(id), max(id) FROM mixed_%s GROUP BY v".formatted(format)).getMaterializedRows().stream().map(Object::toString).sorted().toList())
                    .as(format)
                    .containsExactly("[thin, 50, 25, 74]", "[wide, 25, 0, 24]");
        }
    }

    @Test
    void keyPredicatesPruneThinFilesAndRowGroups()
    {
        assertThat(keyCopies(paimon().getTable(DATABASE, "ranges_thin"))).containsOnly(false);
        assertThat(keyCopies(paimon().getTable(DATABASE, "ranges_wide"))).containsOnly(true);
        for (String layout : List.of("thin", "wide")) {
            ScanStatistics whole = ScanStatistics.execute(getQueryRunner(), "SELECT count(*) FROM ranges_" + layout);
            ScanStatistics lookup = ScanStatistics.execute(getQueryRunner(), "SELECT id, v FROM ranges_%s WHERE id = 12345".formatted(layout));
            assertThat(whole.result().getOnlyValue()).as(layout).isEqualTo(20_000L);
            assertThat(lookup.result().getMaterializedRows().stream().map(Object::toString).toList()).as(layout).containsExactly("[12345, v]");
            // the files' key ranges leave one of the four runs, and that run's row group statistics one row group
            assertThat(whole.filesOpened()).as(layout).isEqualTo(4);
            assertThat(lookup.filesOpened()).as(layout).isEqualTo(1);
            assertThat(whole.rowGroupsRead()).as(layout).isGreaterThan(20);
            assertThat(lookup.rowGroupsRead()).as(layout).isEqualTo(1);
            assertThat(computeActual("SELECT count(*), min(id), max(id) FROM ranges_%s WHERE id BETWEEN 4990 AND 5010".formatted(layout)).getMaterializedRows().getFirst().toString())
                    .as(layout)
                    .isEqualTo("[21, 4990, 5010]");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc", "avro"})
    void trinoWritesThinFilesThatPaimonJavaReadsAndCompacts(String format)
    {
        String written = "written_" + format;
        paimon().createTable(DATABASE, written, Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("k", DataTypes.STRING().notNull())
                .column("v", DataTypes.STRING())
                .column("n", DataTypes.INT())
                .primaryKey("id", "k")
                .option("data-file.thin-mode", "true")
                .option("file.format", format)
                .option("bucket", "2")
                .build());
        assertUpdate("INSERT INTO " + written + " VALUES (1, 'a', 'one', 10), (2, 'b', 'two', 20), (3, 'c', 'three', 30), (4, 'd', 'four', 40)", 4);
        assertUpdate("UPDATE " + written + " SET n = n + 100 WHERE id IN (2, 3)", 2);
        assertUpdate("DELETE FROM " + written + " WHERE id = 4", 1);
        assertUpdate("INSERT INTO " + written + " VALUES (5, 'e', 'five', 50), (1, 'a', 'uno', 11)", 2);
        // the updated rows keep the kind of their update
        List<String> expected = List.of("+I(1, a, uno, 11)", "+I(5, e, five, 50)", "+U(2, b, two, 120)", "+U(3, c, three, 130)");

        Table table = paimon().getTable(DATABASE, written);
        assertThat(keyCopies(table)).containsOnly(false);
        assertThat(PaimonJavaCatalog.readRows(table)).isEqualTo(expected);
        // each file's key statistics are its key columns' value statistics, and bound its first and last key
        for (DataFileMeta file : dataFiles(table)) {
            assertThat(file.keyStats().nullCounts().getLong(0)).as(file.fileName()).isZero();
            assertThat(file.keyStats().minValues().getLong(0)).as(file.fileName()).isEqualTo(file.minKey().getLong(0)).isEqualTo(file.valueStats().minValues().getLong(0));
            assertThat(file.keyStats().maxValues().getLong(0)).as(file.fileName()).isEqualTo(file.maxKey().getLong(0)).isEqualTo(file.valueStats().maxValues().getLong(0));
            assertThat(file.keyStats().minValues().getString(1)).as(file.fileName()).isEqualTo(file.minKey().getString(1)).isEqualTo(file.valueStats().minValues().getString(1));
            assertThat(file.keyStats().maxValues().getString(1)).as(file.fileName()).isEqualTo(file.maxKey().getString(1)).isEqualTo(file.valueStats().maxValues().getString(1));
        }

        // Paimon Java compacts our files into its own thin files
        PaimonJavaCatalog.compact(table, root(), 2, _ -> true);
        table = paimon().getTable(DATABASE, written);
        assertThat(dataFiles(table)).allMatch(file -> file.level() == 5);
        assertThat(keyCopies(table)).containsOnly(false);
        // a full compaction writes every row as an insert
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, a, uno, 11)", "+I(2, b, two, 120)", "+I(3, c, three, 130)", "+I(5, e, five, 50)");
        assertThat(computeActual("SELECT * FROM " + written).getMaterializedRows().stream().map(row -> row.getFields().toString()).sorted().toList())
                .containsExactly("[1, a, uno, 11]", "[2, b, two, 120]", "[3, c, three, 130]", "[5, e, five, 50]");

        // and we compact theirs and ours, in thin files again
        assertUpdate("INSERT INTO " + written + " VALUES (6, 'f', 'six', 60)", 1);
        getQueryRunner().execute("ALTER TABLE " + written + " EXECUTE optimize");
        table = paimon().getTable(DATABASE, written);
        assertThat(keyCopies(table)).containsOnly(false);
        assertThat(PaimonJavaCatalog.readRows(table)).containsExactly("+I(1, a, uno, 11)", "+I(2, b, two, 120)", "+I(3, c, three, 130)", "+I(5, e, five, 50)", "+I(6, f, six, 60)");
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

    // the live data files of the table's latest snapshot, as Paimon Java plans them
    private static List<DataFileMeta> dataFiles(Table table)
    {
        return table.newReadBuilder().newScan().plan().splits().stream()
                .flatMap(split -> ((DataSplit) split).dataFiles().stream())
                .toList();
    }

    // for each data file of the table, whether it holds _KEY_ columns
    private Set<Boolean> keyCopies(Table table)
    {
        Path location = root().resolve("warehouse").resolve(DATABASE + ".db").resolve(table.name());
        try (Stream<Path> files = Files.walk(location)) {
            return files.filter(path -> path.getFileName().toString().startsWith("data-"))
                    .map(path -> columnNames(path).stream().anyMatch(name -> name.regionMatches(true, 0, "_KEY_", 0, 5)))
                    .collect(toImmutableSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // the top-level column names of a data file, read from its footer or header (Trino's Parquet footer reader lowercases them)
    static List<String> columnNames(Path file)
    {
        String name = file.getFileName().toString();
        try {
            if (name.endsWith(".avro")) {
                try (DataFileReader<Object> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
                    return reader.getSchema().getFields().stream().map(field -> field.name()).toList();
                }
            }
            TrinoInputFile input = new LocalFileSystem(file.getParent()).newInputFile(Location.of("local:///" + name));
            long size = Files.size(file);
            if (name.endsWith(".orc")) {
                OrcReaderOptions options = new OrcReaderOptions();
                OrcReader reader = OrcReader.createOrcReader(new OrcFileDataSource(input, size, options), options).orElseThrow();
                return reader.getRootColumn().getNestedColumns().stream().map(OrcColumn::getColumnName).toList();
            }
            return MetadataReader.readFooter(new ParquetFileDataSource(input, size, ParquetReaderOptions.defaultOptions()), Optional.empty())
                    .getFileMetaData().getSchema().getFields().stream()
                    .map(field -> field.getName())
                    .toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> thin(String format)
    {
        return Map.of("data-file.thin-mode", "true", "file.format", format, "write-only", "true");
    }

    private static List<GenericRow> valueRows(long from, long to, String value)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, s(value)));
        }
        return rows;
    }

    private static BinaryString s(String value)
    {
        return BinaryString.fromString(value);
    }
}
