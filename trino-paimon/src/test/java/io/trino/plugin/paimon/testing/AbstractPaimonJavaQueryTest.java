package io.trino.plugin.paimon.testing;

import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;

import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

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

    @AfterAll
    public final void removeWarehouse()
            throws Exception
    {
        if (warehouse != null) {
            warehouse.close();
        }
    }
}
