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
package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import com.google.inject.Provider;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.invoke.MethodHandles.lookup;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL paimon.system.flush_metadata_cache()}, or with {@code schema_name} (and {@code table_name}): forgets
 * the catalog's cached snapshots, schemas and manifests, of everything or of one schema or table, as the
 * procedure of the same name does in Trino's Iceberg and Delta Lake connectors.
 */
public class FlushMetadataCacheProcedure
        implements Provider<Procedure>
{
    private static final String SCHEMA_NAME = "SCHEMA_NAME";
    private static final String TABLE_NAME = "TABLE_NAME";
    private static final MethodHandle FLUSH_METADATA_CACHE;

    static {
        try {
            FLUSH_METADATA_CACHE = lookup().unreflect(FlushMetadataCacheProcedure.class.getMethod("flushMetadataCache", String.class, String.class));
        }
        catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private final PaimonCatalog catalog;

    @Inject
    public FlushMetadataCacheProcedure(PaimonCatalog catalog)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public Procedure get()
    {
        return new Procedure(
                "system",
                "flush_metadata_cache",
                ImmutableList.of(
                        new Procedure.Argument(SCHEMA_NAME, VARCHAR, false, null),
                        new Procedure.Argument(TABLE_NAME, VARCHAR, false, null)),
                FLUSH_METADATA_CACHE.bindTo(this));
    }

    public void flushMetadataCache(String schemaName, String tableName)
    {
        if (schemaName == null && tableName != null) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "flush_metadata_cache: table_name '%s' needs a schema_name".formatted(tableName));
        }
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            catalog.flushMetadataCache(Optional.ofNullable(schemaName), Optional.ofNullable(tableName));
        }
    }
}
