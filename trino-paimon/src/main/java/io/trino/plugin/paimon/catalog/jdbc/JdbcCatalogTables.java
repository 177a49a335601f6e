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

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.SchemaTableName;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's catalog tables, read and written row for row as Paimon's JDBC catalog does, so that both share one list of
 * databases and tables: {@code paimon_tables} (a row per table: catalog key, database, table; the table's files are
 * at {@code <warehouse>/<database>.db/<table>}), {@code paimon_database_properties} (a database created without
 * tables is its rows there, {@code exists=true} among them), {@code paimon_table_properties} (Paimon fills it only
 * with {@code sync-all-properties}; its rows follow a table on rename and drop) and {@code paimon_distributed_locks}.
 * Every statement is scoped to the catalog key, so several catalogs can share one database.
 */
public final class JdbcCatalogTables
{
    public static final String TABLES = "paimon_tables";
    public static final String DATABASE_PROPERTIES = "paimon_database_properties";
    public static final String TABLE_PROPERTIES = "paimon_table_properties";
    public static final String LOCKS = "paimon_distributed_locks";

    // the DDL of Paimon 1.4's JdbcUtils and lock dialects (the lock table's key length is Paimon's default)
    private static final String CREATE_TABLES = "CREATE TABLE paimon_tables(catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, " +
            "table_name VARCHAR(255) NOT NULL, PRIMARY KEY (catalog_key, database_name, table_name))";
    private static final String CREATE_DATABASE_PROPERTIES = "CREATE TABLE paimon_database_properties(catalog_key VARCHAR(255) NOT NULL, " +
            "database_name VARCHAR(255) NOT NULL, property_key VARCHAR(255), property_value VARCHAR(1000), PRIMARY KEY (catalog_key, database_name, property_key))";
    private static final String CREATE_TABLE_PROPERTIES = "CREATE TABLE paimon_table_properties(catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, " +
            "table_name VARCHAR(255) NOT NULL, property_key VARCHAR(255) NOT NULL, property_value VARCHAR(1000), " +
            "PRIMARY KEY (catalog_key, database_name, table_name, property_key))";
    private static final String CREATE_LOCKS = "CREATE TABLE paimon_distributed_locks(lock_id VARCHAR(255) NOT NULL, " +
            "acquired_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, expire_time_seconds BIGINT DEFAULT 0 NOT NULL, PRIMARY KEY (lock_id))";

    // the properties Paimon's catalog writes for a database created without properties
    private static final String DATABASE_EXISTS_PROPERTY = "exists";
    private static final String DATABASE_LOCATION_PROPERTY = "location";

    private final JdbcConnections connections;
    private volatile boolean created;
    private volatile boolean lockTableCreated;

    public JdbcCatalogTables(JdbcConnections connections)
    {
        this.connections = requireNonNull(connections, "connections is null");
    }

    /**
     * Creates the catalog tables that do not exist yet, as Paimon's catalog does when it starts: here on first use,
     * so that a database that is down does not stop Trino from starting.
     */
    private void ensureCreated()
    {
        if (!created) {
            connections.run(() -> "create Paimon's catalog tables", connection -> {
                createIfMissing(connection, TABLES, CREATE_TABLES);
                createIfMissing(connection, DATABASE_PROPERTIES, CREATE_DATABASE_PROPERTIES);
                createIfMissing(connection, TABLE_PROPERTIES, CREATE_TABLE_PROPERTIES);
                return null;
            });
            created = true;
        }
    }

    /** Creates {@code paimon_distributed_locks} when it does not exist, as Paimon's catalog does when its lock is enabled. */
    public void ensureLockTableCreated()
    {
        if (!lockTableCreated) {
            connections.run(() -> "create Paimon's lock table", connection -> {
                createIfMissing(connection, LOCKS, CREATE_LOCKS);
                return null;
            });
            lockTableCreated = true;
        }
    }

    private static void createIfMissing(Connection connection, String table, String ddl)
            throws SQLException
    {
        if (tableExists(connection, table)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        }
        catch (SQLException e) {
            // another catalog (Paimon Java's, or another Trino node's) created it in the meantime
            if (!tableExists(connection, table)) {
                throw e;
            }
        }
    }

    private static boolean tableExists(Connection connection, String table)
            throws SQLException
    {
        try (ResultSet tables = connection.getMetaData().getTables(null, null, table, null)) {
            return tables.next();
        }
    }

    /** Every database of the catalog: those with tables and those with properties, sorted. */
    public List<String> listDatabases()
    {
        ensureCreated();
        return connections.run(() -> "list the schemas", connection -> {
            TreeSet<String> databases = new TreeSet<>();
            databases.addAll(strings(connection, "SELECT DISTINCT database_name FROM paimon_tables WHERE catalog_key = ?", connections.catalogKey()));
            databases.addAll(strings(connection, "SELECT DISTINCT database_name FROM paimon_database_properties WHERE catalog_key = ?", connections.catalogKey()));
            return ImmutableList.copyOf(databases);
        });
    }

