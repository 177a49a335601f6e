package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.testing.TestingConnectorContext;
import org.junit.jupiter.api.Test;

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
    void rejectsHadoopFileSystem()
    {
        assertThatThrownBy(() -> create(ImmutableMap.of(
                "paimon.warehouse", "hdfs://namenode/warehouse",
                "fs.hadoop.enabled", "true")))
                .hasMessageContaining("fs.hadoop.enabled=true is not supported by the Paimon connector");
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
                .hasMessageContaining("must not be null");
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

    private static void create(Map<String, String> config)
    {
        ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
        factory.create("test", config, new TestingConnectorContext()).shutdown();
    }
}
