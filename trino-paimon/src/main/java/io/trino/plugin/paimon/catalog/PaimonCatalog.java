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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.maintenance.TableBranches;
import io.trino.plugin.paimon.maintenance.TableRollback;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * Where the connector finds Paimon's databases and tables, and how it registers, changes and commits them: a folder
 * of {@code <database>.db/<table>} directories, or a catalog service (a Hive Metastore, a JDBC database, a REST
 * server) that Flink, Spark and Trino share. A table's schemas, snapshots, manifests and data files always live in
 * files under its location; the catalog owns its name, its location, and the decision which snapshot is latest.
 */
public interface PaimonCatalog
{
    /** The catalog's cache of decoded metadata files, for reads that resolve snapshots, schemas and manifests. */
    MetadataCache metadataCache();

    /**
     * Forgets cached metadata: of one table, of every table of a schema, or (both empty) of the whole catalog.
     * Nothing needs it for correctness; it frees memory and recovers from files changed in place by hand.
     */
    void flushMetadataCache(Optional<String> schemaName, Optional<String> tableName);

    /** The file system of the catalog's folders; a table's own files are opened with {@link #fileSystem(ConnectorSession, SchemaTableName)}. */
    TrinoFileSystem fileSystem(ConnectorSession session);

    /**
     * The file system that opens the files under the table's folder: with the storage credentials the catalog
     * vends for the table where it does (a REST server's data tokens), else as {@link #fileSystem(ConnectorSession)}.
     */
    TrinoFileSystem fileSystem(ConnectorSession session, SchemaTableName table);

    /** Database names, sorted. */
    List<String> listDatabases(ConnectorSession session);

    boolean databaseExists(ConnectorSession session, String database);

    void createDatabase(ConnectorSession session, String database);

    /** Drops an empty database; a database that still holds tables is refused. */
    void dropDatabase(ConnectorSession session, String database);

    /** Names of the Paimon tables of a database, sorted; entries that are not Paimon tables are left out. */
    List<String> listTables(ConnectorSession session, String database);

