package io.trino.plugin.paimon;

import com.google.inject.Injector;
import com.google.inject.Module;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.json.JsonModule;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.manager.FileSystemModule;
import io.trino.plugin.base.CatalogNameModule;
import io.trino.plugin.base.jmx.ConnectorObjectNameGeneratorModule;
import io.trino.plugin.base.jmx.MBeanServerModule;
import io.trino.spi.NodeManager;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.type.TypeManager;
import org.weakref.jmx.guice.MBeanModule;

import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.base.Versions.checkStrictSpiVersionMatch;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static java.util.Objects.requireNonNull;

public class PaimonConnectorFactory
        implements ConnectorFactory
{
    public static final String CONNECTOR_NAME = "paimon";

    private final Optional<TrinoFileSystemFactory> fileSystemFactory;

    public PaimonConnectorFactory()
    {
        this(Optional.empty());
    }

    /**
     * @param fileSystemFactory the file system to use instead of the one Trino's file system configuration selects
     * (tests count reads with it); when given, no {@code fs.*} property may be set
     */
    public PaimonConnectorFactory(Optional<TrinoFileSystemFactory> fileSystemFactory)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
    }

    @Override
    public String getName()
    {
        return CONNECTOR_NAME;
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        requireNonNull(catalogName, "catalogName is null");
        requireNonNull(config, "config is null");
        checkStrictSpiVersionMatch(context, this);
        checkNoHadoopFileSystem(catalogName, config);

        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(PaimonConnectorFactory.class.getClassLoader())) {
            Bootstrap app = new Bootstrap(
                    new JsonModule(),
                    new MBeanModule(),
                    new MBeanServerModule(),
                    new ConnectorObjectNameGeneratorModule("io.trino.plugin.paimon", "trino.plugin.paimon"),
                    new CatalogNameModule(catalogName),
                    new PaimonModule(),
                    fileSystemFactory.<Module>map(factory -> binder -> binder.bind(TrinoFileSystemFactory.class).toInstance(factory))
                            .orElseGet(() -> new FileSystemModule(catalogName, context.getNodeManager(), context.getOpenTelemetry(), false)),
                    binder -> {
                        binder.bind(NodeManager.class).toInstance(context.getNodeManager());
                        binder.bind(TypeManager.class).toInstance(context.getTypeManager());
                        binder.bind(OpenTelemetry.class).toInstance(context.getOpenTelemetry());
                        binder.bind(Tracer.class).toInstance(context.getTracer());
                    });

            Injector injector = app
                    .doNotInitializeLogging()
                    .setRequiredConfigurationProperties(config)
                    .initialize();

            return injector.getInstance(PaimonConnector.class);
        }
    }

    // The HDFS loader needs Hadoop jars in a separate plugin sub-folder, which this plugin does not ship;
    // without this check the failure would surface as an obscure class-loading error.
    private static void checkNoHadoopFileSystem(String catalogName, Map<String, String> config)
    {
        if (Boolean.parseBoolean(config.getOrDefault("fs.hadoop.enabled", "false").trim())) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION,
                    "Catalog '%s': fs.hadoop.enabled=true is not supported by the Paimon connector; HDFS is not available. Use fs.native-local.enabled, fs.native-s3.enabled, fs.native-gcs.enabled or fs.native-azure.enabled".formatted(catalogName));
        }
    }
}
