package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * An INSERT into a table at one schema version (the table model of the query, which travels with the handle), on
 * top of one snapshot (none for an empty table). The page sinks
 * continue each bucket's sequence numbers above its maximum in that snapshot; the commit checks that no other writer
 * added files to the buckets written since then. The commit identifier marks the snapshot this statement publishes,
 * so that a publish with an unknown outcome can be recognised.
 *
 * @param columns the table columns, in table order, as the pages carry them
 */
public record PaimonInsertTableHandle(
        PaimonTable table,
        OptionalLong baseSnapshotId,
        List<PaimonColumnHandle> columns,
        List<BucketSequence> bucketSequences,
        String commitIdentifier)
        implements ConnectorInsertTableHandle
{
    public PaimonInsertTableHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(baseSnapshotId, "baseSnapshotId is null");
        columns = ImmutableList.copyOf(columns);
        bucketSequences = ImmutableList.copyOf(bucketSequences);
        requireNonNull(commitIdentifier, "commitIdentifier is null");
    }

    /** The largest sequence number of a (partition, bucket) in the base snapshot; the partition a serialized binary row. */
    public record BucketSequence(byte[] partition, int bucket, long maxSequenceNumber)
    {
        public BucketSequence
        {
            requireNonNull(partition, "partition is null");
        }
    }

    public SchemaTableName schemaTableName()
    {
        return table.name();
    }

    @Override
    public String toString()
    {
        return table.name() + "@schema-" + table.schema().id() + baseSnapshotId.stream().mapToObj(id -> "@snapshot-" + id).findFirst().orElse("");
    }
}
