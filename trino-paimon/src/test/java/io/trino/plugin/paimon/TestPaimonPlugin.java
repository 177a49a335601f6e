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
import io.trino.testing.TestingConnectorContext;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static com.google.common.collect.Iterables.getOnlyElement;
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
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path coreSite = HdfsCluster.writeConfigurationFile(temp.root().resolve("core-site.xml"), ImmutableMap.of("fs.defaultFS", "hdfs://namenode:8020"));
            create(ImmutableMap.of(
                    "paimon.warehouse", "hdfs://namenode:8020/warehouse",
                    "fs.hadoop.enabled", "true",
                    "hive.config.resources", coreSite.toString(),
                    "hive.hdfs.impersonation.enabled", "true"));
        }
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
            create(ImmutableMap.<String, String>builder()
                    .putAll(PaimonQueryRunner.catalogProperties(temp.root()))
                    .put("paimon.catalog.type", "filesystem")
                    .buildOrThrow());
        }
    }

    private static void create(Map<String, String> config)
    {
        ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
        factory.create("test", config, new TestingConnectorContext()).shutdown();
    }
}