    /**
     * The table with its current (latest) schema, or empty when there is no such table.
     *
     * @throws io.trino.spi.TrinoException naming the schema file when it cannot be read
     */
    default Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName)
    {
        return loadTable(session, tableName, Optional.empty());
    }

    /**
     * The table on one of its branches (the main branch when empty) with the branch's current schema, or empty
     * when there is no such table or branch.
     */
    Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName, Optional<String> branch);

    /** The names of the table's branches other than the main branch, by name. */
    List<String> listBranches(ConnectorSession session, PaimonTable table);

    /**
     * Creates a branch of the table (loaded on the branch it comes from), empty or from one of its tags; Paimon's
     * catalogs other than REST keep branches in the table's files.
     */
    default void createBranch(ConnectorSession session, PaimonTable table, String branch, Optional<String> fromTag)
    {
        new TableBranches(fileSystem(session, table.name()), table).create(branch, fromTag);
    }

    /** Deletes a branch of the table. */
    default void dropBranch(ConnectorSession session, PaimonTable table, String branch)
    {
        new TableBranches(fileSystem(session, table.name()), table).delete(branch);
    }

    /**
     * Makes the snapshot, or the tag's snapshot, the table's latest ({@code rollback_to}); Paimon's catalogs other
     * than REST leave it to the table's files.
     */
    default void rollbackTo(ConnectorSession session, PaimonTable table, OptionalLong snapshotId, Optional<String> tag)
    {
        TableRollback rollback = new TableRollback(fileSystem(session, table.name()), table);
        if (tag.isPresent()) {
            rollback.toTag(tag.get());
        }
        else {
            rollback.toSnapshot(snapshotId.orElseThrow());
        }
    }

    /** The table (on the branch it is loaded on) takes the branch's history ({@code fast_forward}). */
    default void fastForward(ConnectorSession session, PaimonTable table, String branch)
    {
        new TableBranches(fileSystem(session, table.name()), table).fastForward(branch);
    }

    /** The table as it was at one schema version, for a read of a snapshot written with that schema. */
    PaimonTable loadSchemaVersion(ConnectorSession session, PaimonTable table, long schemaId);

    /** Where a table created under this name keeps its files. */
    Location newTableLocation(ConnectorSession session, SchemaTableName tableName);

    /**
     * Creates a table at the location {@link #newTableLocation} gave, with its first schema (id 0), exclusively: of
     * two concurrent creations of one table, one wins and the other finds the table existing.
     *
     * @return false when the table exists already (nothing is written or registered)
     */
    boolean createTable(ConnectorSession session, SchemaTableName tableName, Location location, TableSchema schema);

    /**
     * Makes {@code next} (the id after the table's current schema) the table's schema, unless another writer
     * changed the schema first.
     *
     * @return false when a schema with that id exists already (the change is retried on top of it)
     */
    boolean commitSchema(ConnectorSession session, PaimonTable table, TableSchema next);

    void renameTable(ConnectorSession session, SchemaTableName from, SchemaTableName to);

    /** Removes the table: its registration and its files. */
    void dropTable(ConnectorSession session, SchemaTableName tableName);

    /**
     * Refuses a write, before it writes anything, when the table's snapshots could not be published exclusively
     * (an object store without conditional writes, or one that ignores them).
     */
    void checkCommitsAreExclusive(ConnectorSession session, PaimonTable table);

    /** How commits to this table publish their snapshots. */
    SnapshotPublisher snapshotPublisher(ConnectorSession session, PaimonTable table);

    /**
     * Tells the catalog about the partitions a published snapshot added data files to, for catalogs that list a
     * table's partitions themselves (a Hive Metastore under {@code metastore.partitioned-table}); nothing elsewhere.
     */
    default void registerPartitions(ConnectorSession session, PaimonTable table, Collection<BinaryRow> partitions) {}

    /** Names of the views of a database, sorted; empty on catalogs that keep no views (Paimon keeps none in folders or JDBC). */
    default List<String> listViews(ConnectorSession session, String database)
    {
        return List.of();
    }

    /** The view of this name, or empty when there is none (or the name is a table's). */
    default Optional<PaimonView> loadView(ConnectorSession session, SchemaTableName viewName)
    {
        return Optional.empty();
    }

    /**
     * Stores a view, replacing one of the same name when {@code replace} is set.
     *
     * @throws io.trino.spi.TrinoException ALREADY_EXISTS when the name is taken and not replaced, NOT_SUPPORTED on
     * catalogs that keep no views
     */
    default void createView(ConnectorSession session, SchemaTableName viewName, PaimonView view, boolean replace)
    {
        throw viewsNotSupported(viewName);
    }

    default void dropView(ConnectorSession session, SchemaTableName viewName)
    {
        throw viewsNotSupported(viewName);
    }

    /**
     * Renames a view, within its database or into another one.
     *
     * @throws io.trino.spi.TrinoException ALREADY_EXISTS when the new name is taken, NOT_SUPPORTED on catalogs that
     * keep no views
     */
    default void renameView(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        throw viewsNotSupported(from);
    }

    /** Sets the view's comment, or removes it when empty. */
    default void setViewComment(ConnectorSession session, SchemaTableName viewName, Optional<String> comment)
    {
        throw viewsNotSupported(viewName);
    }

    /**
     * Sets the comment of one of the view's columns, or removes it when empty.
     *
     * @throws io.trino.spi.TrinoException NOT_SUPPORTED where the catalog cannot change a view's columns
     */
    default void setViewColumnComment(ConnectorSession session, SchemaTableName viewName, String columnName, Optional<String> comment)
    {
        throw viewsNotSupported(viewName);
    }

    private static TrinoException viewsNotSupported(SchemaTableName viewName)
    {
        return new TrinoException(NOT_SUPPORTED, "View %s: Paimon keeps views only in Hive Metastore and REST catalogs (paimon.catalog.type)".formatted(viewName));
    }
}