    public boolean databaseExists(String database)
    {
        ensureCreated();
        return connections.run(() -> "look up schema '%s'".formatted(database), connection ->
                !strings(connection, "SELECT database_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database).isEmpty()
                        || !strings(connection, "SELECT database_name FROM paimon_database_properties WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database).isEmpty());
    }

    /**
     * Registers a database with the properties Paimon writes for one created without properties.
     *
     * @return false when a concurrent creation registered it first
     */
    public boolean createDatabase(String database, String location)
    {
        ensureCreated();
        return connections.run(() -> "create schema '%s'".formatted(database), connection -> {
            try {
                return update(connection, "INSERT INTO paimon_database_properties (catalog_key, database_name, property_key, property_value) VALUES (?,?,?,?), (?,?,?,?)",
                        connections.catalogKey(), database, DATABASE_EXISTS_PROPERTY, "true",
                        connections.catalogKey(), database, DATABASE_LOCATION_PROPERTY, location) > 0;
            }
            catch (SQLException e) {
                if (!strings(connection, "SELECT database_name FROM paimon_database_properties WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database).isEmpty()) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** Removes a database's rows: its properties, and (as Paimon's drop does) any table rows left under it. */
    public void dropDatabase(String database)
    {
        ensureCreated();
        connections.run(() -> "drop schema '%s'".formatted(database), connection -> {
            update(connection, "DELETE FROM paimon_tables WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database);
            update(connection, "DELETE FROM paimon_table_properties WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database);
            return update(connection, "DELETE FROM paimon_database_properties WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database);
        });
    }

    /** The tables registered in a database, sorted. */
    public List<String> listTables(String database)
    {
        ensureCreated();
        return connections.run(() -> "list the tables of schema '%s'".formatted(database), connection ->
                ImmutableList.copyOf(new TreeSet<>(strings(connection, "SELECT table_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ?", connections.catalogKey(), database))));
    }

    public boolean tableExists(SchemaTableName table)
    {
        ensureCreated();
        return connections.run(() -> "look up table %s".formatted(table), connection -> tableRowExists(connection, table));
    }

    /**
     * Registers a table.
     *
     * @return false when the name is registered already
     */
    public boolean registerTable(SchemaTableName table)
    {
        ensureCreated();
        return connections.run(() -> "register table %s".formatted(table), connection -> {
            if (tableRowExists(connection, table)) {
                return false;
            }
            try {
                return update(connection, "INSERT INTO paimon_tables (catalog_key, database_name, table_name) VALUES (?,?,?)",
                        connections.catalogKey(), table.getSchemaName(), table.getTableName()) == 1;
            }
            catch (SQLException e) {
                if (tableRowExists(connection, table)) {
                    return false;
                }
                throw e;
            }
        });
    }

    /**
     * Removes a table's row and its property rows.
     *
     * @return false when the table was not registered
     */
    public boolean unregisterTable(SchemaTableName table)
    {
        ensureCreated();
        return connections.run(() -> "unregister table %s".formatted(table), connection -> {
            int deleted = update(connection, "DELETE FROM paimon_tables WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                    connections.catalogKey(), table.getSchemaName(), table.getTableName());
            update(connection, "DELETE FROM paimon_table_properties WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                    connections.catalogKey(), table.getSchemaName(), table.getTableName());
            return deleted > 0;
        });
    }

    /**
     * Moves a table's row and its property rows to a new name.
     *
     * @return false when the new name is registered already (nothing changes)
     */
    public boolean renameTable(SchemaTableName from, SchemaTableName to)
    {
        ensureCreated();
        return connections.run(() -> "rename table %s to %s".formatted(from, to), connection -> {
            if (tableRowExists(connection, to)) {
                return false;
            }
            int renamed;
            try {
                renamed = update(connection, "UPDATE paimon_tables SET database_name = ?, table_name = ? WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                        to.getSchemaName(), to.getTableName(), connections.catalogKey(), from.getSchemaName(), from.getTableName());
            }
            catch (SQLException e) {
                if (tableRowExists(connection, to)) {
                    return false;
                }
                throw e;
            }
            if (renamed == 0) {
                throw new SQLException("table %s is not registered".formatted(from));
            }
            update(connection, "UPDATE paimon_table_properties SET database_name = ?, table_name = ? WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                    to.getSchemaName(), to.getTableName(), connections.catalogKey(), from.getSchemaName(), from.getTableName());
            return true;
        });
    }

    private boolean tableRowExists(Connection connection, SchemaTableName table)
            throws SQLException
    {
        return !strings(connection, "SELECT table_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                connections.catalogKey(), table.getSchemaName(), table.getTableName()).isEmpty();
    }

    static List<String> strings(Connection connection, String sql, String... parameters)
            throws SQLException
    {
        try (PreparedStatement statement = prepare(connection, sql, parameters); ResultSet rows = statement.executeQuery()) {
            ImmutableList.Builder<String> values = ImmutableList.builder();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values.build();
        }
    }

    static int update(Connection connection, String sql, Object... parameters)
            throws SQLException
    {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException
    {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement;
        }
        catch (SQLException e) {
            statement.close();
            throw e;
        }
    }
}
