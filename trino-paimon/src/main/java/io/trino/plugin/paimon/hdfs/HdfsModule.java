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
package io.trino.plugin.paimon.hdfs;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Binder;
import com.google.inject.Scopes;
import com.google.inject.multibindings.MapBinder;
import io.airlift.configuration.AbstractConfigurationAwareModule;
import io.trino.filesystem.TrinoFileSystemFactory;

import java.util.LinkedHashSet;
import java.util.Set;

import static com.google.inject.multibindings.MapBinder.newMapBinder;

/**
 * Registers the Hadoop-backed file system for {@code hdfs}, {@code viewfs} and every scheme the configuration files
 * map ({@code fs.<scheme>.impl}), in the same scheme map that Trino's file-system module fills with its native file
 * systems, so each location goes to its file system by scheme. Schemes a native file system serves stay with it.
 */
public class HdfsModule
        extends AbstractConfigurationAwareModule
{
    // the schemes of Trino's native file systems (local, S3, GCS, Azure, Alluxio)
    private static final Set<String> NATIVE_SCHEMES = ImmutableSet.of(
            "local", "file", "s3", "s3a", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "alluxio");

    @Override
    protected void setup(Binder binder)
    {
        HdfsConfig config = buildConfigObject(HdfsConfig.class);
        HdfsEnvironment environment = HdfsEnvironment.create(config);
        binder.bind(HdfsEnvironment.class).toInstance(environment);
        binder.bind(HdfsFileSystemFactory.class).in(Scopes.SINGLETON);

        Set<String> schemes = new LinkedHashSet<>(HdfsEnvironment.builtInSchemes());
        schemes.addAll(environment.mappedSchemes());
        schemes.removeAll(NATIVE_SCHEMES);
        MapBinder<String, TrinoFileSystemFactory> factories = newMapBinder(binder, String.class, TrinoFileSystemFactory.class);
        for (String scheme : schemes) {
            factories.addBinding(scheme).to(HdfsFileSystemFactory.class);
        }
    }
}
