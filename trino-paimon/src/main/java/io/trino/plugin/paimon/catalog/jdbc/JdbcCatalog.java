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
package io.trino.plugin.paimon.catalog.jdbc;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.catalog.FileSystemCatalog;
import io.trino.plugin.paimon.catalog.ServiceCatalog;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * Paimon's JDBC catalog: databases and tables are rows of Paimon's catalog tables in a relational database
 * ({@link JdbcCatalogTables}), shared with Paimon Java's {@code JdbcCatalog}; a table's files are where Paimon puts
 * them, {@code <warehouse>/<database>.db/<table>}, and are read and written by the folder catalog. With the lock
 * enabled, schema changes and snapshot commits hold Paimon's lock row of the table ({@link JdbcTableLock}).
 */
public class JdbcCatalog
        extends ServiceCatalog
{
    // Paimon's system database, which holds its global system tables
    private static final String SYSTEM_DATABASE = "sys";
    private static final String LOCK_ENABLED_OPTION = "lock.enabled";
    // the schemes of object stores, whose commits Paimon locks when lock.enabled is not set
    private static final Set<String> OBJECT_STORE_SCHEMES = ImmutableSet.of("s3", "s3a", "s3n", "gs", "oss", "abfs", "abfss", "wasb", "wasbs", "cosn", "obs");

    private final JdbcConnections connections;
    private final JdbcCatalogTables catalogTables;
    private final JdbcTableLock lock;
    private final Optional<Boolean> lockEnabled;
    private final boolean objectStore;

    @Inject
    public JdbcCatalog(TrinoFileSystemFactory fileSystemFactory, PaimonConfig config, JdbcCatalogConfig jdbcConfig, MetadataCache metadataCache, JdbcConnections connections)
    {
        super(new FileSystemCatalog(fileSystemFactory, Location.of(config.getWarehouse()), metadataCache));
        Location warehouse = Location.of(config.getWarehouse());
        this.connections = requireNonNull(connections, "connections is null");
        this.catalogTables = new JdbcCatalogTables(connections);
        JdbcDialect dialect = JdbcDialect.fromUri(jdbcConfig.getUri())
                .orElseThrow(() -> new IllegalArgumentException("unsupported JDBC URL: " + jdbcConfig.getUri()));
        this.lock = new JdbcTableLock(connections, dialect, jdbcConfig.getLockAcquireTimeout(), jdbcConfig.getLockCheckMaxSleep());
        this.lockEnabled = jdbcConfig.getLockEnabled();
        this.objectStore = warehouse.scheme().map(scheme -> OBJECT_STORE_SCHEMES.contains(scheme.toLowerCase(ENGLISH))).orElse(false);
    }

    @Override
    public void flushMetadataCache(Optional<String> schemaName, Optional<String> tableName)
    {
        files.flushMetadataCache(schemaName, tableName);
    }

    @Override
    public List<String> listDatabases(ConnectorSession session)
    {
        return catalogTables.listDatabases();
    }

    @Override
    public boolean databaseExists(ConnectorSession session, String database)
    {
        return catalogTables.databaseExists(database);
    }

    @Override
    public void createDatabase(ConnectorSession session, String database)
    {
        // the folder a table of the database would live in: checks the name as the folder catalog does
        Location location = files.databaseLocation(database);
        if (database.equals(SYSTEM_DATABASE)) {
            throw new TrinoException(NOT_SUPPORTED, "Invalid schema name '%s': Paimon reserves it for its system database".formatted(database));
        }
        if (catalogTables.databaseExists(database) || !catalogTables.createDatabase(database, location.toString())) {
            throw new TrinoException(SCHEMA_ALREADY_EXISTS, "Schema already exists: '%s'".formatted(database));
        }
    }

    @Override
    public void dropDatabase(ConnectorSession session, String database)
    {
        if (!catalogTables.databaseExists(database)) {
            throw new SchemaNotFoundException(database);
        }
        List<String> tables = catalogTables.listTables(database);
        if (!tables.isEmpty()) {
            throw new TrinoException(SCHEMA_NOT_EMPTY, "Cannot drop non-empty schema '%s', it contains %s table(s): %s".formatted(database, tables.size(), String.join(", ", tables)));
        }
        catalogTables.dropDatabase(database);
    }

    @Override
    public List<String> listTables(ConnectorSession session, String database)
    {
        return catalogTables.listTables(database);
    }

    /**
     * The registered table, read from its files.
     *
     * @throws TrinoException {@code PAIMON_CATALOG_ERROR} when the table is registered but its location holds no
     * Paimon table (its folder was removed or moved)
     */
    @Override
    public Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName, Optional<String> branch)
    {
        if (!catalogTables.tableExists(tableName)) {
            return Optional.empty();
        }
        Optional<PaimonTable> table = files.loadTable(session, tableName, branch);
        if (table.isEmpty() && branch.isEmpty()) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Table %s is registered in %s, but its location %s holds no Paimon table (no schema file)"
                    .formatted(tableName, connections.description(), files.tableLocation(tableName)));
        }
        return table;
    }

    @Override
    public Location newTableLocation(ConnectorSession session, SchemaTableName tableName)
    {
        return files.tableLocation(tableName);
    }

    /**
     * Writes the table's first schema, then registers it, as Paimon's JDBC catalog does; when the registration fails,
     * the schema written is removed again.
     *
     * @throws TrinoException {@code PAIMON_CATALOG_ERROR} when the location holds a table the catalog does not list
     */
    @Override
    public boolean createTable(ConnectorSession session, SchemaTableName tableName, Location location, TableSchema schema)
    {
        checkArgument(location.equals(files.tableLocation(tableName)), "a table of this catalog lives at %s, not %s", files.tableLocation(tableName), location);
        if (!catalogTables.databaseExists(tableName.getSchemaName())) {
            throw new SchemaNotFoundException(tableName.getSchemaName());
        }
        if (catalogTables.tableExists(tableName)) {
            return false;
        }
        boolean created = underLock(tableName, schema.options(), () -> files.createTableAt(session, tableName, location, schema));
        if (!created) {
            if (catalogTables.tableExists(tableName)) {
                return false;
            }
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Cannot create table %s in %s: its location %s holds a Paimon table that the catalog does not list (register it with Paimon's repair_table procedure, or remove the folder)"
                    .formatted(tableName, connections.description(), location));
        }
        boolean registered;
        try {
            registered = catalogTables.registerTable(tableName);
        }
        catch (RuntimeException e) {
            removeFolder(session, tableName, e);
            throw e;
        }
        if (!registered) {
            removeFolder(session, tableName, null);
        }
        return registered;
    }

    @Override
    public boolean commitSchema(ConnectorSession session, PaimonTable table, TableSchema next)
    {
        return underLock(table.name(), table.schema().options(), () -> files.commitSchema(session, table, next));
    }

    /**
     * Moves the table's row to the new name, then its folder, as Paimon's JDBC catalog does; when the folder cannot
     * be moved, the row is moved back.
     */
    @Override
    public void renameTable(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        Location target = files.tableLocation(to);
        if (!catalogTables.databaseExists(to.getSchemaName())) {
            throw new SchemaNotFoundException(to.getSchemaName());
        }
        if (!catalogTables.tableExists(from)) {
            throw new TableNotFoundException(from);
        }
        if (!catalogTables.renameTable(from, to)) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table %s already exists.".formatted(to));
        }
        try {
            // a database created through this catalog has no folder until its first table
            Location databaseFolder = files.databaseLocation(to.getSchemaName());
            try {
                fileSystem(session).createDirectory(databaseFolder);
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to rename table %s to table %s: cannot create folder %s".formatted(from, to, databaseFolder), e);
            }
            files.renameTable(session, from, to);
        }
        catch (RuntimeException e) {
            try {
                catalogTables.renameTable(to, from);
            }
            catch (RuntimeException restoreFailure) {
                e.addSuppressed(restoreFailure);
            }
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Failed to rename table %s to table %s in %s: its folder was not moved to %s (%s)".formatted(from, to, connections.description(), target, e.getMessage()), e);
        }
    }

    /** Unregisters the table, then removes its folder, as Paimon's JDBC catalog does. */
    @Override
    public void dropTable(ConnectorSession session, SchemaTableName tableName)
    {
        if (!catalogTables.unregisterTable(tableName)) {
            throw new TableNotFoundException(tableName);
        }
        files.dropTable(session, tableName);
    }

    @Override
    public void checkCommitsAreExclusive(ConnectorSession session, PaimonTable table)
    {
        files.checkCommitsAreExclusive(session, table);
    }

    @Override
    public SnapshotPublisher snapshotPublisher(ConnectorSession session, PaimonTable table)
    {
        SnapshotPublisher publisher = files.snapshotPublisher(session, table);
        if (!lockEnabled(table.name(), table.schema().options())) {
            return publisher;
        }
        return files.queued(table, snapshot -> runWithLock(table.name(), () -> publisher.publish(snapshot)));
    }

    private boolean underLock(SchemaTableName tableName, Map<String, String> tableOptions, BooleanSupplier action)
    {
        if (!lockEnabled(tableName, tableOptions)) {
            return action.getAsBoolean();
        }
        return runWithLock(tableName, action);
    }

    private boolean runWithLock(SchemaTableName tableName, BooleanSupplier action)
    {
        catalogTables.ensureLockTableCreated();
        return lock.runWithLock(tableName, action);
    }

    /**
     * Whether commits to the table take its lock row: as the catalog configures it, else as the table's
     * {@code lock.enabled} says, else on object stores only, which is Paimon's default.
     */
    private boolean lockEnabled(SchemaTableName tableName, Map<String, String> tableOptions)
    {
        if (lockEnabled.isPresent()) {
            return lockEnabled.get();
        }
        return booleanOption(tableName.toString(), tableOptions, LOCK_ENABLED_OPTION, objectStore);
    }

    private void removeFolder(ConnectorSession session, SchemaTableName tableName, RuntimeException failure)
    {
        try {
            files.dropTable(session, tableName);
        }
        catch (RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }
}
