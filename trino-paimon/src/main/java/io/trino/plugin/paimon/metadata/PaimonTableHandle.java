package io.trino.plugin.paimon.metadata;

import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A table at one schema version. The location and schema id pin what the coordinator planned with, so workers
 * read the same schema even if the table is altered meanwhile.
 */
public record PaimonTableHandle(SchemaTableName schemaTableName, String location, long schemaId)
        implements ConnectorTableHandle
{
    public PaimonTableHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(location, "location is null");
        checkArgument(schemaId >= 0, "schemaId is negative: %s", schemaId);
    }

    @Override
    public String toString()
    {
        return schemaTableName + "@schema-" + schemaId;
    }
}
