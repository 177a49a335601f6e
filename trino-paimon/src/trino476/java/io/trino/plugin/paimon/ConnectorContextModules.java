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
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.manager.FileSystemModule;
import io.trino.plugin.base.CatalogNameModule;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.type.TypeManager;

import java.util.List;
import java.util.Optional;

/**
 * What the connector takes from the engine's context, bound for injection, and the file systems of the catalog
 * (Trino's, unless a test hands its own factory), as Trino 476's plugin toolkit offers them.
 */
final class ConnectorContextModules
{
    private ConnectorContextModules() {}

    static List<Module> modules(String catalogName, ConnectorContext context, Optional<TrinoFileSystemFactory> fileSystemFactory)
    {
        return List.of(
                new CatalogNameModule(catalogName),
                fileSystemFactory.<Module>map(factory -> binder -> binder.bind(TrinoFileSystemFactory.class).toInstance(factory))
                        .orElseGet(() -> new FileSystemModule(catalogName, context.getNodeManager(), context.getOpenTelemetry(), false)),
                binder -> {
                    binder.bind(NodeManager.class).toInstance(context.getNodeManager());
                    binder.bind(TypeManager.class).toInstance(context.getTypeManager());
                    binder.bind(OpenTelemetry.class).toInstance(context.getOpenTelemetry());
                    binder.bind(Tracer.class).toInstance(context.getTracer());
                });
    }
}
