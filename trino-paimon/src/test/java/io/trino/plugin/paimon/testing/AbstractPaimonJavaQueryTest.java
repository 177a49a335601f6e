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

import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.table.Table;
import org.junit.jupiter.api.AfterAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A query test over a temporary warehouse that Paimon Java writes: the subclass creates its tables with the
 * oracle, then queries them through an in-process Trino with the {@code paimon} catalog. Everything is removed
 * after the class.
 */
public abstract class AbstractPaimonJavaQueryTest
        extends AbstractTestQueryFramework
{
    private final String database;
    private TempWarehouse warehouse;
    private PaimonJavaCatalog uncachedPaimon;

    /**
     * @param database the database the tests' tables are in, created before {@link #createTables}, and the schema
     * unqualified table names refer to
     */
    protected AbstractPaimonJavaQueryTest(String database)
    {
        this.database = requireNonNull(database, "database is null");
    }

    /** Writes the tables the tests read; called once, before the query runner starts. */
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
    }

    @Override
    protected final QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        warehouse.paimon().createDatabase(database);
        createTables(warehouse.paimon());
        Optional<TrinoFileSystemFactory> fileSystemFactory = fileSystemFactory(warehouse.root());
        return fileSystemFactory.isPresent()
                ? PaimonQueryRunner.create(fileSystemFactory.get(), database)
                : PaimonQueryRunner.create(warehouse.root(), database);
    }

    /**
     * The file system the catalog uses instead of the configured local one, e.g. a {@link FaultFs} over the root;
     * called once, before the query runner starts.
     */
    protected Optional<TrinoFileSystemFactory> fileSystemFactory(Path root)
    {
        return Optional.empty();
    }

    /** The folder that holds the warehouse ({@code <root>/warehouse}) and may hold scratch files. */
    protected Path root()
    {
        return warehouse.root();
    }

    protected PaimonJavaCatalog paimon()
    {
        return warehouse.paimon();
    }

    /**
     * Paimon Java without its table cache, for reading tables back after Trino committed to them behind the back of
     * {@link #paimon()}; closed after the class.
     */
    protected PaimonJavaCatalog uncachedPaimon()
    {
        if (uncachedPaimon == null) {
            uncachedPaimon = PaimonJavaCatalog.uncached(paimon().warehouse());
        }
        return uncachedPaimon;
    }

    /**
     * The session with {@code compaction_on_write_enabled = false}: for tests that count or replay their statements'
     * snapshots, between which compaction on write would add its own.
     */
    protected Session withoutCompactionOnWrite()
    {
        return Session.builder(getSession()).setCatalogSessionProperty("paimon", "compaction_on_write_enabled", "false").build();
    }

    /** The table's rows through Trino, as Paimon Java prints rows, sorted. */
    protected List<String> tableRows(String table)
    {
        return RowText.paimonText(computeActual("SELECT * FROM " + table));
    }

    /** The id of the table's newest snapshot, 0 when it has none. */
    protected long latestSnapshotIdOf(String table)
    {
        return new SnapshotFiles(new LocalFileSystem(root()), tableLocation(table)).latestSnapshotId().orElse(0);
    }

    /** Every file of the table, by its path relative to the table's folder. */
    protected Set<String> tableFiles(String table)
    {
        Path folder = root().resolve("warehouse/%s.db/%s".formatted(database, table));
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> folder.relativize(file).toString())
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@link Fsck} finds wrong with the table, and where Paimon Java reads other rows than Trino. */
    protected List<String> fsckViolations(String table)
    {
        Table paimonTable = uncachedPaimon().getTable(database, table);
        List<String> violations = new ArrayList<>(Fsck.check(new LocalFileSystem(root()), tableLocation(table), paimonTable));
        violations.addAll(Fsck.paimonJavaDifferences(getQueryRunner(), table, paimonTable));
        return violations;
    }

    /**
     * Checks that Paimon Java and Trino both read exactly the expected rows, written as Paimon Java prints an inserted
     * row ({@code +I(1, a)}); an updated row is +U in the files, as Paimon's own UPDATE writes it, and is compared by its values.
     */
    protected void assertRowsInPaimonJavaAndTrino(String table, List<String> expected)
    {
        List<String> sorted = expected.stream().sorted().toList();
        List<String> paimonRows = PaimonJavaCatalog.readRows(paimon().getTable(database, table)).stream()
                .map(row -> row.replaceFirst("^\\+U\\(", "+I("))
                .sorted()
                .toList();
        assertThat(paimonRows).as("Paimon Java reads %s", table).isEqualTo(sorted);
        List<String> trinoRows = computeActual("SELECT * FROM " + table).getMaterializedRows().stream()
                .map(row -> "+I" + RowText.paimonText(row))
                .sorted()
                .toList();
        assertThat(trinoRows).as("Trino reads %s", table).isEqualTo(sorted);
    }

    /** The table's folder, as the catalog's file system names it. */
    protected Location tableLocation(String table)
    {
        return Location.of("local:///warehouse/%s.db/%s".formatted(database, table));
    }

    @AfterAll
    public final void removeWarehouse()
            throws Exception
    {
        if (uncachedPaimon != null) {
            uncachedPaimon.close();
        }
        if (warehouse != null) {
            warehouse.close();
        }
    }
}
