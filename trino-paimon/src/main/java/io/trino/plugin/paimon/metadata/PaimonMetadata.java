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
package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Maps;
import io.airlift.json.JsonCodec;
import io.airlift.log.Logger;
import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonErrorCode;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.PaimonInsertTableHandle.DynamicBuckets;
import io.trino.plugin.paimon.PaimonMergeTableHandle;
import io.trino.plugin.paimon.PaimonOptimizeHandle;
import io.trino.plugin.paimon.PaimonPartitioningHandle;
import io.trino.plugin.paimon.PaimonSessionProperties.InsertExistingPartitionsBehavior;
import io.trino.plugin.paimon.PaimonTableExecuteHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.PaimonTableProcedureId;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.compaction.CompactionCommit;
import io.trino.plugin.paimon.compaction.Compactions;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.procedure.Optimize;
import io.trino.plugin.paimon.procedure.OptimizeCommit;
import io.trino.plugin.paimon.read.AuditLogPageSource;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.read.TableChangesPageSource;
import io.trino.plugin.paimon.read.TableChangesStatistics;
import io.trino.plugin.paimon.read.TableStatisticsEstimate;
import io.trino.plugin.paimon.table.MergeRowId;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.PaimonTableName;
import io.trino.plugin.paimon.table.RowChangeRules;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.plugin.paimon.write.DataFileLayout;
import io.trino.plugin.paimon.write.DynamicBucketAssigner;
import io.trino.plugin.paimon.write.SinkCompaction;
import io.trino.plugin.paimon.write.WriteFragment;
import io.trino.plugin.paimon.write.WriteRestrictions;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.plugin.paimon.write.WrittenIndexFile;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.BeginTableExecuteResult;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorAnalyzeMetadata;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorOutputMetadata;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPartitioningHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableLayout;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.ConnectorViewDefinition;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.RelationColumnsMetadata;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.RowChangeParadigm;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.connector.TableFunctionApplicationResult;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.statistics.TableStatisticsMetadata;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_TYPE;
import static io.trino.plugin.paimon.PaimonSessionProperties.insertExistingPartitionsBehavior;
import static io.trino.plugin.paimon.PaimonSessionProperties.isCollectStatisticsOnWrite;
import static io.trino.plugin.paimon.PaimonSessionProperties.isCompactionOnWorkersEnabled;
import static io.trino.plugin.paimon.PaimonSessionProperties.isCompactionOnWriteEnabled;
import static io.trino.spi.StandardErrorCode.INVALID_SCHEMA_PROPERTY;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * Metadata of one transaction. Tables are loaded once per transaction, so every statement of a query sees the
 * same schema version.
 */
