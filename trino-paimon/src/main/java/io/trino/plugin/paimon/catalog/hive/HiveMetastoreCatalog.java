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
package io.trino.plugin.paimon.catalog.hive;

import com.google.common.base.Throwables;
import com.google.inject.Inject;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.hive.thrift.metastore.Database;
import io.trino.hive.thrift.metastore.FieldSchema;
import io.trino.hive.thrift.metastore.Table;
import io.trino.hive.thrift.metastore.TableMeta;
import io.trino.metastore.AcidTransactionOwner;
import io.trino.metastore.PartitionWithStatistics;
import io.trino.plugin.hive.metastore.thrift.ThriftMetastore;
import io.trino.plugin.hive.metastore.thrift.ThriftMetastoreFactory;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.catalog.CatalogLocations;
import io.trino.plugin.paimon.catalog.FileSystemCatalog;
import io.trino.plugin.paimon.catalog.PaimonView;
import io.trino.plugin.paimon.catalog.ServiceCatalog;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.catalog.CatalogName;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.connector.ViewNotFoundException;
import io.trino.spi.predicate.TupleDomain;

import javax.security.auth.login.LoginException;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.metastore.Partitions.makePartName;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.catalog.hive.PaimonTableEntry.isExternal;
import static io.trino.plugin.paimon.catalog.hive.PaimonTableEntry.isPaimonTable;
import static io.trino.plugin.paimon.catalog.hive.PaimonViewEntry.VIRTUAL_VIEW;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.spi.ErrorType.USER_ERROR;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.COLUMN_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static java.util.Objects.requireNonNull;

/**
 * Paimon tables registered in a Hive Metastore, as Paimon's HiveCatalog registers them: the metastore keeps each
 * database's location and each table's entry (name, location, columns, options); schemas and snapshots live in
 * files under the table's location, read and written through the folder catalog. Entries that are not Paimon
 * tables are not listed; a new database defaults to {@code <warehouse>/<name>.db}, a new table to a folder of its
 * database's location.
 */
