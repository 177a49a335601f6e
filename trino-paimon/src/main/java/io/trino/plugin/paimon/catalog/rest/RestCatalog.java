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
package io.trino.plugin.paimon.catalog.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.catalog.CatalogLocations;
import io.trino.plugin.paimon.catalog.FileSystemCatalog;
import io.trino.plugin.paimon.catalog.PaimonView;
import io.trino.plugin.paimon.catalog.ServiceCatalog;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.catalog.rest.RestClient.Response;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.schema.TableSchemaJson;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotJson;
import io.trino.plugin.paimon.maintenance.TableBranches;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.PaimonTableName;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.connector.ViewNotFoundException;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static java.util.Objects.requireNonNull;

/**
 * Tables registered on a server of Paimon's REST catalog API: the server lists databases and tables, creates,
 * renames and drops them, gives each table's location and id, and takes every commit
 * ({@code POST .../tables/<table>/commit}): it, not this connector, publishes the snapshot. A table's schema,
 * snapshot, manifest and data files are read and written under the location the server gives, through a
 * {@link FileSystemCatalog} that works on locations only.
 */
public class RestCatalog
        extends ServiceCatalog
{
    private static final String TABLE_DEFAULT_PREFIX = "table-default.";
    // Paimon's table types other than file-store tables (format, object, iceberg tables); a file-store table has none or "table"
    private static final String TYPE_OPTION = "type";
    private static final String PAIMON_TABLE_TYPE = "table";
    private static final String BRANCH_SUFFIX = "$branch_";

    private final RestClient client;
    private final MetadataCache metadataCache;
    private final CatalogLocations locations;

    public RestCatalog(RestClient client, FileSystemCatalog files, MetadataCache metadataCache, CatalogLocations locations)
    {
        super(files);
        this.client = requireNonNull(client, "client is null");
        this.metadataCache = requireNonNull(metadataCache, "metadataCache is null");
        this.locations = requireNonNull(locations, "locations is null");
    }

    @Override
    public MetadataCache metadataCache()
    {
        return metadataCache;
    }

    @Override
    public void flushMetadataCache(Optional<String> schemaName, Optional<String> tableName)
    {
        checkArgument(schemaName.isPresent() || tableName.isEmpty(), "a table name needs a schema name");
        if (tableName.isPresent()) {
            Optional<JsonNode> table = getTable(new SchemaTableName(schemaName.get(), tableName.get()));
            if (table.isPresent()) {
                metadataCache.flush(tableLocation(new SchemaTableName(schemaName.get(), tableName.get()), table.get()));
                return;
            }
        }
        // tables of one database lie wherever the server put them
        metadataCache.flush();
    }

    @Override
    public List<String> listDatabases(ConnectorSession session)
    {
        return client.listAll(client.path("databases"), "databases", "list of databases",
                        response -> response.failure("Cannot list databases"))
                .stream()
                .sorted()
                .collect(toImmutableList());
    }

    @Override
    public boolean databaseExists(ConnectorSession session, String database)
    {
        if (!isValidName(database)) {
            return false;
        }
        Response response = client.get(client.path("databases", database), Map.of(), "database " + database);
        return switch (response.status()) {
            case 200 -> true;
            case 404 -> false;
            default -> throw response.failure("Cannot read database '%s'".formatted(database));
        };
    }

    @Override
    public void createDatabase(ConnectorSession session, String database)
    {
        checkName("schema", database);
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.put("name", database);
        request.putObject("options");
        Response response = client.post(client.path("databases"), request, "database " + database);
        switch (response.status()) {
            case 200 -> {}
            case 409 -> throw new TrinoException(SCHEMA_ALREADY_EXISTS, "Schema already exists: '%s'".formatted(database));
            default -> throw response.failure("Cannot create database '%s'".formatted(database));
        }
    }

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
        Response response = client.delete(client.path("databases", database), "database " + database);
        switch (response.status()) {
            case 200, 204 -> {}
            case 404 -> throw new SchemaNotFoundException(database);
            default -> throw response.failure("Cannot drop database '%s'".formatted(database));
        }
    }

    @Override
    public List<String> listTables(ConnectorSession session, String database)
    {
        return listNames(database, "tables");
    }

    @Override
    public Optional<PaimonTable> loadTable(ConnectorSession session, SchemaTableName tableName, Optional<String> branch)
    {
        // a name with '$' is a system table or a branch of a table, which the connector resolves itself
        if (!isValidName(tableName.getSchemaName()) || !isValidName(tableName.getTableName()) || (branch.isPresent() && !isValidName(branch.get()))) {
            return Optional.empty();
        }
        Optional<JsonNode> response = getTable(tableName);
        if (response.isEmpty()) {
            return Optional.empty();
        }
        JsonNode table = response.get();
        String type = table.path("schema").path("options").path(TYPE_OPTION).asText(PAIMON_TABLE_TYPE);
        if (!type.equals(PAIMON_TABLE_TYPE)) {
            throw new TrinoException(NOT_SUPPORTED, "Catalog '%s': table %s is a Paimon %s, not a Paimon table this connector reads".formatted(client.catalogName(), tableName, type));
        }
        Location location = tableLocation(tableName, table);
        Optional<PaimonTable> loaded = files.loadTableAt(session, tableName, location, branch);
        if (loaded.isEmpty() && branch.isEmpty()) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Catalog '%s': table %s is registered at %s, where there is no Paimon schema file".formatted(client.catalogName(), tableName, location));
        }
        return loaded;
    }

    /**
     * Where the server would put a new table: it decides when the table is created, so this is the location of a
     * table of that name that exists, else its database's location with the table name appended. A table created
     * through {@link #createTable} lies where the server put it; load it again to learn where.
     */
    @Override
    public Location newTableLocation(ConnectorSession session, SchemaTableName tableName)
    {
        checkName("table", tableName.getTableName());
        Optional<JsonNode> table = getTable(tableName);
        if (table.isPresent()) {
            return tableLocation(tableName, table.get());
        }
        Response database = client.get(client.path("databases", tableName.getSchemaName()), Map.of(), "database " + tableName.getSchemaName());
        if (database.status() == 404) {
            throw new SchemaNotFoundException(tableName.getSchemaName());
        }
        if (database.status() != 200) {
            throw database.failure("Cannot read database '%s'".formatted(tableName.getSchemaName()));
        }
        String location = database.body().path("location").asText("");
        if (location.isEmpty()) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': the REST server gives no location for database '%s'".formatted(client.catalogName(), tableName.getSchemaName()));
        }
        // only a guess, which the server may overrule: a database location this catalog cannot open is kept as given,
        // since the table's own location, given when it is created, is the one read and written
        Location databaseLocation = locations.opens(location) ? locations.resolve("database " + tableName.getSchemaName(), location) : Location.of(location);
        return databaseLocation.appendPath(tableName.getTableName());
    }

    /**
     * Registers the table on the server with its first schema, as Paimon's REST catalog client does (the catalog's
     * {@code table-default.*} options added where the table sets none); the server writes {@code schema-0} at the
     * location it chooses, which may differ from {@code location}.
     *
     * @return false when the table exists already
     */
    @Override
    public boolean createTable(ConnectorSession session, SchemaTableName tableName, Location location, TableSchema schema)
    {
        checkArgument(schema.id() == 0, "a new table's schema has id 0: %s", schema.id());
        checkName("schema", tableName.getSchemaName());
        checkName("table", tableName.getTableName());
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.set("identifier", identifier(tableName.getSchemaName(), tableName.getTableName()));
        request.set("schema", schemaRequest(schema));
        Response response = client.post(client.path("databases", tableName.getSchemaName(), "tables"), request, "table " + tableName);
        return switch (response.status()) {
            case 200, 201 -> true;
            case 409 -> false;
            case 404 -> throw new SchemaNotFoundException(tableName.getSchemaName());
            default -> throw response.failure("Cannot create table %s".formatted(tableName));
        };
    }

    /**
     * Sends the server the schema changes that turn the table's schema into {@code next} (an
     * {@code AlterTableRequest}); the server writes the new schema. A server whose schema is no longer the one the
     * change was computed from means another writer changed it first.
     */
    @Override
    public boolean commitSchema(ConnectorSession session, PaimonTable table, TableSchema next)
    {
        SchemaTableName name = table.name();
        if (table.branch().isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "Catalog '%s': changing the schema of branch %s of table %s is not supported".formatted(client.catalogName(), table.branch().get(), name));
        }
        JsonNode registered = getTable(name).orElseThrow(() -> new TableNotFoundException(name));
        if (registered.path("schemaId").asLong(-1) != table.schema().id()) {
            return false;
        }
        ObjectNode request = RestClient.mapper().createObjectNode();
        RestSchemaChanges.between(name.toString(), table.schema(), next).forEach(request.putArray("changes")::add);
        Response response = client.post(client.path("databases", name.getSchemaName(), "tables", name.getTableName()), request, "schema change of table " + name);
        try {
            return switch (response.status()) {
                case 200, 204 -> true;
                case 409 -> false;
                case 404 -> throw new TableNotFoundException(name);
                default -> throw response.failure("The server refused the schema change of table %s".formatted(name));
            };
        }
        finally {
            metadataCache.flush(table.location());
        }
    }

    @Override
    public void renameTable(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        checkName("table", to.getTableName());
        Optional<JsonNode> source = getTable(from);
        if (source.isEmpty()) {
            throw new TableNotFoundException(from);
        }
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.set("source", identifier(from.getSchemaName(), from.getTableName()));
        request.set("destination", identifier(to.getSchemaName(), to.getTableName()));
        Response response = client.post(client.path("tables", "rename"), request, "rename of table %s to %s".formatted(from, to));
        try {
            switch (response.status()) {
                case 200, 204 -> {}
                case 404 -> throw new TableNotFoundException(from);
                case 409 -> throw new TrinoException(TABLE_ALREADY_EXISTS, "Table %s already exists.".formatted(to));
                default -> throw response.failure("Cannot rename table %s to %s".formatted(from, to));
            }
        }
        finally {
            metadataCache.flush(tableLocation(from, source.get()));
        }
    }

    /** Drops the table on the server, which removes its files unless it is an external table. */
    /** A REST catalog keeps a table's branches itself: Paimon's REST client creates and drops them through the server. */
    @Override
    public void createBranch(ConnectorSession session, PaimonTable table, String branch, Optional<String> fromTag)
    {
        SchemaTableName tableName = table.name();
        TableBranches.checkNewBranchName(tableName.toString(), branch);
        ObjectNode body = RestClient.mapper().createObjectNode();
        body.put("branch", branch);
        body.put("fromTag", fromTag.orElse(null));
        Response response = client.post(client.path("databases", tableName.getSchemaName(), "tables", restTableName(table), "branches"), body, "branch '%s' of table %s".formatted(branch, tableName));
        switch (response.status()) {
            case 200, 204 -> {}
            case 409 -> throw new TrinoException(ALREADY_EXISTS, "Branch '%s' of Paimon table %s already exists".formatted(branch, tableName));
            case 404 -> throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot create branch '%s' of Paimon table %s: %s".formatted(branch, tableName,
                    fromTag.map(tag -> "it has no tag '%s'".formatted(tag)).orElse("the catalog does not know the table")));
            default -> throw response.failure("Cannot create branch '%s' of Paimon table %s".formatted(branch, tableName));
        }
    }

    @Override
    public void dropBranch(ConnectorSession session, PaimonTable table, String branch)
    {
        SchemaTableName tableName = table.name();
        if (branch.equals(PaimonTableName.MAIN_BRANCH)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot delete branch 'main' of Paimon table %s: only a branch other than main can be deleted".formatted(tableName));
        }
        Response response = client.delete(client.path("databases", tableName.getSchemaName(), "tables", restTableName(table), "branches", branch), "branch '%s' of table %s".formatted(branch, tableName));
        switch (response.status()) {
            case 200, 204 -> {}
            case 404 -> throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Paimon table %s has no branch '%s'".formatted(tableName, branch));
            default -> throw response.failure("Cannot delete branch '%s' of Paimon table %s".formatted(branch, tableName));
        }
    }

    /** Paimon's REST client rolls back through the server, which deletes the later versions itself. */
    @Override
    public void rollbackTo(ConnectorSession session, PaimonTable table, OptionalLong snapshotId, Optional<String> tag)
    {
        SchemaTableName tableName = table.name();
        ObjectNode body = RestClient.mapper().createObjectNode();
        ObjectNode instant = body.putObject("instant");
        if (tag.isPresent()) {
            instant.put("type", "tag");
            instant.put("tagName", tag.get());
        }
        else {
            instant.put("type", "snapshot");
            instant.put("snapshotId", snapshotId.orElseThrow());
        }
        String target = tag.map(name -> "tag '%s'".formatted(name)).orElseGet(() -> "snapshot " + snapshotId.getAsLong());
        Response response = client.post(client.path("databases", tableName.getSchemaName(), "tables", restTableName(table), "rollback"), body, "rollback of table " + tableName);
        switch (response.status()) {
            case 200, 204 -> metadataCache.flush(table.location());
            case 404 -> throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot roll back Paimon table %s to %s: it does not exist".formatted(tableName, target));
            default -> throw response.failure("Cannot roll back Paimon table %s to %s".formatted(tableName, target));
        }
    }

    @Override
    public void fastForward(ConnectorSession session, PaimonTable table, String branch)
    {
        SchemaTableName tableName = table.name();
        if (branch.equals(PaimonTableName.MAIN_BRANCH) || branch.isBlank() || table.branch().equals(Optional.of(branch))) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot fast-forward Paimon table %s to branch '%s': name a branch other than main and the table's own".formatted(tableName, branch));
        }
        Response response = client.post(client.path("databases", tableName.getSchemaName(), "tables", restTableName(table), "branches", branch, "forward"),
                RestClient.mapper().createObjectNode(), "fast-forward of table " + tableName);
        switch (response.status()) {
            case 200, 204 -> metadataCache.flush(table.location());
            case 404 -> throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Paimon table %s has no branch '%s'".formatted(tableName, branch));
            default -> throw response.failure("Cannot fast-forward Paimon table %s to branch '%s'".formatted(tableName, branch));
        }
    }

    // the server's name of the table on its branch: t, or t$branch_b
    private static String restTableName(PaimonTable table)
    {
        return table.name().getTableName() + table.branch().map(branch -> "$" + PaimonTableName.BRANCH_PREFIX + branch).orElse("");
    }

    @Override
    public void dropTable(ConnectorSession session, SchemaTableName tableName)
    {
        Optional<JsonNode> table = getTable(tableName);
        if (table.isEmpty()) {
            return;
        }
        Response response = client.delete(client.path("databases", tableName.getSchemaName(), "tables", tableName.getTableName()), "table " + tableName);
        try {
            switch (response.status()) {
                case 200, 204, 404 -> {}
                default -> throw response.failure("Cannot drop table %s".formatted(tableName));
            }
        }
        finally {
            // a table created again under this name starts its snapshot and schema ids anew
            metadataCache.flush(tableLocation(tableName, table.get()));
        }
    }

    @Override
    public List<String> listViews(ConnectorSession session, String database)
    {
        return listNames(database, "views");
    }

    /** The names of a database's tables or views (the server's resource and the listing's field), sorted; none for a missing database. */
    private List<String> listNames(String database, String kind)
    {
        if (!isValidName(database)) {
            return ImmutableList.of();
        }
        try {
            return client.listAll(client.path("databases", database, kind), kind, "%s of database %s".formatted(kind, database),
                            response -> response.status() == 404 ? new SchemaNotFoundException(database) : response.failure("Cannot list the %s of database '%s'".formatted(kind, database)))
                    .stream()
                    .sorted()
                    .collect(toImmutableList());
        }
        catch (SchemaNotFoundException e) {
            return ImmutableList.of();
        }
    }

    @Override
    public Optional<PaimonView> loadView(ConnectorSession session, SchemaTableName viewName)
    {
        if (!isValidName(viewName.getSchemaName()) || !isValidName(viewName.getTableName())) {
            return Optional.empty();
        }
        Response response = client.get(client.path("databases", viewName.getSchemaName(), "views", viewName.getTableName()), Map.of(), "view " + viewName);
        return switch (response.status()) {
            case 200 -> Optional.of(view(viewName, response.body().path("schema")));
            case 404 -> Optional.empty();
            default -> throw response.failure("Cannot read view %s".formatted(viewName));
        };
    }

    /** Creates the view through the server; the server has no way to replace a view's columns, so OR REPLACE is refused. */
    @Override
    public void createView(ConnectorSession session, SchemaTableName viewName, PaimonView view, boolean replace)
    {
        checkName("schema", viewName.getSchemaName());
        checkName("view", viewName.getTableName());
        if (replace && loadView(session, viewName).isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "Catalog '%s': replacing view %s is not supported by REST catalogs; drop it and create it again".formatted(client.catalogName(), viewName));
        }
        ObjectNode schema = RestClient.mapper().createObjectNode();
        view.fields().forEach(field -> schema.withArray("fields").add(TableSchemaJson.fieldJson(field)));
        schema.put("query", view.query());
        ObjectNode dialects = schema.putObject("dialects");
        view.dialects().forEach(dialects::put);
        view.comment().ifPresent(comment -> schema.put("comment", comment));
        ObjectNode options = schema.putObject("options");
        view.options().forEach(options::put);
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.set("identifier", identifier(viewName.getSchemaName(), viewName.getTableName()));
        request.set("schema", schema);
        Response response = client.post(client.path("databases", viewName.getSchemaName(), "views"), request, "view " + viewName);
        switch (response.status()) {
            case 200, 201, 204 -> {}
            case 409 -> throw new TrinoException(ALREADY_EXISTS, "Catalog '%s': view %s already exists".formatted(client.catalogName(), viewName));
            case 404 -> throw new SchemaNotFoundException(viewName.getSchemaName());
            default -> throw response.failure("Cannot create view %s".formatted(viewName));
        }
    }

    @Override
    public void dropView(ConnectorSession session, SchemaTableName viewName)
    {
        Response response = client.delete(client.path("databases", viewName.getSchemaName(), "views", viewName.getTableName()), "view " + viewName);
        switch (response.status()) {
            case 200, 204 -> {}
            case 404 -> throw new ViewNotFoundException(viewName);
            default -> throw response.failure("Cannot drop view %s".formatted(viewName));
        }
    }

    @Override
    public void renameView(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        checkName("schema", to.getSchemaName());
        checkName("view", to.getTableName());
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.set("source", identifier(from.getSchemaName(), from.getTableName()));
        request.set("destination", identifier(to.getSchemaName(), to.getTableName()));
        Response response = client.post(client.path("views", "rename"), request, "rename of view %s to %s".formatted(from, to));
        switch (response.status()) {
            case 200, 204 -> {}
            case 404 -> throw new ViewNotFoundException(from);
            case 409 -> throw new TrinoException(ALREADY_EXISTS, "Catalog '%s': cannot rename view %s to %s: that name is taken".formatted(client.catalogName(), from, to));
            default -> throw response.failure("Cannot rename view %s to %s".formatted(from, to));
        }
    }

    /** Sends the server Paimon's {@code updateComment} view change; an empty comment is sent as null, which removes it. */
    @Override
    public void setViewComment(ConnectorSession session, SchemaTableName viewName, Optional<String> comment)
    {
        ObjectNode change = RestClient.mapper().createObjectNode();
        change.put("action", "updateComment");
        change.put("comment", comment.orElse(null));
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.putArray("changes").add(change);
        Response response = client.post(client.path("databases", viewName.getSchemaName(), "views", viewName.getTableName()), request, "comment on view " + viewName);
        switch (response.status()) {
            case 200, 204 -> {}
            case 404 -> throw new ViewNotFoundException(viewName);
            default -> throw response.failure("Cannot change the comment of view %s".formatted(viewName));
        }
    }

    /** Paimon's view changes cover the view's options, comment and dialects, not its columns. */
    @Override
    public void setViewColumnComment(ConnectorSession session, SchemaTableName viewName, String columnName, Optional<String> comment)
    {
        throw new TrinoException(NOT_SUPPORTED, "Catalog '%s': view %s: commenting on column '%s' is not supported: a REST catalog cannot change a view's columns, only its comment, options and dialects"
                .formatted(client.catalogName(), viewName, columnName));
    }

    private PaimonView view(SchemaTableName viewName, JsonNode schema)
    {
        try {
            ImmutableList.Builder<DataField> fields = ImmutableList.builder();
            for (JsonNode field : schema.path("fields")) {
                fields.add(TableSchemaJson.parseField(field));
            }
            Map<String, String> dialects = new HashMap<>();
            schema.path("dialects").properties().forEach(entry -> dialects.put(entry.getKey(), entry.getValue().asText()));
            Map<String, String> options = new HashMap<>();
            schema.path("options").properties().forEach(entry -> options.put(entry.getKey(), entry.getValue().asText()));
            String comment = schema.path("comment").isTextual() ? schema.path("comment").asText() : null;
            return new PaimonView(fields.build(), schema.path("query").asText(), dialects, Optional.ofNullable(comment), options);
        }
        catch (InvalidMetadataException | IllegalArgumentException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Catalog '%s': view %s: %s".formatted(client.catalogName(), viewName, e.getMessage()), e);
        }
    }

    /** The server serialises commits itself: nothing here depends on the file system's exclusive create. */
    @Override
    public void checkCommitsAreExclusive(ConnectorSession session, PaimonTable table) {}

    /**
     * Hands each snapshot to the server's commit endpoint with the table's id, so a table dropped and created again
     * under the same name does not take a commit meant for the old one. The server writes the snapshot; a lost race
     * is its answer {@code success: false} (or 409), after which the commit retries on top of the winner.
     */
    @Override
    public SnapshotPublisher snapshotPublisher(ConnectorSession session, PaimonTable table)
    {
        return files.queued(table, snapshot -> publish(table, snapshot));
    }

    private boolean publish(PaimonTable table, Snapshot snapshot)
    {
        SchemaTableName name = table.name();
        JsonNode registered = getTable(name).orElseThrow(() -> new TableNotFoundException(name));
        if (!tableLocation(name, registered).equals(table.location())) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': table %s was dropped and created again at %s while this statement wrote to %s".formatted(client.catalogName(), name, tableLocation(name, registered), table.location()));
        }
        String tableId = registered.path("id").asText("");
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.put("tableId", tableId);
        try {
            request.set("snapshot", RestClient.mapper().readTree(SnapshotJson.toJson(snapshot)));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode snapshot %s of table %s".formatted(snapshot.id(), name), e);
        }
        request.putArray("statistics");
        String objectName = name.getTableName() + table.branch().map(branch -> BRANCH_SUFFIX + branch).orElse("");
        Response response;
        try {
            response = client.post(client.path("databases", name.getSchemaName(), "tables", objectName, "commit"), request, "commit of snapshot %s of table %s".formatted(snapshot.id(), name));
        }
        catch (TrinoException e) {
            throw new TrinoException(PAIMON_COMMIT_STATE_UNKNOWN, "Catalog '%s': the commit of snapshot %s of table %s got no answer; whether it landed is unknown: %s".formatted(client.catalogName(), snapshot.id(), name, e.getMessage()), e);
        }
        return switch (response.status()) {
            case 200 -> response.body().path("success").asBoolean(false);
            case 409 -> false;
            case 404 -> throw new TableNotFoundException(name);
            case 400, 501 -> throw response.failure("The server refused the commit of snapshot %s of table %s".formatted(snapshot.id(), name));
            default -> throw new TrinoException(PAIMON_COMMIT_STATE_UNKNOWN, response.failure("The commit of snapshot %s of table %s failed on the server; whether it landed is unknown".formatted(snapshot.id(), name)).getMessage());
        };
    }

    private Optional<JsonNode> getTable(SchemaTableName tableName)
    {
        Response response = client.get(client.path("databases", tableName.getSchemaName(), "tables", tableName.getTableName()), Map.of(), "table " + tableName);
        return switch (response.status()) {
            case 200 -> Optional.of(response.body());
            case 404 -> Optional.empty();
            default -> throw response.failure("Cannot read table %s".formatted(tableName));
        };
    }

    private Location tableLocation(SchemaTableName tableName, JsonNode table)
    {
        String path = table.path("path").asText("");
        if (path.isEmpty()) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Catalog '%s': the REST server gives no location for table %s".formatted(client.catalogName(), tableName));
        }
        return locations.resolve("table " + tableName, path);
    }

    private JsonNode schemaRequest(TableSchema schema)
    {
        JsonNode file;
        try {
            file = RestClient.mapper().readTree(TableSchemaJson.toJson(schema));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode the schema of a new table", e);
        }
        ObjectNode request = RestClient.mapper().createObjectNode();
        request.set("fields", file.path("fields"));
        request.set("partitionKeys", file.path("partitionKeys"));
        request.set("primaryKeys", file.path("primaryKeys"));
        ObjectNode options = request.putObject("options");
        schema.options().forEach(options::put);
        client.options().forEach((key, value) -> {
            if (key.startsWith(TABLE_DEFAULT_PREFIX) && key.length() > TABLE_DEFAULT_PREFIX.length() && !options.has(key.substring(TABLE_DEFAULT_PREFIX.length()))) {
                options.put(key.substring(TABLE_DEFAULT_PREFIX.length()), value);
            }
        });
        schema.comment().ifPresent(comment -> request.put("comment", comment));
        return request;
    }

    private static ObjectNode identifier(String database, String object)
    {
        ObjectNode identifier = RestClient.mapper().createObjectNode();
        identifier.put("database", database);
        identifier.put("object", object);
        return identifier;
    }

    private static boolean isValidName(String name)
    {
        return !name.isEmpty() && !name.contains("$") && !name.contains("/") && name.chars().noneMatch(Character::isISOControl);
    }

    private static void checkName(String kind, String name)
    {
        if (!isValidName(name)) {
            throw new TrinoException(NOT_SUPPORTED, "Invalid %s name '%s': Paimon names cannot be empty or hold '$', '/' or control characters".formatted(kind, name));
        }
    }
}
