package io.trino.plugin.paimon.testing;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.plugin.paimon.PaimonPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

import java.nio.file.Path;
import java.util.Map;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * An in-process Trino with the {@code paimon} catalog over a local warehouse folder: {@code <root>/warehouse},
 * reached as {@code local:///warehouse} with {@code local.location=<root>}, as a user would configure it.
 */
public final class PaimonQueryRunner
{
    public static final String CATALOG = "paimon";
    public static final String WAREHOUSE_DIRECTORY = "warehouse";

    private PaimonQueryRunner() {}

    public static Map<String, String> catalogProperties(Path localRoot)
    {
        return ImmutableMap.of(
                "paimon.warehouse", "local:///" + WAREHOUSE_DIRECTORY,
                "fs.native-local.enabled", "true",
                "local.location", localRoot.toAbsolutePath().toString());
    }

    /** A single-node runner; the warehouse is {@code <localRoot>/warehouse}, which must exist. */
    public static QueryRunner create(Path localRoot, String defaultSchema)
            throws Exception
    {
        Session session = testSessionBuilder()
                .setCatalog(CATALOG)
                .setSchema(defaultSchema)
                .build();
        QueryRunner queryRunner = DistributedQueryRunner.builder(session)
                .setWorkerCount(0)
                .build();
        try {
            queryRunner.installPlugin(new PaimonPlugin());
            queryRunner.createCatalog(CATALOG, "paimon", catalogProperties(localRoot));
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }
}
