package io.trino.plugin.paimon;

import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A table at one schema version and one snapshot (none when nothing was committed yet). Both are pinned when the
 * query is planned, so every split reads the same version even if writers commit meanwhile. The constraint holds
 * the query's domains on partition, bucket-key and primary-key columns; it only prunes partitions, buckets and
 * files, and Trino still applies it to the rows read.
 */
public record PaimonTableHandle(SchemaTableName schemaTableName, String location, long schemaId, OptionalLong snapshotId, TupleDomain<PaimonColumnHandle> constraint)
        implements ConnectorTableHandle
{
    public PaimonTableHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(location, "location is null");
        checkArgument(schemaId >= 0, "schemaId is negative: %s", schemaId);
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(constraint, "constraint is null");
    }

    public PaimonTableHandle(SchemaTableName schemaTableName, String location, long schemaId, OptionalLong snapshotId)
    {
        this(schemaTableName, location, schemaId, snapshotId, TupleDomain.all());
    }

    public PaimonTableHandle withConstraint(TupleDomain<PaimonColumnHandle> constraint)
    {
        return new PaimonTableHandle(schemaTableName, location, schemaId, snapshotId, constraint);
    }

    @Override
    public String toString()
    {
        String snapshot = snapshotId.stream().mapToObj(id -> "@snapshot-" + id).findFirst().orElse("");
        String pruning = constraint.isAll() ? "" : constraint.isNone() ? " constraint=none"
                : " constraint on " + constraint.getDomains().orElseThrow().keySet().stream().map(PaimonColumnHandle::name).sorted().toList();
        return schemaTableName + "@schema-" + schemaId + snapshot + pruning;
    }
}