public class HiveMetastoreCatalog
        extends ServiceCatalog
{
    private final String catalogName;
    private final ThriftMetastoreFactory metastoreFactory;
    private final boolean lockEnabled;
    private final boolean syncAllProperties;
    private final CatalogLocations locations;

    @Inject
    public HiveMetastoreCatalog(
            CatalogName catalogName,
            ThriftMetastoreFactory metastoreFactory,
            TrinoFileSystemFactory fileSystemFactory,
            PaimonConfig config,
            HiveMetastoreCatalogConfig hiveConfig,
            MetadataCache metadataCache,
            CatalogLocations locations)
    {
        super(new FileSystemCatalog(fileSystemFactory, Location.of(requireNonNull(config.getWarehouse(), "paimon.warehouse is null")), metadataCache));
        this.locations = requireNonNull(locations, "locations is null");
        this.catalogName = catalogName.toString();
        this.metastoreFactory = requireNonNull(metastoreFactory, "metastoreFactory is null");
        this.lockEnabled = hiveConfig.isLockEnabled();
        this.syncAllProperties = hiveConfig.isSyncAllProperties();
    }

    @Override
    public void flushMetadataCache(Optional<String> schemaName, Optional<String> tableName)
    {
        // a table's files may live anywhere the metastore says: forget everything rather than ask the metastore
        files.flushMetadataCache(Optional.empty(), Optional.empty());
    }

    @Override
    public List<String> listDatabases(ConnectorSession session)
    {
        return call("list databases", () -> metastore(session).getAllDatabases()).stream()
                .sorted()
                .collect(toImmutableList());
    }

    @Override
    public boolean databaseExists(ConnectorSession session, String database)
    {
        return getDatabase(session, database).isPresent();
    }

    @Override
    public void createDatabase(ConnectorSession session, String database)
    {
        if (databaseExists(session, database)) {
            throw new TrinoException(SCHEMA_ALREADY_EXISTS, "Schema already exists: '%s'".formatted(database));
        }
        // as Paimon's HiveCatalog: the database's folder in the warehouse, created before its entry
        Location location = files.databaseLocation(database);
        try {
            fileSystem(session).createDirectory(location);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Catalog '%s': failed to create the folder %s of schema '%s'".formatted(catalogName, location, database), e);
        }
        Database entry = new Database();
        entry.setName(database);
        entry.setLocationUri(location.toString());
        entry.setParameters(new HashMap<>());
        call("create schema '%s'".formatted(database), () -> {
            metastore(session).createDatabase(entry);
            return null;
        });
    }

    @Override
    public void dropDatabase(ConnectorSession session, String database)
    {
        Database entry = getDatabase(session, database).orElseThrow(() -> new SchemaNotFoundException(database));
        // any entry, Paimon table or not, keeps the database: dropping it would drop those entries with it
        List<String> tables = call("list tables of schema '%s'".formatted(database), () -> metastore(session).getTables(database)).stream()
                .map(TableMeta::getTableName)
                .sorted()
                .collect(toImmutableList());
        if (!tables.isEmpty()) {
            throw new TrinoException(SCHEMA_NOT_EMPTY, "Cannot drop non-empty schema '%s', it contains %s table(s): %s".formatted(database, tables.size(), String.join(", ", tables)));
        }
        Optional<Location> folder = Optional.ofNullable(entry.getLocationUri()).map(path -> locations.resolve("schema " + database, path));
        call("drop schema '%s'".formatted(database), () -> {
            metastore(session).dropDatabase(database, false);
            return null;
        });
        if (folder.isPresent()) {
            Location location = folder.get();
            try {
                fileSystem(session).deleteDirectory(location);
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Catalog '%s': dropped schema '%s' but failed to delete its folder %s".formatted(catalogName, database, location), e);
            }
        }
    }

    @Override
    public List<String> listTables(ConnectorSession session, String database)
    {
        ThriftMetastore metastore = metastore(session);
        return call("list tables of schema '%s'".formatted(database), () -> metastore.getTables(database)).stream()
                .map(TableMeta::getTableName)
                .filter(table -> call("read table '%s.%s'".formatted(database, table), () -> metastore.getTable(database, table))
                        .filter(PaimonTableEntry::isPaimonTable)
                        .isPresent())
                .sorted()
                .collect(toImmutableList());
    }

    @Override
    public Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName, Optional<String> branch)
    {
        Optional<Table> entry = getPaimonEntry(session, tableName);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        Location location = entryLocation(tableName, entry.get());
        Optional<PaimonTable> table = files.loadTableAt(session, tableName, location, branch);
        if (table.isEmpty() && branch.isEmpty()) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Catalog '%s': table %s is registered at %s, but no Paimon schema file is there".formatted(catalogName, tableName, location));
        }
        return table;
    }

    @Override
    public Location newTableLocation(ConnectorSession session, SchemaTableName tableName)
    {
        Database database = getDatabase(session, tableName.getSchemaName()).orElseThrow(() -> new SchemaNotFoundException(tableName.getSchemaName()));
        Location databaseLocation = database.getLocationUri() == null || database.getLocationUri().isEmpty()
                ? files.databaseLocation(tableName.getSchemaName())
                : locations.resolve("schema " + tableName.getSchemaName(), database.getLocationUri());
        return databaseLocation.appendPath(tableName.getTableName());
    }

    /**
     * Writes the table's first schema file, then registers it; when the registration fails, the folder is removed
     * again, so that nothing is left half-created.
     */
    @Override
    public boolean createTable(ConnectorSession session, SchemaTableName tableName, Location location, TableSchema schema)
    {
        checkArgument(schema.id() == 0, "a new table's schema has id 0: %s", schema.id());
        if (!databaseExists(session, tableName.getSchemaName())) {
            throw new SchemaNotFoundException(tableName.getSchemaName());
        }
        Optional<Table> existing = getEntry(session, tableName);
        if (existing.isPresent()) {
            if (isPaimonTable(existing.get())) {
                return false;
            }
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Catalog '%s': table %s already exists in the metastore and is not a Paimon table".formatted(catalogName, tableName));
        }
        if (!new SchemaFiles(fileSystem(session), location).listSchemaIds().isEmpty()) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Catalog '%s': cannot create table %s: Paimon schema files exist at %s, which no metastore entry names".formatted(catalogName, tableName, location));
        }
        if (!files.createTableAt(session, tableName, location, schema)) {
            return false;
        }
        Table entry = PaimonTableEntry.newEntry(tableName, schema, location, session.getUser(), false, syncAllProperties, System.currentTimeMillis());
        try {
            call("register table %s".formatted(tableName), () -> {
                metastore(session).createTable(entry);
                return null;
            });
        }
        catch (RuntimeException e) {
            deleteQuietly(session, location, e);
            throw e;
        }
        return true;
    }

    @Override
    public boolean commitSchema(ConnectorSession session, PaimonTable table, TableSchema next)
    {
        Table entry = getPaimonEntry(session, table.name()).orElseThrow(() -> new TableNotFoundException(table.name()));
        boolean created = underLock(session, table, () -> files.commitSchema(session, table, next));
        if (!created || table.branch().isPresent()) {
            return created;
        }
        // as Paimon's HiveCatalog: the schema file first, then the entry; a refused entry removes the schema file
        Table updated = PaimonTableEntry.updatedEntry(entry, table.schema(), next, table.location(), syncAllProperties);
        try {
            call("update table %s".formatted(table.name()), () -> {
                metastore(session).alterTable(table.name().getSchemaName(), table.name().getTableName(), updated, Map.of());
                return null;
            });
        }
        catch (RuntimeException e) {
            Location schemaFile = new SchemaFiles(fileSystem(session), table.location()).schemaLocation(next.id());
            try {
                fileSystem(session).deleteFile(schemaFile);
            }
            catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return true;
    }

    @Override
    public void renameTable(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        Table entry = getPaimonEntry(session, from).orElseThrow(() -> new TableNotFoundException(from));
        if (!databaseExists(session, to.getSchemaName())) {
            throw new SchemaNotFoundException(to.getSchemaName());
        }
        if (getEntry(session, to).isPresent()) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table %s already exists.".formatted(to));
        }
        Location source = entryLocation(from, entry);
        Table renamed = entry.deepCopy();
        renamed.setDbName(to.getSchemaName());
        renamed.setTableName(to.getTableName());
        call("rename table %s to %s".formatted(from, to), () -> {
            metastore(session).alterTable(from.getSchemaName(), from.getTableName(), renamed, Map.of());
            return null;
        });
        files.metadataCache().flush(source);
        if (isExternal(entry)) {
            return;
        }
        // as Paimon's HiveCatalog: a managed table's folder follows its name, unless the metastore moved it already
        Location target = newTableLocation(session, to);
        TrinoFileSystem fileSystem = fileSystem(session);
        if (source.equals(target) || new SchemaFiles(fileSystem, source).listSchemaIds().isEmpty()) {
            return;
        }
        try {
            fileSystem.renameDirectory(source, target);
        }
        catch (IOException | UnsupportedOperationException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Catalog '%s': renamed table %s to %s, but failed to move its folder %s to %s".formatted(catalogName, from, to, source, target), e);
        }
        Table moved = renamed.deepCopy();
        moved.getSd().setLocation(target.toString());
        call("update the location of table %s".formatted(to), () -> {
            metastore(session).alterTable(to.getSchemaName(), to.getTableName(), moved, Map.of());
            return null;
        });
    }

    @Override
    public void dropTable(ConnectorSession session, SchemaTableName tableName)
    {
        Table entry = getPaimonEntry(session, tableName).orElseThrow(() -> new TableNotFoundException(tableName));
        Optional<Location> location = PaimonTableEntry.location(entry).map(path -> locations.resolve("table " + tableName, path));
        call("drop table %s".formatted(tableName), () -> {
            metastore(session).dropTable(tableName.getSchemaName(), tableName.getTableName(), false);
            return null;
        });
        // as Paimon's HiveCatalog: an external table's files stay, a managed table's folder goes with its entry
        if (isExternal(entry) || location.isEmpty()) {
            return;
        }
        try {
            fileSystem(session).deleteDirectory(location.get());
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Catalog '%s': dropped table %s but failed to delete its folder %s".formatted(catalogName, tableName, location.get()), e);
        }
        finally {
            files.metadataCache().flush(location.get());
        }
    }

    @Override
    public List<String> listViews(ConnectorSession session, String database)
    {
        ThriftMetastore metastore = metastore(session);
        return call("list views of schema '%s'".formatted(database), () -> metastore.getTables(database)).stream()
                .filter(table -> VIRTUAL_VIEW.equals(table.getTableType()))
                .map(TableMeta::getTableName)
                .filter(view -> getEntry(session, new SchemaTableName(database, view)).filter(PaimonViewEntry::isPaimonView).isPresent())
                .sorted()
                .collect(toImmutableList());
    }

    @Override
    public Optional<PaimonView> loadView(ConnectorSession session, SchemaTableName viewName)
    {
        return getEntry(session, viewName)
                .filter(PaimonViewEntry::isPaimonView)
                .map(entry -> {
                    try {
                        return PaimonViewEntry.view(entry);
                    }
                    catch (IllegalArgumentException e) {
                        throw new TrinoException(PAIMON_INVALID_METADATA, "Catalog '%s': view %s: %s".formatted(catalogName, viewName, e.getMessage()), e);
                    }
                });
    }

    /** Registers the view as Paimon's HiveCatalog does; a name taken by a table is refused, a view's replaced only when asked. */
    @Override
    public void createView(ConnectorSession session, SchemaTableName viewName, PaimonView view, boolean replace)
    {
        if (!databaseExists(session, viewName.getSchemaName())) {
            throw new SchemaNotFoundException(viewName.getSchemaName());
        }
        for (DataField field : view.fields()) {
            if (!HiveTypeNames.readsBack(field.type())) {
                throw new TrinoException(NOT_SUPPORTED, "Catalog '%s': view %s: column '%s' of type %s has no Hive type it could be read back as; cast it in the view's query"
                        .formatted(catalogName, viewName, field.name(), field.type().typeName()));
            }
        }
        Table entry = PaimonViewEntry.newEntry(viewName, view, session.getUser(), System.currentTimeMillis());
        Optional<Table> existing = getEntry(session, viewName);
        if (existing.isEmpty()) {
            call("register view %s".formatted(viewName), () -> {
                metastore(session).createTable(entry);
                return null;
            });
            return;
        }
        if (!PaimonViewEntry.isPaimonView(existing.get())) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Catalog '%s': cannot create view %s: a table of that name exists".formatted(catalogName, viewName));
        }
        if (!replace) {
            throw new TrinoException(ALREADY_EXISTS, "Catalog '%s': view %s already exists".formatted(catalogName, viewName));
        }
        call("replace view %s".formatted(viewName), () -> {
            metastore(session).alterTable(viewName.getSchemaName(), viewName.getTableName(), entry, Map.of());
            return null;
        });
    }

    @Override
    public void dropView(ConnectorSession session, SchemaTableName viewName)
    {
        if (getEntry(session, viewName).filter(PaimonViewEntry::isPaimonView).isEmpty()) {
            throw new ViewNotFoundException(viewName);
        }
        call("drop view %s".formatted(viewName), () -> {
            metastore(session).dropTable(viewName.getSchemaName(), viewName.getTableName(), false);
            return null;
        });
    }

    /** Renames the view's entry, as Paimon's HiveCatalog does; a name taken by a table or a view is refused. */
    @Override
    public void renameView(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        Table entry = getViewEntry(session, from);
        if (!databaseExists(session, to.getSchemaName())) {
            throw new SchemaNotFoundException(to.getSchemaName());
        }
        if (getEntry(session, to).isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "Catalog '%s': cannot rename view %s to %s: that name is taken".formatted(catalogName, from, to));
        }
        Table renamed = entry.deepCopy();
        renamed.setDbName(to.getSchemaName());
        renamed.setTableName(to.getTableName());
        alterView(session, from, renamed, "rename view %s to %s".formatted(from, to));
    }

    /** The view's comment is its entry's {@code comment} parameter, where Paimon's HiveCatalog reads it. */
    @Override
    public void setViewComment(ConnectorSession session, SchemaTableName viewName, Optional<String> comment)
    {
        Table changed = getViewEntry(session, viewName).deepCopy();
        changed.setParameters(PaimonViewEntry.withComment(changed.getParameters(), comment));
        alterView(session, viewName, changed, "comment on view %s".formatted(viewName));
    }

    /** A column's comment is its Hive column's, from which Paimon's HiveCatalog builds the view's fields. */
    @Override
    public void setViewColumnComment(ConnectorSession session, SchemaTableName viewName, String columnName, Optional<String> comment)
    {
        Table changed = getViewEntry(session, viewName).deepCopy();
        FieldSchema column = changed.getSd().getCols().stream()
                .filter(candidate -> candidate.getName().equals(columnName))
                .findFirst()
                .orElseThrow(() -> new TrinoException(COLUMN_NOT_FOUND, "Catalog '%s': view %s has no column '%s'".formatted(catalogName, viewName, columnName)));
        column.setComment(comment.orElse(null));
        alterView(session, viewName, changed, "comment on column '%s' of view %s".formatted(columnName, viewName));
    }

    private Table getViewEntry(ConnectorSession session, SchemaTableName viewName)
    {
        return getEntry(session, viewName)
                .filter(PaimonViewEntry::isPaimonView)
                .orElseThrow(() -> new ViewNotFoundException(viewName));
    }

    private void alterView(ConnectorSession session, SchemaTableName viewName, Table changed, String action)
    {
        call(action, () -> {
            metastore(session).alterTable(viewName.getSchemaName(), viewName.getTableName(), changed, Map.of());
            return null;
        });
    }

    @Override
    public void checkCommitsAreExclusive(ConnectorSession session, PaimonTable table)
    {
        files.checkCommitsAreExclusive(session, table);
    }

    /**
     * Adds the partitions the metastore does not list yet, as Paimon's commit callback and HiveCatalog do for a table
     * with {@code metastore.partitioned-table}: each with the table's storage descriptor, located at the partition's
     * folder under the table's data folder, its values as the folder names them.
     */
    @Override
    public void registerPartitions(ConnectorSession session, PaimonTable table, Collection<BinaryRow> partitions)
    {
        if (partitions.isEmpty() || !MetastorePartitions.registered(table)) {
            return;
        }
        SchemaTableName name = table.name();
        Table entry = getPaimonEntry(session, name).orElseThrow(() -> new TableNotFoundException(name));
        ThriftMetastore metastore = metastore(session);
        List<String> keys = table.schema().partitionKeys();
        Set<String> existing = Set.copyOf(call("list the partitions of table %s".formatted(name),
                () -> metastore.getPartitionNamesByFilter(name.getSchemaName(), name.getTableName(), keys, TupleDomain.all())).orElse(List.of()));
        Location dataLocation = MetastorePartitions.dataLocation(entry, entryLocation(name, entry));
        List<PartitionWithStatistics> added = partitions.stream()
                .distinct()
                .filter(partition -> !existing.contains(makePartName(keys, table.partitionValues(partition))))
                .map(partition -> MetastorePartitions.partition(name, entry, keys, table.partitionValues(partition), dataLocation, table.partitionPath(partition)))
                .collect(toImmutableList());
        if (!added.isEmpty()) {
            addPartitions(metastore, name, added);
        }
        if (MetastorePartitions.reportsStatistics(table)) {
            reportStatistics(session, metastore, table, partitions);
        }
    }

    private void addPartitions(ThriftMetastore metastore, SchemaTableName name, List<PartitionWithStatistics> added)
    {
        try {
            metastore.addPartitions(name.getSchemaName(), name.getTableName(), added);
        }
        catch (RuntimeException batchFailure) {
            // the snapshot has landed: a rival writer (a Paimon job adding with ifNotExists, another statement) may have
            // added some of these since the listing, and the metastore adds a batch all or nothing; add them one by one
            for (PartitionWithStatistics partition : added) {
                addPartitionUnlessListed(metastore, name, partition, batchFailure);
            }
        }
    }

    /**
     * Records each partition's statistics in its metastore entry as Paimon's HiveCatalog.alterPartitions does when its
     * Flink writer reports them ({@code partition.idle-time-to-report-statistic}): counted over the partition's live
     * data files in the latest snapshot, stamped with the time of this report. A partition the metastore does not
     * list is skipped, as Paimon skips it.
     */
    private void reportStatistics(ConnectorSession session, ThriftMetastore metastore, PaimonTable table, Collection<BinaryRow> partitions)
    {
        SchemaTableName name = table.name();
        long reportedMillis = System.currentTimeMillis();
        Map<BinaryRow, MetastorePartitions.FileTotals> totals = MetastorePartitions.fileTotals(fileSystem(session), table, Set.copyOf(partitions));
        List<String> keys = table.schema().partitionKeys();
        for (BinaryRow partition : Set.copyOf(partitions)) {
            List<String> values = table.partitionValues(partition);
            String partitionName = makePartName(keys, values);
            Optional<io.trino.hive.thrift.metastore.Partition> entry = call("read partition %s of table %s".formatted(partitionName, name),
                    () -> metastore.getPartition(name.getSchemaName(), name.getTableName(), values));
            if (entry.isEmpty()) {
                continue;
            }
            PartitionWithStatistics reported = MetastorePartitions.withStatistics(entry.get(), partitionName,
                    totals.getOrDefault(partition, MetastorePartitions.FileTotals.NONE), reportedMillis);
            call("report the statistics of partition %s of table %s".formatted(partitionName, name), () -> {
                metastore.alterPartition(name.getSchemaName(), name.getTableName(), reported);
                return null;
            });
        }
    }

    /** Adds one partition; a failure is no failure when the metastore then lists the partition (a rival added it). */
    private void addPartitionUnlessListed(ThriftMetastore metastore, SchemaTableName name, PartitionWithStatistics partition, RuntimeException batchFailure)
    {
        try {
            metastore.addPartitions(name.getSchemaName(), name.getTableName(), List.of(partition));
        }
        catch (RuntimeException e) {
            boolean listed = call("read partition %s of table %s".formatted(partition.getPartitionName(), name),
                    () -> metastore.getPartition(name.getSchemaName(), name.getTableName(), partition.getPartition().getValues())).isPresent();
            if (!listed) {
                e.addSuppressed(batchFailure);
                throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': committed to table %s, but the Hive metastore failed to add its partition %s: %s"
                        .formatted(catalogName, name, partition.getPartitionName(), e.getMessage()), e);
            }
        }
    }

    @Override
    public SnapshotPublisher snapshotPublisher(ConnectorSession session, PaimonTable table)
    {
        SnapshotPublisher publisher = files.snapshotPublisher(session, table);
        if (!lockEnabled(table)) {
            return publisher;
        }
        return files.queued(table, snapshot -> underLock(session, table, () -> publisher.publish(snapshot)));
    }

    private boolean lockEnabled(PaimonTable table)
    {
        return lockEnabled || booleanOption(table.name().toString(), table.schema().options(), "lock.enabled", false);
    }

    /** Runs an action holding the metastore's exclusive lock on the table, the lock Paimon's HiveCatalog takes. */
    private <T> T underLock(ConnectorSession session, PaimonTable table, Supplier<T> action)
    {
        if (!lockEnabled(table)) {
            return action.get();
        }
        ThriftMetastore metastore = metastore(session);
        SchemaTableName name = table.name();
        long lockId = call("lock table %s".formatted(name), () -> metastore.acquireTableExclusiveLock(
                new AcidTransactionOwner(session.getUser()),
                session.getQueryId(),
                name.getSchemaName(),
                name.getTableName()));
        try {
            return action.get();
        }
        finally {
            call("unlock table %s".formatted(name), () -> {
                metastore.releaseTableLock(lockId);
                return null;
            });
        }
    }

    private Optional<Database> getDatabase(ConnectorSession session, String database)
    {
        return call("read schema '%s'".formatted(database), () -> metastore(session).getDatabase(database));
    }

    private Optional<Table> getEntry(ConnectorSession session, SchemaTableName tableName)
    {
        return call("read table %s".formatted(tableName), () -> metastore(session).getTable(tableName.getSchemaName(), tableName.getTableName()));
    }

    /** The table's entry when it is a Paimon table; entries of other tables name no Paimon table. */
    private Optional<Table> getPaimonEntry(ConnectorSession session, SchemaTableName tableName)
    {
        return getEntry(session, tableName).filter(PaimonTableEntry::isPaimonTable);
    }

    private Location entryLocation(SchemaTableName tableName, Table entry)
    {
        return PaimonTableEntry.location(entry).map(location -> locations.resolve("table " + tableName, location)).orElseThrow(() ->
                new TrinoException(PAIMON_INVALID_METADATA, "Catalog '%s': the metastore entry of table %s has no location".formatted(catalogName, tableName)));
    }

    private ThriftMetastore metastore(ConnectorSession session)
    {
        return metastoreFactory.createMetastore(Optional.of(session.getIdentity()));
    }

    /**
     * Calls the metastore, turning its failures (an unreachable server, a refused request) into errors that name this
     * catalog and what was asked; Trino's not-found and already-exists errors pass as they are.
     */
    private <T> T call(String action, Supplier<T> call)
    {
        try {
            return call.get();
        }
        catch (SchemaNotFoundException | TableNotFoundException e) {
            throw e;
        }
        catch (TrinoException e) {
            if (e.getErrorCode().getType() == USER_ERROR) {
                throw e;
            }
            throw metastoreFailure(action, e);
        }
        catch (RuntimeException e) {
            throw metastoreFailure(action, e);
        }
    }

    private TrinoException metastoreFailure(String action, RuntimeException failure)
    {
        // a failed Kerberos login says only "Unable to obtain password from user": name the settings that decide it
        boolean kerberosLogin = Throwables.getCausalChain(failure).stream().anyMatch(LoginException.class::isInstance);
        return new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': the Hive metastore failed to %s: %s%s".formatted(
                catalogName,
                action,
                kerberosLogin ? "the Kerberos login failed (check hive.metastore.client.principal and hive.metastore.client.keytab): " : "",
                failure.getMessage()), failure);
    }

    private void deleteQuietly(ConnectorSession session, Location location, RuntimeException failure)
    {
        try {
            fileSystem(session).deleteDirectory(location);
        }
        catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
