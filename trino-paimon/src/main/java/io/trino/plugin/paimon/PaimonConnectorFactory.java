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

import com.google.common.collect.ImmutableList;
import com.google.inject.Injector;
import com.google.inject.Module;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.json.JsonModule;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.base.jmx.ConnectorObjectNameGeneratorModule;
import io.trino.plugin.base.jmx.MBeanServerModule;
import io.trino.plugin.paimon.hdfs.HdfsModule;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import org.weakref.jmx.guice.MBeanModule;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.base.Versions.checkStrictSpiVersionMatch;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static java.util.Objects.requireNonNull;

public class PaimonConnectorFactory
        implements ConnectorFactory
{
    public static final String CONNECTOR_NAME = "paimon";
    private static final String HADOOP_ENABLED = "fs.hadoop.enabled";

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
        boolean hadoopEnabled = hadoopEnabled(catalogName, config);
        // Trino's file-system module would load its own HDFS support from a plugin sub-folder, which this plugin does
        // not ship: the key is taken here, and HdfsModule adds the Hadoop-backed file system beside the native ones
        Map<String, String> properties = new HashMap<>(config);
        properties.remove(HADOOP_ENABLED);

        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(PaimonConnectorFactory.class.getClassLoader())) {
            if (fileSystemFactory.isPresent() && hadoopEnabled) {
                throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "Catalog '%s': %s cannot be set with a given file system".formatted(catalogName, HADOOP_ENABLED));
            }
            ImmutableList.Builder<Module> modules = ImmutableList.<Module>builder()
                    .add(new JsonModule())
                    .add(new MBeanModule())
                    .add(new MBeanServerModule())
                    .add(new ConnectorObjectNameGeneratorModule("io.trino.plugin.paimon", "trino.plugin.paimon"))
                    .add(new PaimonModule())
                    .addAll(ConnectorContextModules.modules(catalogName, context, fileSystemFactory));
            if (hadoopEnabled) {
                modules.add(new HdfsModule());
            }

            Injector injector = new Bootstrap(modules.build())
                    .doNotInitializeLogging()
                    .setRequiredConfigurationProperties(properties)
                    .initialize();

            return injector.getInstance(PaimonConnector.class);
        }
    }

    private static boolean hadoopEnabled(String catalogName, Map<String, String> config)
    {
        String value = config.getOrDefault(HADOOP_ENABLED, "false").trim();
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "Catalog '%s': %s must be true or false, not '%s'".formatted(catalogName, HADOOP_ENABLED, value));
    }
}
