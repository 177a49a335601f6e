package io.trino.plugin.paimon;


import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A table at one schema version and one snapshot (none when nothing was committed yet). Both are pinned when the
 * query is planned, so every split reads the same version even if writers commit meanwhile.
 */
public record PaimonTableHandle(SchemaTableName schemaTableName, String location, long schemaId, OptionalLong snapshotId)
        implements ConnectorTableHandle
{
    public PaimonTableHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(location, "location is null");
        checkArgument(schemaId >= 0, "schemaId is negative: %s", schemaId);
        requireNonNull(snapshotId, "snapshotId is null");
    }

    @Override
    public String toString()
    {
        return schemaTableName + "@schema-" + schemaId + snapshotId.stream().mapToObj(id -> "@snapshot-" + id).findFirst().orElse("");
    }
}