public class PaimonMetadata
        extends ConnectorMetadataAdapter
{
    private static final Logger log = Logger.get(PaimonMetadata.class);
    private static final String READ_OPTIMIZED = "ro";
    private static final String AUDIT_LOG = "audit_log";
    // the "<table>$<name>" tables by name, the user guide's list of system tables
    private static final Map<String, SystemTableFactory> SYSTEM_TABLES = ImmutableMap.<String, SystemTableFactory>builder()
            .put("snapshots", SnapshotsTable::new)
            .put("files", FilesTable::new)
            .put("options", OptionsTable::new)
            .put("tags", TagsTable::new)
            .put("partitions", PartitionsTable::new)
            .put("schemas", SchemasTable::new)
            .put("manifests", ManifestsTable::new)
            .put("buckets", BucketsTable::new)
            .put("branches", BranchesTable::new)
            .buildOrThrow();
    private static final ColumnMetadata ROW_KIND_COLUMN = ColumnMetadata.builder()
            .setName(AuditLogPageSource.ROW_KIND_COLUMN)
            .setType(VARCHAR)
            .setNullable(false)
            .build();
    // the columns table_changes adds to the table's: what kind of change, by which snapshot, when
    private static final List<ColumnMetadata> CHANGE_COLUMNS = ImmutableList.of(
            ColumnMetadata.builder().setName(TableChangesPageSource.CHANGE_TYPE_COLUMN).setType(VARCHAR).setNullable(false).build(),
            ColumnMetadata.builder().setName(TableChangesPageSource.CHANGE_VERSION_COLUMN).setType(BIGINT).setNullable(false).build(),
            ColumnMetadata.builder().setName(TableChangesPageSource.CHANGE_TIMESTAMP_COLUMN).setType(TIMESTAMP_TZ_MILLIS).setNullable(false).build());
    static final List<String> CHANGE_COLUMN_NAMES = CHANGE_COLUMNS.stream().map(ColumnMetadata::getName).toList();
    private static final int[] CHANGE_FIELD_IDS = {
            TableChangesPageSource.CHANGE_TYPE_FIELD_ID,
            TableChangesPageSource.CHANGE_VERSION_FIELD_ID,
            TableChangesPageSource.CHANGE_TIMESTAMP_FIELD_ID};

    private final PaimonCatalog catalog;
    private final TypeMapping typeMapping;
    private final PaimonViews views;
    private final JsonCodec<WriteFragment> fragmentCodec;
    private final SchemaEvolution schemaEvolution;
    private final TableMaintenance maintenance;
    private final Compactions compactions;
    private final OptimizeCommit optimizeCommit;
    private final PaimonPageSourceProvider pageSources;
    private final Map<SchemaTableName, Optional<PaimonTable>> loadedTables = new HashMap<>();
    // undoes what a statement wrote and has not published yet: by commit identifier the table of a CREATE TABLE AS,
    // by staging folder the compacted files of an optimize
    private final Map<String, Runnable> uncommittedWork = new LinkedHashMap<>();
    // the commit identifiers of this transaction's writes under fault-tolerant execution, whose tasks may run more than once
    private final Set<String> retriedWrites = new HashSet<>();

    public PaimonMetadata(PaimonCatalog catalog, TypeManager typeManager, JsonCodec<WriteFragment> fragmentCodec, Compactions compactions, OptimizeCommit optimizeCommit, PaimonPageSourceProvider pageSources, PaimonViews views)
    {
        this.views = requireNonNull(views, "views is null");
        this.pageSources = requireNonNull(pageSources, "pageSources is null");
        this.compactions = requireNonNull(compactions, "compactions is null");
        this.optimizeCommit = requireNonNull(optimizeCommit, "optimizeCommit is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.typeMapping = new TypeMapping(typeManager.getTypeOperators());
        this.fragmentCodec = requireNonNull(fragmentCodec, "fragmentCodec is null");
        this.schemaEvolution = new SchemaEvolution(catalog, typeMapping);
        this.maintenance = new TableMaintenance(catalog);
    }

    /**
     * {@code ALTER TABLE t EXECUTE optimize} runs distributed (see {@link Optimize} and {@link Compactions});
     * {@code expire_snapshots} and {@code remove_orphan_files} on the coordinator (see {@link TableMaintenance}).
     */
    @Override
    public Optional<ConnectorTableExecuteHandle> getTableHandleForExecute(ConnectorSession session, ConnectorAccessControl accessControl, ConnectorTableHandle tableHandle, String procedureName, Map<String, Object> executeProperties, RetryMode retryMode)
    {
        if (procedureName.equalsIgnoreCase(PaimonTableProcedureId.OPTIMIZE.name())) {
            return Optional.of(Optimize.executeHandle(writableRows(tableHandle).table()));
        }
        // the maintenance procedures judge files by the versions of the whole table, all branches included
        PaimonTableHandle handle = writableTable(tableHandle);
        return TableMaintenance.tableHandleForExecute(handle, procedureName, executeProperties);
    }

    @Override
    protected void executeTableProcedure(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle)
    {
        maintenance.execute(session, (PaimonTableExecuteHandle) tableExecuteHandle);
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        return catalog.listDatabases(session);
    }

    @Override
    public boolean schemaExists(ConnectorSession session, String schemaName)
    {
        return catalog.databaseExists(session, schemaName);
    }

    @Override
    public void createSchema(ConnectorSession session, String schemaName, Map<String, Object> properties, TrinoPrincipal owner)
    {
        if (!properties.isEmpty()) {
            throw new TrinoException(INVALID_SCHEMA_PROPERTY, "Paimon schemas have no properties: " + properties.keySet());
        }
        catalog.createDatabase(session, schemaName);
    }

    @Override
    public void dropSchema(ConnectorSession session, String schemaName, boolean cascade)
    {
        if (cascade) {
            throw new TrinoException(NOT_SUPPORTED, "DROP SCHEMA CASCADE is not supported by the Paimon connector; drop the tables of '%s' first".formatted(schemaName));
        }
        catalog.dropDatabase(session, schemaName);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        ImmutableList.Builder<SchemaTableName> tables = ImmutableList.builder();
        for (String database : databases(session, schemaName)) {
            for (String table : catalog.listTables(session, database)) {
                tables.add(new SchemaTableName(database, table));
            }
            // Trino lists views among the tables
            for (String view : catalog.listViews(session, database)) {
                tables.add(new SchemaTableName(database, view));
            }
        }
        return tables.build();
    }

    @Override
    public List<SchemaTableName> listViews(ConnectorSession session, Optional<String> schemaName)
    {
        return views.listViews(session, databases(session, schemaName));
    }

    @Override
    public Map<SchemaTableName, ConnectorViewDefinition> getViews(ConnectorSession session, Optional<String> schemaName)
    {
        return views.getViews(session, databases(session, schemaName));
    }

    @Override
    public Optional<ConnectorViewDefinition> getView(ConnectorSession session, SchemaTableName viewName)
    {
        return views.getView(session, viewName);
    }

    @Override
    public void createView(ConnectorSession session, SchemaTableName viewName, ConnectorViewDefinition definition, Map<String, Object> viewProperties, boolean replace)
    {
        views.createView(session, viewName, definition, viewProperties, replace);
    }

    @Override
    public void dropView(ConnectorSession session, SchemaTableName viewName)
    {
        views.dropView(session, viewName);
    }

    @Override
    public void renameView(ConnectorSession session, SchemaTableName source, SchemaTableName target)
    {
        views.renameView(session, source, target);
    }

    @Override
    public void setViewComment(ConnectorSession session, SchemaTableName viewName, Optional<String> comment)
    {
        views.setViewComment(session, viewName, comment);
    }

    @Override
    public void setViewColumnComment(ConnectorSession session, SchemaTableName viewName, String columnName, Optional<String> comment)
    {
        views.setViewColumnComment(session, viewName, columnName, comment);
    }

    /**
     * Writes {@code schema-0} of the new table, after every check Paimon makes (see {@link NewTableSchema}); a
     * refused table leaves nothing behind.
     */
    @Override
    public void createTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, SaveMode saveMode)
    {
        if (saveMode == SaveMode.REPLACE) {
            throw new TrinoException(NOT_SUPPORTED, "The Paimon connector does not support CREATE OR REPLACE TABLE: " + tableMetadata.getTable());
        }
        SchemaTableName tableName = tableMetadata.getTable();
        TableSchema schema = NewTableSchema.create(tableMetadata, System.currentTimeMillis());
        loadedTables.remove(tableName);
        if (!catalog.createTable(session, tableName, catalog.newTableLocation(session, tableName), schema) && saveMode != SaveMode.IGNORE) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table already exists: " + tableName);
        }
    }

    @Override
    public void dropTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        writableTable(tableHandle);
        SchemaTableName tableName = ((PaimonTableHandle) tableHandle).table().name();
        loadedTables.remove(tableName);
        catalog.dropTable(session, tableName);
    }

    @Override
    public void setTableComment(ConnectorSession session, ConnectorTableHandle tableHandle, Optional<String> comment)
    {
        evolveSchema(session, tableHandle, new SchemaChange.UpdateComment(comment));
    }

    @Override
    public void setColumnComment(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column, Optional<String> comment)
    {
        evolveSchema(session, tableHandle, new SchemaChange.UpdateColumnComment(((PaimonColumnHandle) column).name(), comment));
    }

    @Override
    public void addColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnMetadata column, ColumnPosition position)
    {
        SchemaTableName tableName = ((PaimonTableHandle) tableHandle).schemaTableName();
        if (!(position instanceof ColumnPosition.Last)) {
            throw new TrinoException(NOT_SUPPORTED, "Table %s: the Paimon connector adds columns only at the end".formatted(tableName));
        }
        if (!column.isNullable()) {
            // Paimon's own message, naming the table as database.table
            throw new TrinoException(NOT_SUPPORTED, "Column %s cannot specify NOT NULL in the %s table.".formatted(column.getName(), tableName));
        }
        evolveSchema(session, tableHandle, new SchemaChange.AddColumn(column.getName(), column.getType(), comment(column)));
    }

    @Override
    public void dropColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column)
    {
        evolveSchema(session, tableHandle, new SchemaChange.DropColumn(((PaimonColumnHandle) column).name()));
    }

    @Override
    public void renameColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle source, String target)
    {
        evolveSchema(session, tableHandle, new SchemaChange.RenameColumn(((PaimonColumnHandle) source).name(), target));
    }

    @Override
    public void setColumnType(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column, Type type)
    {
        evolveSchema(session, tableHandle, SchemaChange.UpdateColumnType.of(((PaimonTableHandle) tableHandle).schemaTableName(), ((PaimonColumnHandle) column).name(), type));
    }

    @Override
    public void setTableProperties(ConnectorSession session, ConnectorTableHandle tableHandle, Map<String, Optional<Object>> properties)
    {
        evolveSchema(session, tableHandle, new SchemaChange.SetOptions(PaimonTableProperties.toOptionChanges(((PaimonTableHandle) tableHandle).schemaTableName(), properties)));
    }

    // a schema change of the table, or of the branch the handle names (its own schemas, as Paimon changes a branch's)
    private void evolveSchema(ConnectorSession session, ConnectorTableHandle tableHandle, SchemaChange change)
    {
        PaimonTableHandle handle = writableRows(tableHandle);
        SchemaTableName tableName = handle.schemaTableName();
        loadedTables.remove(tableName);
        schemaEvolution.commit(session, tableName, handle.table().branch(), change);
    }

    @Override
    public void renameTable(ConnectorSession session, ConnectorTableHandle tableHandle, SchemaTableName newTableName)
    {
        writableTable(tableHandle);
        SchemaTableName tableName = ((PaimonTableHandle) tableHandle).schemaTableName();
        loadedTables.remove(tableName);
        loadedTables.remove(newTableName);
        catalog.renameTable(session, tableName, newTableName);
    }

    /**
     * A table, a branch of it ({@code "t$branch_<name>"}), or the read-optimized view or audit log of either
     * ({@code "t$ro"}, {@code "t$audit_log"});
     * other {@code $} names are system tables (see {@link #getSystemTable}).
     */
    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion)
    {
        PaimonTableName name = PaimonTableName.parse(tableName);
        PaimonTableHandle.View view = PaimonTableHandle.View.TABLE;
        if (name.systemTable().isPresent()) {
            switch (name.systemTable().get()) {
                case READ_OPTIMIZED -> view = PaimonTableHandle.View.READ_OPTIMIZED;
                case AUDIT_LOG -> view = PaimonTableHandle.View.AUDIT_LOG;
                default -> {
                    return null;
                }
            }
        }
        if (startVersion.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "The Paimon connector does not read the changes between two versions: " + tableName);
        }
        Optional<PaimonTable> latest = loadTable(session, name.table(), name.branch());
        if (latest.isEmpty()) {
            return null;
        }
        PaimonTable table = latest.get();
        TrinoFileSystem fileSystem = catalog.fileSystem(session, table.name());
        if (endVersion.isEmpty()) {
            return new PaimonTableHandle(table, new SnapshotFiles(fileSystem, table.metadataLocation()).latestSnapshotId()).withView(view);
        }
        // an older snapshot is read with the schema it was written with: its columns, its options
        TableVersions.PinnedVersion pinned = TableVersions.resolve(session, fileSystem, table, endVersion.get());
        long schemaId = pinned.snapshot().schemaId();
        PaimonTable versioned = schemaId == table.schema().id() ? table : catalog.loadSchemaVersion(session, table, schemaId);
        return new PaimonTableHandle(versioned, OptionalLong.of(pinned.snapshot().id()), pinned.tag(), TupleDomain.all()).withView(view);
    }

    // changes of the table itself (dropping, renaming, analyzing, its maintenance) go to the main branch's table
    private static PaimonTableHandle writableTable(ConnectorTableHandle tableHandle)
    {
        PaimonTableHandle handle = writableRows(tableHandle);
        if (handle.table().branch().isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "Table %s: the Paimon connector changes the rows and the schema of a branch, not the table itself (branch '%s')".formatted(handle.table().name(), handle.table().branch().get()));
        }
        return handle;
    }

    // rows and schemas change on the main branch or on a branch (its own snapshots and schemas, as Paimon's writers
    // do); the read-optimized view and the audit log are read only
    private static PaimonTableHandle writableRows(ConnectorTableHandle tableHandle)
    {
        PaimonTableHandle handle = (PaimonTableHandle) tableHandle;
        if (handle.view() != PaimonTableHandle.View.TABLE) {
            String view = switch (handle.view()) {
                case TABLE, READ_OPTIMIZED -> "$" + READ_OPTIMIZED;
                case AUDIT_LOG -> "$" + AUDIT_LOG;
                case CHANGES -> " (its changes)";
            };
            throw new TrinoException(NOT_SUPPORTED, "Table %s%s is read only".formatted(handle.table().name(), view));
        }
        return handle;
    }

    /** See {@link ScanPushdown}: every domain prunes, only partition domains are enforced. */
    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session, ConnectorTableHandle tableHandle, Constraint constraint)
    {
        return ScanPushdown.applyFilter((PaimonTableHandle) tableHandle, constraint);
    }

    /** See {@link ScanPushdown}: dereferences of ROW columns are read as the nested fields alone. */
    @Override
    public Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(ConnectorSession session, ConnectorTableHandle tableHandle, List<ConnectorExpression> projections, Map<String, ColumnHandle> assignments)
    {
        return ScanPushdown.applyProjection((PaimonTableHandle) tableHandle, projections, assignments);
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle tableHandle, long limit)
    {
        return ScanPushdown.applyLimit((PaimonTableHandle) tableHandle, limit);
    }

    /** A call of {@code table_changes} becomes the scan its analysis resolved ({@link TableChangesFunction}). */
    @Override
    public Optional<TableFunctionApplicationResult<ConnectorTableHandle>> applyTableFunction(ConnectorSession session, ConnectorTableFunctionHandle handle)
    {
        if (!(handle instanceof TableChangesFunctionHandle changes)) {
            return Optional.empty();
        }
        return Optional.of(new TableFunctionApplicationResult<>(changes.tableHandle(), ImmutableList.copyOf(changes.columns())));
    }

    /** A DELETE whose predicate selects whole partitions drops them in metadata (see {@link PartitionDelete}). */
    @Override
    public Optional<ConnectorTableHandle> applyDelete(ConnectorSession session, ConnectorTableHandle handle)
    {
        writableRows(handle);
        return PartitionDelete.applyDelete((PaimonTableHandle) handle).map(ConnectorTableHandle.class::cast);
    }

    @Override
    public OptionalLong executeDelete(ConnectorSession session, ConnectorTableHandle handle)
    {
        return PartitionDelete.execute(catalog.fileSystem(session, ((PaimonTableHandle) handle).schemaTableName()), catalog.snapshotPublisher(session, ((PaimonTableHandle) handle).table()), (PaimonTableHandle) handle, session.getQueryId());
    }

    @Override
    public void truncateTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        writableRows(tableHandle);
        PartitionDelete.execute(catalog.fileSystem(session, ((PaimonTableHandle) tableHandle).schemaTableName()), catalog.snapshotPublisher(session, ((PaimonTableHandle) tableHandle).table()), ((PaimonTableHandle) tableHandle).withConstraint(TupleDomain.all()), session.getQueryId());
    }

    /**
     * Fixed-bucket tables route rows by Paimon's bucket of their bucket key, one writer per bucket, so that a bucket's
     * new sorted run is written by one sink with one sequence range, and that sink alone compacts the bucket (append
     * tables too: Paimon's writers shuffle them by bucket alike). Dynamic-bucket tables route rows by
     * Paimon's assigner channel, so that one sink assigns (and writes) the buckets of each (partition, channel).
     */
    @Override
    public Optional<ConnectorTableLayout> getInsertLayout(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        return writeLayout(((PaimonTableHandle) tableHandle).table());
    }

    /** The layout of CREATE TABLE AS, the same as an INSERT into the table it creates. */
    @Override
    public Optional<ConnectorTableLayout> getNewTableLayout(ConnectorSession session, ConnectorTableMetadata tableMetadata)
    {
        return writeLayout(newTable(session, tableMetadata));
    }

    private Optional<ConnectorTableLayout> writeLayout(PaimonTable table)
    {
        TableSchema schema = table.schema();
        TableOptions options = table.options();
        if (table.hasPrimaryKey() && options.bucket() == TableOptions.DYNAMIC_BUCKET) {
            return Optional.of(dynamicBucketLayout(table, schema));
        }
        if (options.bucket() <= 0) {
            return Optional.empty();
        }
        List<String> bucketKeyTypes = new ArrayList<>();
        List<String> bucketKeyColumns = new ArrayList<>();
        for (String name : options.bucketKey()) {
            DataField field = schema.field(name)
                    .orElseThrow(() -> new TrinoException(PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION, "Table %s: bucket key field %s is not a column".formatted(table.name(), name)));
            bucketKeyTypes.add(field.type().asSqlString());
            bucketKeyColumns.add(columnMetadata(table, field).getName());
        }
        PaimonPartitioningHandle partitioning = PaimonPartitioningHandle.fixed(options.bucket(), bucketKeyTypes, options.bucketFunctionType() == TableOptions.BucketFunctionType.MOD);
        return Optional.of(new ConnectorTableLayout(partitioning, bucketKeyColumns, false));
    }

    // rows reach writers by Paimon's assigner channel of their partition and trimmed primary key
    private ConnectorTableLayout dynamicBucketLayout(PaimonTable table, TableSchema schema)
    {
        String tableName = table.name().toString();
        int assigners = DynamicBucketAssigner.assigners(schema.options(), tableName);
        int channels = DynamicBucketAssigner.channels(assigners, !schema.partitionKeys().isEmpty());
        List<DataField> partitionFields = schema.partitionKeys().stream().map(name -> schema.field(name).orElseThrow()).toList();
        List<DataField> keyFields = DataFileLayout.trimmedPrimaryKey(schema);
        List<String> columns = new ArrayList<>();
        partitionFields.forEach(field -> columns.add(columnMetadata(table, field).getName()));
        keyFields.forEach(field -> columns.add(columnMetadata(table, field).getName()));
        PaimonPartitioningHandle partitioning = PaimonPartitioningHandle.dynamic(
                channels,
                assigners,
                partitionFields.stream().map(field -> field.type().asSqlString()).toList(),
                keyFields.stream().map(field -> field.type().asSqlString()).toList());
        return new ConnectorTableLayout(partitioning, columns, false);
    }

    // the table CREATE TABLE (AS) would create, validated as CREATE TABLE validates it; nothing is written
    private PaimonTable newTable(ConnectorSession session, ConnectorTableMetadata tableMetadata)
    {
        SchemaTableName tableName = tableMetadata.getTable();
        TableSchema schema = NewTableSchema.create(tableMetadata, System.currentTimeMillis());
        return new PaimonTable(tableName, catalog.newTableLocation(session, tableName), schema);
    }

    /**
     * CREATE TABLE AS: every check of CREATE TABLE and of an INSERT runs before anything is written; then
     * {@code schema-0} is written (the page sinks load nothing, but the table must exist for the commit) and the
     * statement continues as an INSERT into the empty table. Until {@link #finishCreateTable} publishes the data, the
     * table folder this statement created is removed again when the statement fails or is aborted.
     */
    @Override
    public ConnectorOutputTableHandle beginCreateTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, Optional<ConnectorTableLayout> layout, RetryMode retryMode, boolean replace)
    {
        SchemaTableName tableName = tableMetadata.getTable();
        if (replace) {
            throw new TrinoException(NOT_SUPPORTED, "The Paimon connector does not support CREATE OR REPLACE TABLE: " + tableName);
        }
        PaimonTable table = newTable(session, tableMetadata);
        WriteRestrictions.checkInsertable(tableName.toString(), table.schema(), table.options());
        WriteRestrictions.checkCompactedOnWrite(tableName.toString(), table.schema(), table.options(), isCompactionOnWriteEnabled(session));
        loadedTables.remove(tableName);
        if (!catalog.createTable(session, tableName, table.location(), table.schema())) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table already exists: " + tableName);
        }
        // a catalog server may place the table elsewhere than it said beforehand: the data goes where the table is
        table = catalog.loadTable(session, tableName).orElse(table);
        String commitIdentifier = UUID.randomUUID().toString();
        uncommittedWork.put(commitIdentifier, () -> dropCreatedTable(session, tableName));
        if (retryMode != RetryMode.NO_RETRIES) {
            retriedWrites.add(commitIdentifier);
        }
        Optional<DynamicBuckets> dynamicBuckets = Optional.empty();
        if (table.hasPrimaryKey() && table.options().bucket() == TableOptions.DYNAMIC_BUCKET) {
            dynamicBuckets = Optional.of(dynamicBuckets(table, table.schema()));
        }
        // the new table is written as an INSERT into it is, its buckets compacted in the sinks alike
        return new PaimonInsertTableHandle(table, OptionalLong.empty(), writeColumns(table), dynamicBuckets, commitIdentifier, false, compactsInSinks(session, table, false));
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, ConnectorOutputTableHandle tableHandle, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        PaimonInsertTableHandle handle = (PaimonInsertTableHandle) tableHandle;
        try {
            commit(session, handle, fragments, computedStatistics);
        }
        catch (RuntimeException e) {
            Runnable cleanup = uncommittedWork.remove(handle.commitIdentifier());
            if (cleanup != null) {
                try {
                    cleanup.run();
                }
                catch (RuntimeException cleanupFailure) {
                    e.addSuppressed(cleanupFailure);
                }
            }
            throw e;
        }
        uncommittedWork.remove(handle.commitIdentifier());
        return Optional.empty();
    }

    /**
     * The last call of every query, successful or not: a CREATE TABLE AS that did not finish removes its table, an
     * {@code optimize} that did not reach its commit the files its workers wrote.
     */
    @Override
    public void cleanupQuery(ConnectorSession session)
    {
        rollback();
    }

    /**
     * Removes what statements of this transaction wrote and did not publish: the tables of CREATE TABLE AS statements,
     * the compacted files of {@code optimize} executions.
     */
    public void rollback()
    {
        List<Runnable> cleanups = ImmutableList.copyOf(uncommittedWork.values());
        uncommittedWork.clear();
        for (Runnable cleanup : cleanups) {
            try {
                cleanup.run();
            }
            catch (RuntimeException e) {
                log.warn(e, "Could not remove what a failed statement wrote");
            }
        }
    }

    private void dropCreatedTable(ConnectorSession session, SchemaTableName tableName)
    {
        loadedTables.remove(tableName);
        catalog.dropTable(session, tableName);
    }

    @Override
    public ConnectorInsertTableHandle beginInsert(ConnectorSession session, ConnectorTableHandle tableHandle, List<ColumnHandle> columns, RetryMode retryMode)
    {
        writableRows(tableHandle);
        PaimonTableHandle handle = (PaimonTableHandle) tableHandle;
        PaimonTable table = handle.table();
        String tableName = table.name().toString();
        TableSchema schema = table.schema();
        TableOptions options = table.options();
        WriteRestrictions.checkInsertable(tableName, schema, options);
        WriteRestrictions.checkCompactedOnWrite(tableName, schema, options, isCompactionOnWriteEnabled(session));
        catalog.checkCommitsAreExclusive(session, table);

        // the pages carry every table column, in table order
        List<PaimonColumnHandle> tableColumns = writeColumns(table);
        if (!columns.equals(tableColumns)) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: INSERT columns %s are not the table columns %s".formatted(tableName, columns, tableColumns));
        }
        boolean overwrite = insertExistingPartitionsBehavior(session) == InsertExistingPartitionsBehavior.OVERWRITE;
        if (overwrite && table.hasPrimaryKey() && options.bucket() == TableOptions.DYNAMIC_BUCKET) {
            // an overwrite would also have to replace the key index of the partitions it replaces
            throw new TrinoException(NOT_SUPPORTED, "Table %s: insert_existing_partitions_behavior = OVERWRITE is not supported for dynamic-bucket tables".formatted(tableName));
        }
        return retried(writeHandle(session, handle, overwrite), retryMode);
    }

    private PaimonInsertTableHandle retried(PaimonInsertTableHandle handle, RetryMode retryMode)
    {
        if (retryMode != RetryMode.NO_RETRIES) {
            retriedWrites.add(handle.commitIdentifier());
        }
        return handle;
    }

    // the write of a statement that read the table at the handle's snapshot: an INSERT's, or the records of an UPDATE, DELETE or MERGE
    private PaimonInsertTableHandle writeHandle(ConnectorSession session, PaimonTableHandle handle, boolean overwrite)
    {
        PaimonTable table = handle.table();
        TableSchema schema = table.schema();
        TableOptions options = table.options();
        Optional<DynamicBuckets> dynamicBuckets = Optional.empty();
        if (table.hasPrimaryKey() && options.bucket() == TableOptions.DYNAMIC_BUCKET) {
            dynamicBuckets = Optional.of(dynamicBuckets(table, schema));
        }
        return new PaimonInsertTableHandle(
                table,
                handle.snapshotId(),
                writeColumns(table),
                dynamicBuckets,
                UUID.randomUUID().toString(),
                overwrite,
                compactsInSinks(session, table, overwrite));
    }

    /**
     * Whether the page sinks of a write compact the buckets they wrote, as the coordinator would after the commit
     * ({@link Compactions#compactsOnWrite}): each sink owns its buckets, since rows reach writers by bucket
     * ({@link #writeLayout}). Not an overwrite, whose commit replaces the files a sink would compact. Under retries
     * too: a sink's compactions name their files after the statement, so those of a discarded task attempt are deleted
     * with its data files.
     */
    private static boolean compactsInSinks(ConnectorSession session, PaimonTable table, boolean overwrite)
    {
        return isCompactionOnWorkersEnabled(session)
                && isCompactionOnWriteEnabled(session)
                && Compactions.compactsOnWrite(table)
                && !overwrite;
    }

    private List<PaimonColumnHandle> writeColumns(PaimonTable table)
    {
        return table.schema().fields().stream()
                .map(field -> {
                    ColumnMetadata column = columnMetadata(table, field);
                    return new PaimonColumnHandle(field.id(), field.name(), column.getType(), column.isNullable());
                })
                .collect(toImmutableList());
    }

    // the assignment of a dynamic-bucket table's keys to writer channels
    private static DynamicBuckets dynamicBuckets(PaimonTable table, TableSchema schema)
    {
        String tableName = table.name().toString();
        int assigners = DynamicBucketAssigner.assigners(schema.options(), tableName);
        return new DynamicBuckets(
                DynamicBucketAssigner.channels(assigners, !schema.partitionKeys().isEmpty()),
                assigners,
                DynamicBucketAssigner.targetRowNumber(schema.options(), tableName),
                DynamicBucketAssigner.maxBuckets(schema.options(), tableName));
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishInsert(ConnectorSession session, ConnectorInsertTableHandle insertHandle, List<ConnectorTableHandle> sourceTableHandles, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        commit(session, (PaimonInsertTableHandle) insertHandle, fragments, computedStatistics);
        return Optional.empty();
    }

    /**
     * Column statistics for an {@code INSERT} or {@code CREATE TABLE AS} to compute over the rows it writes, which its
     * commit records ({@link TableAnalyze#writtenStatistics}): for a new or empty table, or one whose latest snapshot
     * names statistics to merge them into; a table whose rows were never described would get statistics of the new
     * rows alone, so nothing is computed for it.
     */
    @Override
    protected TableStatisticsMetadata statisticsToCollectOnWrite(ConnectorSession session, ConnectorTableMetadata tableMetadata)
    {
        if (!isCollectStatisticsOnWrite(session)) {
            return TableStatisticsMetadata.empty();
        }
        Optional<PaimonTable> table = loadTable(session, tableMetadata.getTable());
        if (table.isPresent()) {
            if (!TableAnalyze.describesWrites(table.get())) {
                return TableStatisticsMetadata.empty();
            }
            Optional<Snapshot> latest = new SnapshotFiles(catalog.fileSystem(session, tableMetadata.getTable()), table.get().metadataLocation()).latestSnapshot();
            boolean described = latest.isEmpty() || latest.get().totalRecordCount().orElse(1) == 0 || latest.get().statistics().isPresent();
            if (!described) {
                return TableStatisticsMetadata.empty();
            }
        }
        return TableAnalyze.writeMetadata(tableMetadata.getColumns());
    }

    private void commit(ConnectorSession session, PaimonInsertTableHandle handle, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        List<WriteFragment> written = fragments.stream()
                .map(fragment -> fragmentCodec.fromJson(fragment.getBytes()))
                .collect(toImmutableList());
        List<ManifestEntry> files = written.stream()
                .flatMap(fragment -> fragment.dataFile().stream())
                .map(WrittenFile::toManifestEntry)
                .collect(toImmutableList());
        List<ManifestEntry> changelogFiles = written.stream()
                .flatMap(fragment -> fragment.changelogFile().stream())
                .map(WrittenFile::toManifestEntry)
                .collect(toImmutableList());
        List<IndexManifestEntry> indexFiles = written.stream()
                .flatMap(fragment -> fragment.indexFile().stream())
                .map(WrittenIndexFile::toIndexManifestEntry)
                .collect(toImmutableList());
        List<SinkCompaction> sinkCompactions = written.stream()
                .flatMap(fragment -> fragment.compaction().stream())
                .collect(toImmutableList());
        if (retriedWrites.remove(handle.commitIdentifier())) {
            // before the commit, so that a commit that fails (a conflict) leaves only its own files to remove
            List<ManifestEntry> committed = ImmutableList.<ManifestEntry>builder().addAll(files).addAll(changelogFiles).build();
            int deleted = ExtraAttemptFiles.delete(
                    catalog.fileSystem(session, handle.schemaTableName()),
                    handle.table(),
                    handle.commitIdentifier(),
                    committed,
                    indexFiles,
                    sinkCompactions.stream().map(SinkCompaction::result).toList(),
                    handle.compactInSinks());
            if (deleted > 0) {
                log.debug("Table %s: deleted %s files of discarded task attempts of query %s", handle.schemaTableName(), deleted, session.getQueryId());
            }
        }
        SnapshotPublisher publisher = catalog.snapshotPublisher(session, handle.table());
        Optional<Snapshot> committed;
        try {
            committed = new InsertCommit(catalog.fileSystem(session, handle.schemaTableName()), publisher, handle, pageSources.createKeyLookup(session, handle.table())).commit(files, changelogFiles, indexFiles, session.getQueryId(), TableAnalyze.writtenStatistics(handle.table(), tableColumns(handle.table()), computedStatistics));
        }
        catch (RuntimeException e) {
            // the compactions of the statement's files: no snapshot names what they wrote, whatever the commit's outcome
            new CompactionCommit(catalog.fileSystem(session, handle.schemaTableName()), publisher, handle.table()).discard(sinkCompactions.stream().map(SinkCompaction::result).toList(), e);
            throw e;
        }
        if (committed.isEmpty()) {
            return;
        }
        // as Paimon's commit callback: the partitions that received files, once the snapshot is published
        catalog.registerPartitions(session, handle.table(), files.stream().map(ManifestEntry::partition).distinct().collect(toImmutableList()));
        compactions.compactCommittedWrite(session, catalog.fileSystem(session, handle.schemaTableName()), publisher, handle, committed.get(), files, sinkCompactions);
    }

    @Override
    public BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> beginTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, ConnectorTableHandle updatedSourceTableHandle)
    {
        PaimonTableHandle source = (PaimonTableHandle) updatedSourceTableHandle;
        catalog.checkCommitsAreExclusive(session, source.table());
        BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> begun = Optimize.begin((PaimonTableExecuteHandle) tableExecuteHandle, source);
        PaimonOptimizeHandle execution = ((PaimonTableExecuteHandle) begun.getTableExecuteHandle()).optimize();
        TrinoFileSystem fileSystem = catalog.fileSystem(session, source.table().name());
        Optimize.open(fileSystem, execution);
        uncommittedWork.put(execution.stagingLocation().orElseThrow(), () -> optimizeCommit.abandon(fileSystem, execution));
        return begun;
    }

    @Override
    protected void finishTableProcedure(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Collection<Slice> fragments, List<Object> splitSourceInfo)
    {
        // from here on the commit removes what it wrote when it surely did not land, and nothing when it may have
        PaimonOptimizeHandle optimize = ((PaimonTableExecuteHandle) tableExecuteHandle).optimize();
        optimize.stagingLocation().ifPresent(uncommittedWork::remove);
        optimizeCommit.finish(session, catalog.fileSystem(session, optimize.table().name()), catalog.snapshotPublisher(session, optimize.table()), optimize, splitSourceInfo);
    }

    /** UPDATE and DELETE reach the sinks as a delete of the old row (by its row id) and an insert of the new one. */
    @Override
    public RowChangeParadigm getRowChangeParadigm(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        return RowChangeParadigm.DELETE_ROW_AND_INSERT_ROW;
    }

    // Trino asks here for UPDATE, MERGE and any DELETE that applyDelete did not take as a drop of whole partitions.
    // The merge path finds a changed row by its key, which rows of an append table lack; the refusal says what the
    // table does take instead of Trino's generic wording
    private static void checkRowsModifiable(PaimonTable table)
    {
        if (table.hasPrimaryKey()) {
            return;
        }
        List<String> partitionColumns = table.partitionFields().stream()
                .map(field -> field.name().toLowerCase(ENGLISH))
                .toList();
        String supported = partitionColumns.isEmpty()
                ? "DELETE of all rows (no WHERE clause)"
                : "DELETE of whole partitions (a WHERE clause on the partition columns %s only)".formatted(String.join(", ", partitionColumns));
        throw new TrinoException(NOT_SUPPORTED, ("Cannot change rows of Paimon table %s: it is an append table (no primary key), whose rows have no key to address them by, " +
                "so UPDATE, MERGE and DELETE of single rows are not supported; supported are %s and TRUNCATE TABLE").formatted(table.name(), supported));
    }

    @Override
    public ColumnHandle getMergeRowIdColumnHandle(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        PaimonTable table = ((PaimonTableHandle) tableHandle).table();
        if (!table.hasPrimaryKey()) {
            // Trino plans every DELETE as a merge before applyDelete may take a whole-partition DELETE over, so an
            // append table answers with a row id too; beginMerge refuses what applyDelete did not take
            return new PaimonColumnHandle(MergeRowId.FIELD_ID, MergeRowId.COLUMN_NAME, BIGINT, false);
        }
        List<RowType.Field> fields = MergeRowId.fields(table.schema(), table.options()).stream()
                .map(field -> RowType.field(field.name(), columnMetadata(table, field).getType()))
                .toList();
        return new PaimonColumnHandle(MergeRowId.FIELD_ID, MergeRowId.COLUMN_NAME, RowType.from(fields), false);
    }

    /** Changed rows reach the writer of their bucket as inserted rows do, routed by the same columns inside the row id. */
    @Override
    public Optional<ConnectorPartitioningHandle> getUpdateLayout(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        PaimonTable table = ((PaimonTableHandle) tableHandle).table();
        if (!table.hasPrimaryKey()) {
            // no rows of an append table are changed (beginMerge refuses); its row id is a placeholder
            return Optional.empty();
        }
        List<String> rowIdNames = MergeRowId.fields(table.schema(), table.options()).stream().map(DataField::name).toList();
        return writeLayout(table).map(layout -> {
            PaimonPartitioningHandle insertPartitioning = (PaimonPartitioningHandle) layout.getPartitioning().orElseThrow();
            List<Integer> positions = layout.getPartitionColumns().stream()
                    .map(column -> indexOfColumn(table, rowIdNames, column))
                    .toList();
            return insertPartitioning.onRowId(positions);
        });
    }

    // the position in the row id of a routing column, named as Trino names it
    private int indexOfColumn(PaimonTable table, List<String> rowIdNames, String column)
    {
        for (int i = 0; i < rowIdNames.size(); i++) {
            if (columnMetadata(table, table.schema().field(rowIdNames.get(i)).orElseThrow()).getName().equals(column)) {
                return i;
            }
        }
        throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: routing column %s is not in the row id %s".formatted(table.name(), column, rowIdNames));
    }

    /**
     * UPDATE, DELETE and MERGE: the rules of the table's merge engine are checked against the columns the statement
     * sets (those the rows decide are left to the sinks), then the statement writes as an INSERT does.
     */
    @Override
    public ConnectorMergeTableHandle beginMerge(ConnectorSession session, ConnectorTableHandle tableHandle, Map<Integer, Collection<ColumnHandle>> updateCaseColumns, RetryMode retryMode)
    {
        writableRows(tableHandle);
        PaimonTableHandle handle = (PaimonTableHandle) tableHandle;
        PaimonTable table = handle.table();
        checkRowsModifiable(table);
        String tableName = table.name().toString();
        Map<Integer, Set<String>> updatedColumns = new HashMap<>();
        updateCaseColumns.forEach((caseNumber, columns) -> updatedColumns.put(caseNumber, columns.stream()
                .map(column -> ((PaimonColumnHandle) column).name())
                .collect(toImmutableSet())));
        RowChangeRules rules = RowChangeRules.forStatement(tableName, table.schema(), table.options(), updatedColumns);
        WriteRestrictions.checkInsertable(tableName, table.schema(), table.options());
        WriteRestrictions.checkCompactedOnWrite(tableName, table.schema(), table.options(), isCompactionOnWriteEnabled(session));
        return new PaimonMergeTableHandle(handle, retried(writeHandle(session, handle, false), retryMode), rules);
    }

    /** One snapshot for the statement, committed as an INSERT's: a rival commit to a bucket written since the read snapshot fails it. */
    @Override
    public void finishMerge(ConnectorSession session, ConnectorMergeTableHandle mergeTableHandle, List<ConnectorTableHandle> sourceTableHandles, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        // a row change adds records that may replace rows: the snapshot inherits the statistics it had
        commit(session, ((PaimonMergeTableHandle) mergeTableHandle).getInsertHandle(), fragments, List.of());
    }

    /**
     * The {@code "<table>$<name>"} tables of {@link #systemTableNames()}, also of a branch
     * ({@code "<table>$branch_<branch>$<name>"}).
     */
    @Override
    public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName)
    {
        PaimonTableName name = PaimonTableName.parse(tableName);
        if (name.systemTable().isEmpty()) {
            return Optional.empty();
        }
        Optional<PaimonTable> loaded = loadTable(session, name.table(), name.branch());
        if (loaded.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(SYSTEM_TABLES.get(name.systemTable().get()))
                .map(factory -> factory.create(catalog, loaded.get(), tableName));
    }

    /** The names of the {@code "<table>$<name>"} tables; the views {@code $ro} and {@code $audit_log} are not among them. */
    public static Set<String> systemTableNames()
    {
        return SYSTEM_TABLES.keySet();
    }

    @FunctionalInterface
    private interface SystemTableFactory
    {
        SystemTable create(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName);
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        PaimonTableHandle handle = (PaimonTableHandle) tableHandle;
        ConnectorTableMetadata metadata = tableMetadata(handle.table());
        List<ColumnMetadata> columns = switch (handle.view()) {
            case TABLE, READ_OPTIMIZED -> metadata.getColumns();
            case AUDIT_LOG -> ImmutableList.<ColumnMetadata>builder().add(ROW_KIND_COLUMN).addAll(metadata.getColumns()).build();
            case CHANGES -> ImmutableList.<ColumnMetadata>builder().addAll(metadata.getColumns()).addAll(CHANGE_COLUMNS).build();
        };
        return new ConnectorTableMetadata(metadata.getTable(), columns, metadata.getProperties(), metadata.getComment());
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        PaimonTable table = ((PaimonTableHandle) tableHandle).table();
        ImmutableMap.Builder<String, ColumnHandle> columns = ImmutableMap.builder();
        if (((PaimonTableHandle) tableHandle).view() == PaimonTableHandle.View.AUDIT_LOG) {
            columns.put(ROW_KIND_COLUMN.getName(), new PaimonColumnHandle(AuditLogPageSource.ROW_KIND_FIELD_ID, ROW_KIND_COLUMN.getName(), VARCHAR, false));
        }
        columns.putAll(tableColumns(table));
        if (((PaimonTableHandle) tableHandle).view() == PaimonTableHandle.View.CHANGES) {
            for (int i = 0; i < CHANGE_COLUMNS.size(); i++) {
                ColumnMetadata column = CHANGE_COLUMNS.get(i);
                columns.put(column.getName(), new PaimonColumnHandle(CHANGE_FIELD_IDS[i], column.getName(), column.getType(), false));
            }
        }
        return columns.buildOrThrow();
    }

    // the table's columns by the names Trino knows them
    private Map<String, PaimonColumnHandle> tableColumns(PaimonTable table)
    {
        ImmutableMap.Builder<String, PaimonColumnHandle> columns = ImmutableMap.builder();
        for (DataField field : table.schema().fields()) {
            ColumnMetadata column = columnMetadata(table, field);
            columns.put(column.getName(), new PaimonColumnHandle(field.id(), field.name(), column.getType(), column.isNullable()));
        }
        return columns.buildOrThrow();
    }

    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        PaimonTableHandle handle = (PaimonTableHandle) tableHandle;
        if (handle.view() == PaimonTableHandle.View.AUDIT_LOG) {
            // retractions and the records of many versions make the table's estimates no bound for them
            return TableStatistics.empty();
        }
        if (handle.view() == PaimonTableHandle.View.CHANGES) {
            return TableChangesStatistics.estimate(catalog.fileSystem(session, handle.schemaTableName()), catalog.metadataCache(), handle);
        }
        List<PaimonColumnHandle> columns = getColumnHandles(session, handle).values().stream()
                .map(PaimonColumnHandle.class::cast)
                .toList();
        return TableStatisticsEstimate.estimate(catalog.fileSystem(session, handle.schemaTableName()), catalog.metadataCache(), handle, columns);
    }

    @Override
    public ConnectorAnalyzeMetadata getStatisticsCollectionMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, Map<String, Object> analyzeProperties)
    {
        return TableAnalyze.analyzeMetadata((PaimonTableHandle) tableHandle, dataColumns(session, tableHandle), analyzeProperties);
    }

    @Override
    public ConnectorTableHandle beginStatisticsCollection(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        writableTable(tableHandle);
        return tableHandle;
    }

    @Override
    public void finishStatisticsCollection(ConnectorSession session, ConnectorTableHandle tableHandle, Collection<ComputedStatistics> computedStatistics)
    {
        TableAnalyze.finish(catalog.fileSystem(session, ((PaimonTableHandle) tableHandle).schemaTableName()), catalog.snapshotPublisher(session, ((PaimonTableHandle) tableHandle).table()), (PaimonTableHandle) tableHandle, dataColumns(session, tableHandle), computedStatistics);
    }

    private Map<String, PaimonColumnHandle> dataColumns(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        return Maps.transformValues(getColumnHandles(session, tableHandle), PaimonColumnHandle.class::cast);
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        PaimonTable table = ((PaimonTableHandle) tableHandle).table();
        PaimonColumnHandle column = (PaimonColumnHandle) columnHandle;
        if (column.fieldId() == MergeRowId.FIELD_ID) {
            return ColumnMetadata.builder().setName(column.name()).setType(column.type()).setHidden(true).build();
        }
        if (column.fieldId() == AuditLogPageSource.ROW_KIND_FIELD_ID) {
            return ROW_KIND_COLUMN;
        }
        for (int i = 0; i < CHANGE_FIELD_IDS.length; i++) {
            if (column.fieldId() == CHANGE_FIELD_IDS[i]) {
                return CHANGE_COLUMNS.get(i);
            }
        }
        if (column.isProjection()) {
            // a field of a ROW column that a projection pushed into the scan
            return ColumnMetadata.builder().setName(column.qualifiedName()).setType(column.type()).build();
        }
        return table.schema().fields().stream()
                .filter(field -> field.id() == column.fieldId())
                .findFirst()
                .map(field -> columnMetadata(table, field))
                .orElseThrow(() -> new IllegalArgumentException("No field %s in %s".formatted(column, table.name())));
    }

    /**
     * Lists the columns of many tables for {@code information_schema.columns}. A table whose schema cannot be read
     * or mapped is logged and left out, so one broken table does not hide the columns of the others; reading that
     * table directly still fails with the named error.
     */
    @Override
    public Iterator<RelationColumnsMetadata> streamRelationColumns(ConnectorSession session, Optional<String> schemaName, UnaryOperator<Set<SchemaTableName>> relationFilter)
    {
        Set<SchemaTableName> tables = relationFilter.apply(listTables(session, schemaName).stream().collect(toImmutableSet()));
        List<RelationColumnsMetadata> relations = new ArrayList<>();
        for (SchemaTableName tableName : tables) {
            try {
                Optional<PaimonTable> table = loadTable(session, tableName);
                if (table.isPresent()) {
                    relations.add(RelationColumnsMetadata.forTable(tableName, tableMetadata(table.get()).getColumns()));
                }
                else {
                    views.getView(session, tableName).ifPresent(view -> relations.add(RelationColumnsMetadata.forView(tableName, view.getColumns())));
                }
            }
            catch (TrinoException e) {
                if (!isBrokenTable(e)) {
                    throw e;
                }
                log.warn(e, "Leaving table %s out of the column listing", tableName);
            }
        }
        return relations.iterator();
    }

    private static boolean isBrokenTable(TrinoException e)
    {
        return e.getErrorCode().equals(PaimonErrorCode.PAIMON_INVALID_METADATA.toErrorCode())
                || e.getErrorCode().equals(PAIMON_UNSUPPORTED_TYPE.toErrorCode())
                || e.getErrorCode().equals(PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION.toErrorCode());
    }

    private ConnectorTableMetadata tableMetadata(PaimonTable table)
    {
        List<ColumnMetadata> columns = table.schema().fields().stream()
                .map(field -> columnMetadata(table, field))
                .collect(toImmutableList());
        return new ConnectorTableMetadata(
                table.name(),
                columns,
                PaimonTableProperties.fromSchema(table.name(), table.schema()),
                table.schema().comment());
    }

    private ColumnMetadata columnMetadata(PaimonTable table, DataField field)
    {
        try {
            return ColumnMetadata.builder()
                    .setName(field.name())
                    .setType(typeMapping.toTrinoType(field))
                    .setNullable(field.type().nullable())
                    .setComment(field.description())
                    .build();
        }
        catch (TrinoException e) {
            if (e.getErrorCode().equals(PAIMON_UNSUPPORTED_TYPE.toErrorCode())) {
                throw new TrinoException(PAIMON_UNSUPPORTED_TYPE, "Table %s column '%s': %s".formatted(table.name(), field.name(), e.getMessage()), e);
            }
            throw e;
        }
    }

    private List<String> databases(ConnectorSession session, Optional<String> schemaName)
    {
        if (schemaName.isPresent()) {
            return catalog.databaseExists(session, schemaName.get()) ? ImmutableList.of(schemaName.get()) : ImmutableList.of();
        }
        return catalog.listDatabases(session);
    }

    private Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName)
    {
        Optional<PaimonTable> table = loadedTables.get(tableName);
        if (table == null) {
            table = catalog.loadTable(session, tableName);
            loadedTables.put(tableName, table);
        }
        return table;
    }

    /**
     * The table on a branch; the branch named {@code main} is the main branch, as in Paimon.
     *
     * @throws TableNotFoundException naming the branch when the table exists but the branch does not
     */
    private Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName, Optional<String> branch)
    {
        if (branch.isEmpty() || branch.get().equals(PaimonTableName.MAIN_BRANCH)) {
            return loadTable(session, tableName);
        }
        Optional<PaimonTable> table = catalog.loadTable(session, tableName, branch);
        if (table.isEmpty() && loadTable(session, tableName).isPresent()) {
            throw new TableNotFoundException(tableName, "Table %s has no branch '%s'".formatted(tableName, branch.get()));
        }
        return table;
    }
}
