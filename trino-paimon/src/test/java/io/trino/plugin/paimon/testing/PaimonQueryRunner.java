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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.PaimonConnectorFactory;
import io.trino.plugin.paimon.PaimonPlugin;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.tpch.TpchMetadata.TINY_SCHEMA_NAME;
import static io.trino.testing.QueryAssertions.copyTpchTables;
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
        return create(defaultSchema, new PaimonPlugin(), catalogProperties(localRoot), 0);
    }

    /** A coordinator and {@code workerCount} workers over the warehouse {@code <localRoot>/warehouse}, which must exist. */
    public static QueryRunner create(Path localRoot, String defaultSchema, int workerCount)
            throws Exception
    {
        return create(defaultSchema, new PaimonPlugin(), catalogProperties(localRoot), workerCount);
    }

    /**
     * A coordinator and {@code workerCount} workers over the warehouse {@code <localRoot>/warehouse}, with more server
     * properties (e.g. {@code retry-policy}).
     */
    public static DistributedQueryRunner create(Path localRoot, String defaultSchema, int workerCount, Map<String, String> serverProperties)
            throws Exception
    {
        return create(defaultSchema, new PaimonPlugin(), catalogProperties(localRoot), workerCount, serverProperties);
    }

    /**
     * As {@link #create(Path, String, int, Map)}, with every node reading and writing the warehouse
     * {@code local:///warehouse} through the given file system (e.g. a {@link FaultFs} over the warehouse's parent,
     * whose faults then fail the tasks of any node).
     */
    public static DistributedQueryRunner create(TrinoFileSystemFactory fileSystemFactory, String defaultSchema, int workerCount, Map<String, String> serverProperties)
            throws Exception
    {
        return create(defaultSchema, plugin(fileSystemFactory), ImmutableMap.of("paimon.warehouse", "local:///" + WAREHOUSE_DIRECTORY), workerCount, serverProperties);
    }

    private static DistributedQueryRunner create(String defaultSchema, Plugin plugin, Map<String, String> catalogProperties, int workerCount, Map<String, String> serverProperties)
            throws Exception
    {
        Session session = testSessionBuilder()
                .setCatalog(CATALOG)
                .setSchema(defaultSchema)
                .build();
        DistributedQueryRunner queryRunner = DistributedQueryRunner.builder(session)
                .setWorkerCount(workerCount)
                .setExtraProperties(serverProperties)
                .build();
        try {
            queryRunner.installPlugin(plugin);
            queryRunner.createCatalog(CATALOG, "paimon", catalogProperties);
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    /** A coordinator and the given number of workers whose {@code paimon} catalog has the given catalog file. */
    public static QueryRunner create(Map<String, String> catalogProperties, String defaultSchema, int workerCount)
            throws Exception
    {
        return create(defaultSchema, new PaimonPlugin(), catalogProperties, workerCount);
    }

    /** A single-node runner whose {@code paimon} catalog has the given catalog file, e.g. a warehouse on S3. */
    public static QueryRunner create(Map<String, String> catalogProperties, String defaultSchema)
            throws Exception
    {
        return create(defaultSchema, new PaimonPlugin(), catalogProperties, 0);
    }

    /**
     * A single-node runner whose catalog reads the warehouse {@code local:///warehouse} through the given file
     * system, which must resolve {@code local:///} (a {@code LocalFileSystemFactory} over the warehouse's parent).
     */
    public static QueryRunner create(TrinoFileSystemFactory fileSystemFactory, String defaultSchema)
            throws Exception
    {
        return create(fileSystemFactory, defaultSchema, ImmutableMap.of());
    }

    /** As {@link #create(TrinoFileSystemFactory, String)}, with more catalog properties. */
    public static QueryRunner create(TrinoFileSystemFactory fileSystemFactory, String defaultSchema, Map<String, String> catalogProperties)
            throws Exception
    {
        return create(defaultSchema, plugin(fileSystemFactory), ImmutableMap.<String, String>builder()
                .put("paimon.warehouse", "local:///" + WAREHOUSE_DIRECTORY)
                .putAll(catalogProperties)
                .buildOrThrow(), 0);
    }

    /**
     * A coordinator and two workers, with the {@code tpch} catalog and the given TPCH tables copied from
     * {@code tpch.tiny} into {@code paimon.<schema>} by {@code CREATE TABLE AS} without properties: append tables
     * (no primary key, bucket-unaware), which is what Paimon makes of a table created without a key. The warehouse
     * lives in the runner's data folder, removed when the runner closes.
     */
    public static QueryRunner createWithTpchTables(String schema, Iterable<TpchTable<?>> tables)
            throws Exception
    {
        return createWithTpchTables(schema, tables, Optional.empty());
    }

    /**
     * @param primaryKeyFormat when present, the TPCH tables are primary-key tables in that file format, written so
     * that every bucket holds two sorted runs with overlapping keys ({@link TpchPrimaryKeyTables}): every read of
     * them goes through the merge. When empty, append tables copied by {@code CREATE TABLE AS}.
     */
    public static QueryRunner createWithTpchTables(String schema, Iterable<TpchTable<?>> tables, Optional<String> primaryKeyFormat)
            throws Exception
    {
        Session session = testSessionBuilder()
                .setCatalog(CATALOG)
                .setSchema(schema)
                .build();
        QueryRunner queryRunner = DistributedQueryRunner.builder(session)
                .setWorkerCount(2)
                .build();
        try {
            Path localRoot = queryRunner.getCoordinator().getBaseDataDir().resolve("paimon");
            Files.createDirectories(localRoot.resolve(WAREHOUSE_DIRECTORY));
            queryRunner.installPlugin(new TpchPlugin());
            queryRunner.createCatalog("tpch", "tpch");
            queryRunner.installPlugin(new PaimonPlugin());
            queryRunner.createCatalog(CATALOG, "paimon", catalogProperties(localRoot));
            queryRunner.execute("CREATE SCHEMA " + schema);
            if (primaryKeyFormat.isPresent()) {
                TpchPrimaryKeyTables.copy(queryRunner, session, primaryKeyFormat.get(), tables);
            }
            else {
                copyTpchTables(queryRunner, "tpch", TINY_SCHEMA_NAME, session, tables);
            }
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    // the connector with the given file system in place of the one its catalog properties would configure
    private static Plugin plugin(TrinoFileSystemFactory fileSystemFactory)
    {
        return new Plugin()
        {
            @Override
            public Iterable<ConnectorFactory> getConnectorFactories()
            {
                return ImmutableList.of(new PaimonConnectorFactory(Optional.of(fileSystemFactory)));
            }
        };
    }

    private static QueryRunner create(String defaultSchema, Plugin plugin, Map<String, String> catalogProperties, int workerCount)
            throws Exception
    {
        return create(defaultSchema, plugin, catalogProperties, workerCount, ImmutableMap.of());
    }
}
