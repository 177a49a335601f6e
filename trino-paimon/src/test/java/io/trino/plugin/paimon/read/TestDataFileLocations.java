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

import io.trino.Session;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables whose data files Paimon puts somewhere other than {@code <table>/<partition>/bucket-N}:
 * {@code data-file.path-directory} (a folder inside the table) and {@code data-file.external-paths} (roots outside it,
 * chosen per file by {@code data-file.external-paths.strategy}). Paimon Java 1.4.2 writes them; Trino reads exactly its
 * rows, writes where Paimon Java reads back, and expires snapshots and removes orphans without losing a live file.
 * <p>
 * The catalog's local file system is rooted at {@code /}, so the absolute {@code file:} paths Paimon Java records for
 * external files name the same files for Trino.
 */
final class TestDataFileLocations
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "placed";

    private TempWarehouse warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        PaimonJavaCatalog paimon = warehouse.paimon();
        paimon.createDatabase(DATABASE);

        Table inDirectory = paimon.createTable(DATABASE, "in_directory", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .option("data-file.path-directory", "data")
                .option("snapshot.num-retained.min", "1")
                .build());
        PaimonJavaCatalog.write(inDirectory, rows("a", 0, 20, "first"));
        PaimonJavaCatalog.write(inDirectory, rows("b", 10, 30, "second"));
        PaimonJavaCatalog.write(inDirectory, rows("a", 5, 15, "third"));

        Table external = paimon.createTable(DATABASE, "external", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("data-file.external-paths", "file://%s,file://%s".formatted(externalRoot("ext1"), externalRoot("ext2")))
                .option("data-file.external-paths.strategy", "round-robin")
                .option("snapshot.num-retained.min", "1")
                .build());
        PaimonJavaCatalog.write(external, unpartitioned(0, 40, "first"));
        PaimonJavaCatalog.write(external, unpartitioned(20, 60, "second"));
        // a full compaction deletes the files of both runs, in the external roots
        PaimonJavaCatalog.compact(external, warehouse.root(), 2, _ -> true);
        PaimonJavaCatalog.write(external, unpartitioned(50, 55, "third"));

        Table unused = paimon.createTable(DATABASE, "external_unused", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .option("data-file.external-paths", "file://" + externalRoot("ext3"))
                .build());
        PaimonJavaCatalog.write(unused, unpartitioned(0, 10, "first"));

        return PaimonQueryRunner.create(Map.of(
                "paimon.warehouse", "local://" + warehouse.warehouse().toAbsolutePath(),
                "fs.native-local.enabled", "true",
                "local.location", "/"), DATABASE);
    }

    @AfterAll
    void removeWarehouse()
            throws Exception
    {
        warehouse.close();
    }

    @Test
    void pathDirectoryIsReadWrittenAndCleaned()
            throws IOException
    {
        Path table = tablePath("in_directory");
        assertThat(dataFiles(table)).isNotEmpty().allMatch(file -> file.startsWith("data/dt="));
        assertThat(rows("in_directory")).hasSize(40).isEqualTo(paimonRows("in_directory"));
        assertThat(computeActual("SELECT v FROM in_directory WHERE dt = 'a' AND id = 7").getOnlyValue()).isEqualTo("third");

        // our writes go to the same folders, and Paimon Java reads them
        assertUpdate("INSERT INTO in_directory VALUES ('a', 100, 'trino'), ('c', 1, 'trino')", 2);
        assertUpdate("UPDATE in_directory SET v = 'updated' WHERE dt = 'b' AND id < 15", 5);
        assertUpdate("ALTER TABLE in_directory EXECUTE optimize");
        assertThat(dataFiles(table)).allMatch(file -> file.startsWith("data/dt="));
        assertThat(Files.exists(table.resolve("dt=c"))).isFalse();
        assertThat(rows("in_directory")).hasSize(42).isEqualTo(paimonRows("in_directory"))
                .contains("(a, 100, trino)", "(c, 1, trino)", "(b, 14, updated)", "(a, 14, third)");

        // expiry deletes the files optimize replaced, in the path directory
        Set<String> before = dataFiles(table);
        assertUpdate(lowFloors(), "ALTER TABLE in_directory EXECUTE expire_snapshots(retention_threshold => '0s')");
        Set<String> after = dataFiles(table);
        assertThat(after).isNotEmpty().isSubsetOf(before).hasSizeLessThan(before.size()).isEqualTo(liveFiles("in_directory"));
        assertThat(rows("in_directory")).isEqualTo(paimonRows("in_directory"));

        // an orphan in a bucket folder of the path directory is removed, and nothing live is
        Path orphan = table.resolve("data/dt=a/bucket-0/data-orphan-0.parquet");
        Files.writeString(orphan, "left by a failed writer");
        Files.setLastModifiedTime(orphan, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        assertUpdate(lowFloors(), "ALTER TABLE in_directory EXECUTE remove_orphan_files(retention_threshold => '1s')");
        assertThat(Files.exists(orphan)).isFalse();
        assertThat(dataFiles(table)).isEqualTo(after);
        assertThat(rows("in_directory")).isEqualTo(paimonRows("in_directory"));
    }

    @Test
    void externalPathsAreReadAndCleaned()
            throws IOException
    {
        Path table = tablePath("external");
        assertThat(dataFiles(table)).isEmpty();
        // each Paimon Java writer starts its round robin at a random root, so which roots hold files varies by run
        assertThat(externalFiles()).isNotEmpty();
        assertThat(rows("external")).hasSize(60).isEqualTo(paimonRows("external"))
                .contains("(0, first)", "(30, second)", "(52, third)");
        assertThat(computeActual("SELECT v FROM external WHERE id = 45").getOnlyValue()).isEqualTo("second");

        // new files would belong in the external roots by the table's strategy
        assertQueryFails("INSERT INTO external VALUES (1, 'x')",
                "Cannot write to Paimon table placed.external: option 'data-file.external-paths.strategy' = 'round-robin' \\(new data files would belong in the external paths\\)");

        // expiry deletes the files the compaction replaced from the external roots, and keeps the live ones
        Set<String> before = externalFiles();
        assertUpdate(lowFloors(), "ALTER TABLE external EXECUTE expire_snapshots(retention_threshold => '0s')");
        Set<String> after = externalFiles();
        assertThat(after).isSubsetOf(before).hasSizeLessThan(before.size()).isEqualTo(liveFiles("external"));
        assertThat(rows("external")).hasSize(60).isEqualTo(paimonRows("external"));

        // orphan removal looks only inside the table: the external roots are the user's
        assertUpdate(lowFloors(), "ALTER TABLE external EXECUTE remove_orphan_files(retention_threshold => '0s')");
        assertThat(externalFiles()).isEqualTo(after);
        assertThat(rows("external")).isEqualTo(paimonRows("external"));
    }

    @Test
    void externalPathsWithoutStrategyAreWrittenInTheTable()
    {
        assertUpdate("INSERT INTO external_unused VALUES (3, 'trino'), (42, 'trino')", 2);
        assertThat(rows("external_unused")).hasSize(11).isEqualTo(paimonRows("external_unused")).contains("(3, trino)", "(42, trino)");
        assertThat(dataFiles(externalRoot("ext3"))).isEmpty();
    }

    // every file under the external roots of the table "external", by absolute path
    private Set<String> externalFiles()
    {
        Set<String> files = new TreeSet<>();
        for (String root : List.of("ext1", "ext2")) {
            dataFiles(externalRoot(root)).forEach(file -> files.add(externalRoot(root).resolve(file).toString()));
        }
        return files;
    }

    // the data files of the table's latest snapshot, as Paimon Java plans them: relative to the table folder when
    // they lie in it, else by absolute path
    private Set<String> liveFiles(String name)
    {
        FileStoreTable table = (FileStoreTable) warehouse.paimon().getTable(DATABASE, name);
        Path folder = tablePath(name);
        return table.newReadBuilder().newScan().plan().splits().stream()
                .map(DataSplit.class::cast)
                .flatMap(split -> split.dataFiles().stream()
                        .map(file -> table.store().pathFactory().createDataFilePathFactory(split.partition(), split.bucket()).toPath(file)))
                .map(path -> Path.of(path.toUri().getPath()))
                .map(path -> path.startsWith(folder) ? folder.relativize(path).toString() : path.toString())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private Session lowFloors()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "expire_snapshots_min_retention", "0s")
                .setCatalogSessionProperty(CATALOG, "remove_orphan_files_min_retention", "0s")
                .build();
    }

    private List<String> rows(String table)
    {
        return RowText.paimonText(computeActual("SELECT * FROM " + table));
    }

    private List<String> paimonRows(String table)
    {
        return RowText.paimonText(warehouse.paimon().getTable(DATABASE, table));
    }

    private Path tablePath(String table)
    {
        return warehouse.warehouse().resolve(DATABASE + ".db").resolve(table);
    }

    private Path externalRoot(String name)
    {
        return warehouse.root().resolve(name).toAbsolutePath();
    }

    // the Parquet files under a folder, relative to it; none when it does not exist
    private static Set<String> dataFiles(Path folder)
    {
        if (!Files.isDirectory(folder)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".parquet"))
                    .map(file -> folder.relativize(file).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<GenericRow> rows(String dt, int from, int to, String value)
    {
        return IntStream.range(from, to)
                .mapToObj(id -> GenericRow.of(BinaryString.fromString(dt), id, BinaryString.fromString(value)))
                .toList();
    }

    private static List<GenericRow> unpartitioned(int from, int to, String value)
    {
        return IntStream.range(from, to)
                .mapToObj(id -> GenericRow.of(id, BinaryString.fromString(value)))
                .toList();
    }
}
