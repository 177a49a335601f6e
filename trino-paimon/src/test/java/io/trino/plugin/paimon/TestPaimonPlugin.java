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
package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.HdfsCluster;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.security.ConnectorIdentity;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;

import static com.google.common.collect.Iterables.getOnlyElement;
import static io.trino.spi.security.PrincipalType.USER;
import static io.trino.spi.transaction.IsolationLevel.READ_UNCOMMITTED;
import static java.util.UUID.randomUUID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestPaimonPlugin
{
    @Test
    void createsConnectorOverLocalWarehouse()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
            assertThat(factory.getName()).isEqualTo("paimon");
            Connector connector = factory.create(
                    "test",
                    PaimonQueryRunner.catalogProperties(temp.root()),
                    new TestingConnectorContext());
            assertThat(connector.getTableProperties())
                    .extracting(property -> property.getName())
                    .containsExactly("primary_key", "partitioned_by", "bucket", "bucket_key", "merge_engine", "sequence_field",
                            "changelog_producer", "deletion_vectors_enabled", "file_format", "options");
            connector.shutdown();
        }
    }

    @Test
    void createsConnectorOverHdfsWithTheClustersConfigurationFiles()
            throws Exception
    {
        HdfsCluster cluster = HdfsCluster.shared();
        org.apache.hadoop.fs.Path warehouse = new org.apache.hadoop.fs.Path("/plugin-" + randomUUID());
        cluster.fileSystem().mkdirs(warehouse);
        cluster.fileSystem().setPermission(warehouse, new FsPermission((short) 0777));
        try (TempWarehouse temp = TempWarehouse.create()) {
            // as a cluster's client files describe it: a nameservice that only hdfs-site.xml resolves to the NameNode,
            // and in core-site.xml a umask that leaves new folders to their owner
            Path coreSite = HdfsCluster.writeConfigurationFile(temp.root().resolve("core-site.xml"), ImmutableMap.of(
                    "fs.defaultFS", "hdfs://lake",
                    "fs.permissions.umask-mode", "077"));
            Path hdfsSite = HdfsCluster.writeConfigurationFile(temp.root().resolve("hdfs-site.xml"), ImmutableMap.of(
                    "dfs.nameservices", "lake",
                    "dfs.ha.namenodes.lake", "nn1",
                    "dfs.namenode.rpc-address.lake.nn1", "127.0.0.1:" + cluster.cluster().getNameNodePort(),
                    "dfs.client.failover.proxy.provider.lake", "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider"));
            Connector connector = getOnlyElement(new PaimonPlugin().getConnectorFactories()).create("test", ImmutableMap.of(
                    "paimon.warehouse", "hdfs://lake" + warehouse,
                    "fs.hadoop.enabled", "true",
                    "hive.config.resources", coreSite + "," + hdfsSite,
                    "hive.hdfs.impersonation.enabled", "true"), new TestingConnectorContext());
            try {
                ConnectorSession alice = TestingConnectorSession.builder()
                        .setIdentity(ConnectorIdentity.ofUser("alice"))
                        .setPropertyMetadata(connector.getSessionProperties())
                        .build();
                ConnectorTransactionHandle transaction = connector.beginTransaction(READ_UNCOMMITTED, false, true);
                connector.getMetadata(alice, transaction).createSchema(alice, "sales", ImmutableMap.of(), new TrinoPrincipal(USER, "alice"));
                connector.commit(transaction);
            }
            finally {
                connector.shutdown();
            }
        }
        // the folder is on the cluster the nameservice names, made as the query user, with core-site.xml's umask
        FileStatus schema = cluster.fileSystem().getFileStatus(new org.apache.hadoop.fs.Path(warehouse, "sales.db"));
        assertThat(schema.isDirectory()).isTrue();
        assertThat(schema.getOwner()).isEqualTo("alice");
        assertThat(schema.getPermission()).isEqualTo(new FsPermission((short) 0700));
    }

    @Test
    void rejectsMissingHadoopConfigurationFile()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                "fs.hadoop.enabled", "true",
                "hive.config.resources", "/nonexistent/core-site.xml")))
                .hasMessageContaining("hive.config.resources: Hadoop configuration file /nonexistent/core-site.xml does not exist or cannot be read");
    }

    @Test
    void rejectsMalformedHadoopConfigurationFile()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path coreSite = Files.writeString(temp.root().resolve("core-site.xml"), "<configuration><property><name>fs.defaultFS</name>");
            assertThatThrownBy(() -> create(ImmutableMap.of(
                    "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                    "fs.hadoop.enabled", "true",
                    "hive.config.resources", coreSite.toString())))
                    .hasMessageContaining("hive.config.resources: Hadoop configuration file %s cannot be read".formatted(coreSite));
        }
    }

    @Test
    void rejectsIncompleteKerberosConfiguration()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                "fs.hadoop.enabled", "true",
                "hive.hdfs.authentication.type", "KERBEROS",
                "hive.hdfs.trino.principal", "trino@EXAMPLE.COM")))
                .hasMessageContaining("hive.hdfs.authentication.type=KERBEROS needs hive.hdfs.trino.principal and hive.hdfs.trino.keytab");
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                "fs.hadoop.enabled", "true",
                "hive.hdfs.authentication.type", "KERBEROS",
                "hive.hdfs.trino.principal", "trino@EXAMPLE.COM",
                "hive.hdfs.trino.keytab", "/nonexistent/trino.keytab")))
                .hasMessageContaining("hive.hdfs.trino.keytab: keytab file /nonexistent/trino.keytab does not exist or cannot be read");
    }

    @Test
    void rejectsHadoopPropertiesUnlessHadoopIsEnabled()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "local:///warehouse",
                "fs.native-local.enabled", "true",
                "hive.config.resources", "/etc/hadoop/core-site.xml")))
                .hasMessageContaining("Configuration property 'hive.config.resources' was not used");
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                "fs.hadoop.enabled", "true",
                "hive.hdfs.no-such-property", "x")))
                .hasMessageContaining("Configuration property 'hive.hdfs.no-such-property' was not used");
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                "fs.hadoop.enabled", "yes")))
                .hasMessageContaining("fs.hadoop.enabled must be true or false, not 'yes'");
    }

    @Test
    void rejectsWarehouseWithoutScheme()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "/tmp/warehouse",
                "fs.native-local.enabled", "true")))
                .hasMessageContaining("paimon.warehouse must be a location with a scheme");
    }

    @Test
    void rejectsMissingWarehouse()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of("fs.native-local.enabled", "true")))
                .hasMessageContaining("paimon.warehouse")
                .hasMessageContaining("paimon.warehouse is required unless paimon.catalog.type is REST");
    }

    @Test
    void rejectsUnknownProperty()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "local:///warehouse",
                "fs.native-local.enabled", "true",
                "paimon.no-such-property", "x")))
                .hasMessageContaining("Configuration property 'paimon.no-such-property' was not used");
    }

    @Test
    void rejectsUnknownCatalogType()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.catalog.type", "glue",
                "paimon.warehouse", "local:///warehouse",
                "fs.native-local.enabled", "true")))
                .hasMessageContaining("Invalid value 'glue' for type CatalogType (property 'paimon.catalog.type')");
    }

    @Test
    void acceptsCatalogTypeInLowerCase()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            // a folder only the filesystem catalog takes for a schema; the JDBC catalog lists what its database registers
            Files.createDirectories(temp.warehouse().resolve("unregistered.db"));
            Map<String, String> warehouse = PaimonQueryRunner.catalogProperties(temp.root());

            Connector filesystem = create(warehouse, ImmutableMap.of("paimon.catalog.type", "filesystem"));
            try {
                assertThat(createSchemaAndList(filesystem, "folder_schema")).containsExactly("folder_schema", "unregistered");
            }
            finally {
                filesystem.shutdown();
            }

            String jdbcUri = "jdbc:sqlite:" + temp.root().resolve("catalog.db");
            Connector jdbc = create(warehouse, ImmutableMap.of("paimon.catalog.type", "jdbc", "paimon.jdbc.uri", jdbcUri));
            try {
                assertThat(createSchemaAndList(jdbc, "registered_schema")).containsExactly("registered_schema");
            }
            finally {
                jdbc.shutdown();
            }
            try (Connection connection = DriverManager.getConnection(jdbcUri);
                    ResultSet databases = connection.createStatement().executeQuery("SELECT DISTINCT database_name FROM paimon_database_properties")) {
                assertThat(databases.next()).isTrue();
                assertThat(databases.getString(1)).isEqualTo("registered_schema");
                assertThat(databases.next()).isFalse();
            }
        }
    }

    private static Connector create(Map<String, String> warehouse, Map<String, String> catalog)
    {
        return getOnlyElement(new PaimonPlugin().getConnectorFactories()).create(
                "test",
                ImmutableMap.<String, String>builder().putAll(warehouse).putAll(catalog).buildOrThrow(),
                new TestingConnectorContext());
    }

    // the schemas the connector lists after it created one
    private static List<String> createSchemaAndList(Connector connector, String schema)
    {
        ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
        ConnectorTransactionHandle transaction = connector.beginTransaction(READ_UNCOMMITTED, false, true);
        ConnectorMetadata metadata = connector.getMetadata(session, transaction);
        metadata.createSchema(session, schema, ImmutableMap.of(), new TrinoPrincipal(USER, session.getUser()));
        List<String> schemas = metadata.listSchemaNames(session);
        connector.commit(transaction);
        return schemas;
    }

    private static void create(Map<String, String> config)
    {
        ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
        factory.create("test", config, new TestingConnectorContext()).shutdown();
    }
}
