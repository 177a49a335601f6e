package io.trino.plugin.paimon.table;

import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.connector.SchemaTableName;

import static java.util.Objects.requireNonNull;

/**
 * A Paimon table as the connector sees it: its name, its folder and the schema version being read.
 */
public record PaimonTable(SchemaTableName name, Location location, TableSchema schema)
{
    public PaimonTable
    {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        requireNonNull(schema, "schema is null");
    }

    public boolean hasPrimaryKey()
    {
        return !schema.primaryKeys().isEmpty();
    }
}
