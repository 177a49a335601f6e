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

import com.google.inject.Binder;
import com.google.inject.Inject;
import com.google.inject.Module;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.multibindings.ProvidesIntoSet;
import io.airlift.configuration.AbstractConfigurationAwareModule;
import io.trino.plugin.paimon.catalog.CatalogLocations;
import io.trino.plugin.paimon.catalog.FileSystemCatalog;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.catalog.hive.HiveMetastoreCatalogModule;
import io.trino.plugin.paimon.catalog.jdbc.JdbcCatalogModule;
import io.trino.plugin.paimon.catalog.rest.RestCatalogModule;
import io.trino.plugin.paimon.compaction.BucketCompactor;
import io.trino.plugin.paimon.compaction.Compactions;
import io.trino.plugin.paimon.compaction.LookupCompactor;
import io.trino.plugin.paimon.compaction.SinkCompactions;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.metadata.PaimonTableProperties;
import io.trino.plugin.paimon.metadata.PaimonViews;
import io.trino.plugin.paimon.metadata.TableChangesFunction;
import io.trino.plugin.paimon.procedure.ExpireSnapshotsTableProcedure;
import io.trino.plugin.paimon.procedure.FlushMetadataCacheProcedure;
import io.trino.plugin.paimon.procedure.OptimizeCommit;
import io.trino.plugin.paimon.procedure.OptimizeTableProcedure;
import io.trino.plugin.paimon.procedure.RemoveOrphanFilesTableProcedure;
import io.trino.plugin.paimon.procedure.TableExecutePageSourceProvider;
import io.trino.plugin.paimon.procedure.TableExecuteSplitManager;
import io.trino.plugin.paimon.procedure.TableVersionProcedures;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.read.PaimonSplitManager;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.PaimonNodePartitioningProvider;
import io.trino.plugin.paimon.write.PaimonPageSinkProvider;
import io.trino.plugin.paimon.write.SinkCompactor;
import io.trino.plugin.paimon.write.SortedRunMerger;
import io.trino.plugin.paimon.write.WriteFragment;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;

import static com.google.inject.multibindings.Multibinder.newSetBinder;
import static io.airlift.configuration.ConditionalModule.conditionalModule;
import static io.airlift.configuration.ConfigBinder.configBinder;
import static io.airlift.json.JsonCodecBinder.jsonCodecBinder;
import static org.weakref.jmx.guice.ExportBinder.newExporter;

public class PaimonModule
        extends AbstractConfigurationAwareModule
{
    @Override
    protected void setup(Binder binder)
    {
        configBinder(binder).bindConfig(PaimonConfig.class);
        // read, not consumed: the keys belong to Trino's file system module
        binder.bind(CatalogLocations.class).toInstance(CatalogLocations.fromCatalogProperties(getProperties()));
        newExporter(binder).export(MetadataCache.class).withGeneratedName();
        binder.bind(PaimonConnector.class).in(Scopes.SINGLETON);
        binder.bind(PaimonTransactionManager.class).in(Scopes.SINGLETON);
        binder.bind(PaimonTableProperties.class).in(Scopes.SINGLETON);
        binder.bind(PaimonSessionProperties.class).in(Scopes.SINGLETON);
        bindCatalog(CatalogType.FILESYSTEM, catalogBinder -> catalogBinder.bind(PaimonCatalog.class).to(FileSystemCatalog.class).in(Scopes.SINGLETON));
        bindCatalog(CatalogType.REST, new RestCatalogModule());
        bindCatalog(CatalogType.JDBC, new JdbcCatalogModule());
        bindCatalog(CatalogType.HIVE_METASTORE, new HiveMetastoreCatalogModule());
        binder.bind(PaimonSplitManager.class).in(Scopes.SINGLETON);
        binder.bind(PaimonPageSourceProvider.class).in(Scopes.SINGLETON);
        binder.bind(PaimonPageSinkProvider.class).in(Scopes.SINGLETON);
        binder.bind(PaimonNodePartitioningProvider.class).in(Scopes.SINGLETON);
        jsonCodecBinder(binder).bindJsonCodec(WriteFragment.class);

        Multibinder<TableProcedureMetadata> tableProcedures = newSetBinder(binder, TableProcedureMetadata.class);
        tableProcedures.addBinding().toProvider(ExpireSnapshotsTableProcedure.class).in(Scopes.SINGLETON);
        tableProcedures.addBinding().toProvider(RemoveOrphanFilesTableProcedure.class).in(Scopes.SINGLETON);
        binder.bind(TableExecuteSplitManager.class).in(Scopes.SINGLETON);
        binder.bind(TableExecutePageSourceProvider.class).in(Scopes.SINGLETON);
        binder.bind(BucketCompactor.class).in(Scopes.SINGLETON);
        binder.bind(SortedRunMerger.class).to(BucketCompactor.class);
        binder.bind(LookupCompactor.class).in(Scopes.SINGLETON);
        binder.bind(Compactions.class).in(Scopes.SINGLETON);
        binder.bind(SinkCompactor.class).to(SinkCompactions.class).in(Scopes.SINGLETON);
        binder.bind(OptimizeCommit.class).in(Scopes.SINGLETON);
        binder.bind(PaimonViews.class).in(Scopes.SINGLETON);
        jsonCodecBinder(binder).bindJsonCodec(CompactionFragment.class);
        tableProcedures.addBinding().toProvider(OptimizeTableProcedure.class).in(Scopes.SINGLETON);

        Multibinder<Procedure> procedures = newSetBinder(binder, Procedure.class);
        procedures.addBinding().toProvider(FlushMetadataCacheProcedure.class).in(Scopes.SINGLETON);
        binder.bind(TableVersionProcedures.class).in(Scopes.SINGLETON);
        for (String name : TableVersionProcedures.NAMES) {
            procedures.addBinding().toProvider(new Provider<>()
            {
                @Inject
                private TableVersionProcedures versions;

                @Override
                public Procedure get()
                {
                    return versions.procedure(name);
                }
            }).in(Scopes.SINGLETON);
        }
    }

    private void bindCatalog(CatalogType catalogType, Module module)
    {
        install(conditionalModule(PaimonConfig.class, config -> config.getCatalogType() == catalogType, module));
    }

    @Provides
    @Singleton
    public static MetadataCache metadataCache(PaimonConfig config)
    {
        return new MetadataCache(config.getMetadataCacheMaxSize().toBytes(), config.getMetadataCacheTtl().toJavaTime());
    }

    // reads, writes and compactions open a table's files as its catalog says (a REST server may vend credentials per table)
    @Provides
    @Singleton
    public static TableFileSystemFactory tableFileSystems(PaimonCatalog catalog)
    {
        return catalog::fileSystem;
    }

    // table_changes resolves its table with the metadata of the query's transaction
    @ProvidesIntoSet
    @Singleton
    public static ConnectorTableFunction tableChanges(PaimonTransactionManager transactions, PaimonCatalog catalog)
    {
        return new TableChangesFunction(transactions::get, catalog);
    }
}
