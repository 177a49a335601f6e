package io.trino.plugin.paimon.testing;

import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;

import java.nio.file.Files;
import java.nio.file.Path;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.WAREHOUSE_DIRECTORY;

/**
 * A query test over a temporary warehouse that Paimon Java writes: the subclass creates its tables with the
 * oracle, then queries them through an in-process Trino with the {@code paimon} catalog. Everything is removed
 * after the class.
 */
public abstract class AbstractPaimonJavaQueryTest
        extends AbstractTestQueryFramework
{
    private Path root;
    private PaimonJavaCatalog paimon;

    /** Writes the tables the tests read; called once, before the query runner starts. */
    protected abstract void createTables(PaimonJavaCatalog paimon)
            throws Exception;

    /** The schema unqualified table names refer to. */
    protected abstract String defaultSchema();

    @Override
    protected final QueryRunner createQueryRunner()
            throws Exception
    {
        root = Files.createTempDirectory("paimon-query-test");
        paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(WAREHOUSE_DIRECTORY)));
        createTables(paimon);
        return PaimonQueryRunner.create(root, defaultSchema());
    }

    /** The folder that holds the warehouse ({@code <root>/warehouse}) and may hold scratch files. */
    protected Path root()
    {
        return root;
    }

    protected PaimonJavaCatalog paimon()
    {
        return paimon;
    }

    @AfterAll
    public final void removeWarehouse()
            throws Exception
    {
        if (paimon != null) {
            paimon.close();
        }
        if (root != null) {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }
}
