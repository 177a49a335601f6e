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
package io.trino.plugin.paimon.format.schema;

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static java.util.Objects.requireNonNull;

/**
 * The schema versions of one table: {@code <table>/schema/schema-<id>}. A table exists exactly when it has at
 * least one schema file; the highest id is the current schema, older ones describe files written before an ALTER.
 */
public final class SchemaFiles
{
    public static final String SCHEMA_DIRECTORY = "schema";
    private static final String SCHEMA_PREFIX = "schema-";

    private final TrinoFileSystem fileSystem;
    private final Location tableLocation;
    private final MetadataCache cache;

    public SchemaFiles(TrinoFileSystem fileSystem, Location tableLocation)
    {
        this(fileSystem, tableLocation, MetadataCache.DISABLED);
    }

    public SchemaFiles(TrinoFileSystem fileSystem, Location tableLocation, MetadataCache cache)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.tableLocation = requireNonNull(tableLocation, "tableLocation is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    public Location schemaLocation(long id)
    {
        return tableLocation.appendPath(SCHEMA_DIRECTORY).appendPath(SCHEMA_PREFIX + id);
    }

    /** Schema ids present, ascending; empty when the folder is not a table. */
    public List<Long> listSchemaIds()
    {
        Location directory = tableLocation.appendPath(SCHEMA_DIRECTORY);
        List<Long> ids = new ArrayList<>();
        try {
            FileIterator files = fileSystem.listFiles(directory);
            while (files.hasNext()) {
                FileEntry file = files.next();
                parseSchemaId(file.location().fileName()).ifPresent(ids::add);
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return ImmutableList.of();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list schema files in " + directory, e);
        }
        ids.sort(null);
        return ImmutableList.copyOf(ids);
    }

    public Optional<TableSchema> latestSchema()
    {
        List<Long> ids = listSchemaIds();
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(readSchema(ids.getLast()));
    }

    /**
     * @throws TrinoException with {@code PAIMON_INVALID_METADATA} naming the file when it is missing or not a valid schema
     */
    public TableSchema readSchema(long id)
    {
        Location location = schemaLocation(id);
        return cache.namedById(fileSystem, location, () -> decodeSchema(location, id));
    }

    private TableSchema decodeSchema(Location location, long id)
    {
        byte[] content = MetadataFiles.readFile(fileSystem, location);
        TableSchema schema;
        try {
            schema = TableSchemaJson.parse(content);
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon schema file %s: %s".formatted(location, e.getMessage()), e);
        }
        if (schema.id() != id) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon schema file %s: it declares schema id %s".formatted(location, schema.id()));
        }
        return schema;
    }

    /**
     * Creates {@code schema-<id>} unless it exists, atomically.
     *
     * @return false when a schema with this id already exists
     */
    public boolean createSchema(TableSchema schema)
    {
        return MetadataFiles.createAtomically(fileSystem, schemaLocation(schema.id()), TableSchemaJson.toJson(schema));
    }

    // "schema-12" -> 12; temporary files (".schema-1.<uuid>.tmp") and anything else -> empty
    static Optional<Long> parseSchemaId(String fileName)
    {
        if (!fileName.startsWith(SCHEMA_PREFIX)) {
            return Optional.empty();
        }
        String digits = fileName.substring(SCHEMA_PREFIX.length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(digits));
    }
}
