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

import com.google.inject.Module;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.manager.FileSystemModule;
import io.trino.plugin.base.ConnectorContextModule;
import io.trino.spi.connector.ConnectorContext;

import java.util.List;
import java.util.Optional;

/**
 * What the connector takes from the engine's context, bound for injection, and the file systems of the catalog
 * (Trino's, unless a test hands its own factory): since 477 the plugin toolkit binds the whole context in one module
 * and the file system module reads the node and telemetry from it.
 */
final class ConnectorContextModules
{
    private ConnectorContextModules() {}

    static List<Module> modules(String catalogName, ConnectorContext context, Optional<TrinoFileSystemFactory> fileSystemFactory)
    {
        return List.of(
                new ConnectorContextModule(catalogName, context),
                fileSystemFactory.<Module>map(factory -> binder -> binder.bind(TrinoFileSystemFactory.class).toInstance(factory))
                        .orElseGet(() -> new FileSystemModule(catalogName, context, false)));
    }
}
