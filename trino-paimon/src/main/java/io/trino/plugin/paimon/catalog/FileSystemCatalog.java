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
package io.trino.plugin.paimon.catalog;

import com.google.inject.Inject;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Paimon's filesystem catalog: a database is a folder {@code <warehouse>/<name>.db}, a table is a folder in it
 * that holds at least one {@code schema/schema-<id>} file. Nothing else marks either, exactly as Paimon Java sees it.
 */
public class FileSystemCatalog
        implements PaimonCatalog
{
    public static final String DATABASE_SUFFIX = ".db";
    // Paimon's system database, which holds its global system tables
    private static final String SYSTEM_DATABASE = "sys";
    // the longest file name common file systems take; a database folder also carries its suffix
    private static final int MAX_NAME_BYTES = 255;
    private static final String DATABASE_MARKER = ".paimon-database";

    private final TrinoFileSystemFactory fileSystemFactory;
    private final TableFileSystemFactory tableFileSystems;
    private final Location warehouse;
    private final MetadataCache metadataCache;
    private final CommitLocks commitLocks = new CommitLocks();

    @Inject
    public FileSystemCatalog(TrinoFileSystemFactory fileSystemFactory, PaimonConfig config, MetadataCache metadataCache)
    {
        this(fileSystemFactory, Location.of(config.getWarehouse()), metadataCache);
    }

    public FileSystemCatalog(TrinoFileSystemFactory fileSystemFactory, Location warehouse)
    {
        this(fileSystemFactory, warehouse, MetadataCache.DISABLED);
    }

    public FileSystemCatalog(TrinoFileSystemFactory fileSystemFactory, Location warehouse, MetadataCache metadataCache)
    {
        this(fileSystemFactory, TableFileSystemFactory.sharedBy(fileSystemFactory), warehouse, metadataCache);
    }

    /**
     * @param fileSystemFactory opens the warehouse's folders (databases, table listings)
     * @param tableFileSystems opens the files under a table's folder
     */
    public FileSystemCatalog(TrinoFileSystemFactory fileSystemFactory, TableFileSystemFactory tableFileSystems, Location warehouse, MetadataCache metadataCache)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.tableFileSystems = requireNonNull(tableFileSystems, "tableFileSystems is null");
        this.warehouse = requireNonNull(warehouse, "warehouse is null");
        this.metadataCache = requireNonNull(metadataCache, "metadataCache is null");
    }

    /** The catalog's cache of decoded metadata files, for reads that resolve snapshots, schemas and manifests. */
    @Override
    public MetadataCache metadataCache()
    {
        return metadataCache;
    }

    /**
     * Forgets cached metadata: of one table, of every table of a schema, or (both empty) of the whole catalog.
     * Nothing needs it for correctness; it frees memory and recovers from files changed in place by hand.
     */
    @Override
    public void flushMetadataCache(Optional<String> schemaName, Optional<String> tableName)
    {
        checkArgument(schemaName.isPresent() || tableName.isEmpty(), "a table name needs a schema name");
        if (schemaName.isEmpty()) {
            metadataCache.flush();
        }
        else if (tableName.isEmpty()) {
            metadataCache.flush(databaseLocation(schemaName.get()));
        }
        else {
            metadataCache.flush(tableLocation(new SchemaTableName(schemaName.get(), tableName.get())));
        }
    }

    public Location databaseLocation(String database)
    {
        checkName("schema", database, DATABASE_SUFFIX.length());
        return warehouse.appendPath(database + DATABASE_SUFFIX);
    }

    public Location tableLocation(SchemaTableName table)
    {
        checkName("table", table.getTableName(), 0);
        return databaseLocation(table.getSchemaName()).appendPath(table.getTableName());
    }

    @Override
    public Location newTableLocation(ConnectorSession session, SchemaTableName tableName)
    {
        return tableLocation(tableName);
    }

    /**
     * Whether a name can be a folder of the warehouse, one level below its parent: not empty, not {@code .} or
     * {@code ..}, without {@code /} or {@code \}, not hidden (a leading {@code .}, which temporary files have and
     * listings skip), without {@code $} (Paimon reads {@code t$snapshots} and {@code t$branch_b} as a system table and
     * a branch of {@code t}), and at most 255 bytes with the folder's suffix.
     */
    private static Optional<String> invalidNameReason(String name, int suffixBytes)
    {
        if (name.isEmpty()) {
            return Optional.of("it is empty");
        }
        if (name.startsWith(".")) {
            return Optional.of("it starts with '.'");
        }
        if (name.contains("/") || name.contains("\\")) {
            return Optional.of("it contains a path separator");
        }
        if (name.contains("$")) {
            return Optional.of("'$' separates Paimon's system tables and branches from their table");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("it contains a control character");
        }
        if (name.getBytes(UTF_8).length + suffixBytes > MAX_NAME_BYTES) {
            return Optional.of("it is longer than %s bytes".formatted(MAX_NAME_BYTES - suffixBytes));
        }
        return Optional.empty();
    }

    private static boolean isValidName(String name, int suffixBytes)
    {
        return invalidNameReason(name, suffixBytes).isEmpty();
    }

    private static void checkName(String kind, String name, int suffixBytes)
    {
        Optional<String> reason = invalidNameReason(name, suffixBytes);
        if (reason.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "Invalid %s name '%s': %s".formatted(kind, name, reason.get()));
        }
    }

    @Override
    public List<String> listDatabases(ConnectorSession session)
    {
        return listDirectoryNames(fileSystem(session), warehouse).stream()
                .filter(name -> name.endsWith(DATABASE_SUFFIX) && name.length() > DATABASE_SUFFIX.length())
                .map(name -> name.substring(0, name.length() - DATABASE_SUFFIX.length()))
                .sorted()
                .collect(toImmutableList());
    }

    @Override
    public boolean databaseExists(ConnectorSession session, String database)
    {
        if (!isValidName(database, DATABASE_SUFFIX.length())) {
            return false;
        }
        Location location = databaseLocation(database);
        try {
            Optional<Boolean> exists = fileSystem(session).directoryExists(location);
            if (exists.isPresent()) {
                return exists.get();
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to check database folder " + location, e);
        }
        // object stores without real folders: a database exists when something is listed under it
        return listDatabases(session).contains(database);
    }

    @Override
    public void createDatabase(ConnectorSession session, String database)
    {
        checkName("schema", database, DATABASE_SUFFIX.length());
        if (database.equals(SYSTEM_DATABASE)) {
            throw new TrinoException(NOT_SUPPORTED, "Invalid schema name '%s': Paimon reserves it for its system database".formatted(database));
        }
        if (databaseExists(session, database)) {
            throw new TrinoException(SCHEMA_ALREADY_EXISTS, "Schema already exists: '%s'".formatted(database));
        }
        Location location = databaseLocation(database);
        TrinoFileSystem fileSystem = fileSystem(session);
        try {
            fileSystem.createDirectory(location);
            // Object stores have no folders (creating one does nothing on S3): an empty hidden object makes the
            // database listed until its first table, as the folder marker Paimon Java's S3 file IO writes does
            if (!fileSystem.directoryExists(location).orElse(false)) {
                fileSystem.newOutputFile(location.appendPath(DATABASE_MARKER)).createOrOverwrite(new byte[0]);
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to create database folder " + location, e);
        }
    }

    /** Drops an empty database; a database that still holds tables is refused. */
    @Override
    public void dropDatabase(ConnectorSession session, String database)
    {
        if (!databaseExists(session, database)) {
            throw new SchemaNotFoundException(database);
        }
        List<String> tables = listTables(session, database);
        if (!tables.isEmpty()) {
            throw new TrinoException(SCHEMA_NOT_EMPTY, "Cannot drop non-empty schema '%s', it contains %s table(s): %s".formatted(database, tables.size(), String.join(", ", tables)));
        }
        Location location = databaseLocation(database);
        try {
            fileSystem(session).deleteDirectory(location);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete database folder " + location, e);
        }
    }

    /** Table names of a database, sorted; folders without a schema file are not tables and are left out. */
    @Override
    public List<String> listTables(ConnectorSession session, String database)
    {
        TrinoFileSystem fileSystem = fileSystem(session);
        Location databaseLocation = databaseLocation(database);
        return listDirectoryNames(fileSystem, databaseLocation).stream()
                .filter(name -> !new SchemaFiles(fileSystem, databaseLocation.appendPath(name)).listSchemaIds().isEmpty())
                .sorted()
                .collect(toImmutableList());
    }

    /**
     * The table on one of its branches (the main branch when empty) with the branch's current schema, or empty
     * when there is no such table or branch.
     *
     * @throws TrinoException naming the schema file when it cannot be read
     */
    @Override
    public Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName, Optional<String> branch)
    {
        // a name that cannot be a table folder names no table (a system table's name goes on to the system tables)
        if (!isValidName(tableName.getSchemaName(), DATABASE_SUFFIX.length()) || !isValidName(tableName.getTableName(), 0)
                || (branch.isPresent() && !isValidName(branch.get(), 0))) {
            return Optional.empty();
        }
        return loadTableAt(session, tableName, tableLocation(tableName), branch);
    }

    /**
     * The table whose files are at {@code location}, for catalogs that keep a table's location themselves (a
     * metastore entry, a catalog table row): empty when no schema file is there.
     */
    public Optional<PaimonTable> loadTableAt(ConnectorSession session, SchemaTableName tableName, Location location, Optional<String> branch)
    {
        Optional<TableSchema> schema = new SchemaFiles(fileSystem(session, tableName), PaimonTable.branchLocation(location, branch), metadataCache).latestSchema();
        return schema.map(tableSchema -> new PaimonTable(tableName, location, branch, tableSchema));
    }

    /** The names of the table's branches other than the main branch, by name. */
    @Override
    public List<String> listBranches(ConnectorSession session, PaimonTable table)
    {
        return listDirectoryNames(fileSystem(session, table.name()), table.location().appendPath(PaimonTable.BRANCH_DIRECTORY)).stream()
                .filter(name -> name.startsWith(PaimonTable.BRANCH_FOLDER_PREFIX) && name.length() > PaimonTable.BRANCH_FOLDER_PREFIX.length())
                .map(name -> name.substring(PaimonTable.BRANCH_FOLDER_PREFIX.length()))
                .sorted()
                .collect(toImmutableList());
    }

    /**
     * The table as it was at one schema version, for a read of a snapshot written with that schema.
     *
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} when that schema file is missing or invalid
     */
    @Override
    public PaimonTable loadSchemaVersion(ConnectorSession session, PaimonTable table, long schemaId)
    {
        return new PaimonTable(table.name(), table.location(), table.branch(), new SchemaFiles(fileSystem(session, table.name()), table.metadataLocation(), metadataCache).readSchema(schemaId));
    }

    /**
     * Creates a table by writing its first schema file, {@code schema-0}, exclusively: of two concurrent creations
     * of one table, one wins and the other finds the table existing. The schema is written as given; it must have
     * been validated (see {@code NewTableSchema}).
     *
     * @return false when the table exists already (nothing is written)
     * @throws SchemaNotFoundException when the database does not exist
     */
    @Override
    public boolean createTable(ConnectorSession session, SchemaTableName tableName, Location location, TableSchema schema)
    {
        checkArgument(schema.id() == 0, "a new table's schema has id 0: %s", schema.id());
        checkArgument(location.equals(tableLocation(tableName)), "a table of this catalog lives at %s, not %s", tableLocation(tableName), location);
        if (!databaseExists(session, tableName.getSchemaName())) {
            throw new SchemaNotFoundException(tableName.getSchemaName());
        }
        return createTableAt(session, tableName, location, schema);
    }

    /**
     * Writes a new table's first schema file at {@code location} exclusively, for every catalog that keeps tables in
     * folders: false when a table is there already.
     */
    public boolean createTableAt(ConnectorSession session, SchemaTableName tableName, Location location, TableSchema schema)
    {
        checkArgument(schema.id() == 0, "a new table's schema has id 0: %s", schema.id());
        SchemaFiles schemaFiles = new SchemaFiles(fileSystem(session, tableName), location);
        if (!schemaFiles.listSchemaIds().isEmpty()) {
            return false;
        }
        return schemaFiles.createSchema(schema);
    }

    @Override
    public boolean commitSchema(ConnectorSession session, PaimonTable table, TableSchema next)
    {
        return new SchemaFiles(fileSystem(session, table.name()), table.metadataLocation()).createSchema(next);
    }

    @Override
    public SnapshotPublisher snapshotPublisher(ConnectorSession session, PaimonTable table)
    {
        return queued(table, new SnapshotFiles(fileSystem(session, table.name()), table.metadataLocation())::commit);
    }

    /** The publisher, holding this catalog's commit lock of the table (or of its branch) while it commits. */
    public SnapshotPublisher queued(PaimonTable table, SnapshotPublisher publisher)
    {
        return commitLocks.queued(table.metadataLocation(), publisher);
    }

    /**
     * Moves the table's folder to the new name, as Paimon's filesystem catalog renames a table (also into another
     * database of the warehouse). Nothing in a table's files names the table, so the moved folder is the renamed table.
     *
     * @throws TrinoException {@code TABLE_ALREADY_EXISTS} when the new name is taken, {@code PAIMON_FILESYSTEM_ERROR}
     * when the file system cannot move the folder (object stores have no folder rename)
     */
    @Override
    public void renameTable(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        if (!databaseExists(session, to.getSchemaName())) {
            throw new SchemaNotFoundException(to.getSchemaName());
        }
        TrinoFileSystem fileSystem = fileSystem(session);
        Location source = tableLocation(from);
        Location target = tableLocation(to);
        if (!new SchemaFiles(fileSystem, target).listSchemaIds().isEmpty()) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table %s already exists.".formatted(to));
        }
        try {
            fileSystem.renameDirectory(source, target);
        }
        catch (IOException | UnsupportedOperationException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to rename table %s to table %s: cannot move folder %s to %s".formatted(from, to, source, target), e);
        }
        finally {
            metadataCache.flush(source);
        }
    }

    /**
     * Refuses a write, before it writes anything, when the table's file system could not publish its snapshot
     * exclusively (an object store without conditional writes, or one that ignores them).
     *
     * @throws TrinoException {@code PAIMON_UNSUPPORTED_CONFIGURATION} saying what to configure
     */
    @Override
    public void checkCommitsAreExclusive(ConnectorSession session, PaimonTable table)
    {
        TrinoFileSystem fileSystem = fileSystem(session, table.name());
        Location schemaFile = new SchemaFiles(fileSystem, table.metadataLocation()).schemaLocation(table.schema().id());
        MetadataFiles.checkExclusiveCreate(fileSystem, schemaFile);
    }

    /** Removes the table's folder with everything in it: schemas, snapshots, manifests, data files. */
    @Override
    public void dropTable(ConnectorSession session, SchemaTableName tableName)
    {
        Location location = tableLocation(tableName);
        try {
            fileSystem(session, tableName).deleteDirectory(location);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete table folder " + location, e);
        }
        finally {
            // a table created again under this name starts its snapshot and schema ids anew
            metadataCache.flush(location);
        }
    }

    @Override
    public TrinoFileSystem fileSystem(ConnectorSession session)
    {
        return fileSystemFactory.create(session);
    }

    @Override
    public TrinoFileSystem fileSystem(ConnectorSession session, SchemaTableName table)
    {
        return tableFileSystems.create(session, table);
    }

    private static List<String> listDirectoryNames(TrinoFileSystem fileSystem, Location location)
    {
        Set<Location> directories;
        try {
            directories = fileSystem.listDirectories(location);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list " + location, e);
        }
        return directories.stream()
                .map(FileSystemCatalog::lastPathSegment)
                .filter(name -> !name.isEmpty() && !name.startsWith("."))
                .collect(toImmutableList());
    }

    private static String lastPathSegment(Location location)
    {
        String path = location.path();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
