package io.trino.plugin.paimon;

import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A table at one schema version and one snapshot (none when nothing was committed yet). Both are pinned when the
 * query is planned, so every split reads the same version even if writers commit meanwhile; the table is resolved
 * then, once, and carried to the workers with its schema. The constraint holds the query's domains on partition,
 * bucket-key and primary-key columns; it only prunes partitions, buckets and files, and Trino still applies it to
 * the rows read. A read of an older version ({@code FOR VERSION AS OF}, {@code FOR TIMESTAMP AS OF}) pins that
 * snapshot and the schema it was written with; a read of a tag also names the tag, whose file holds the snapshot
 * after the snapshot file itself has expired. A limit, pushed down when a LIMIT reads the table directly, caps the
 * rows each split returns and the splits planned where row counts are known before reading.
 * The scan of {@code ALTER TABLE ... EXECUTE optimize} names the folder where its splits, each the compaction of a
 * bucket, leave their results ({@code optimizeStaging}).
 */
public record PaimonTableHandle(PaimonTable table, OptionalLong snapshotId, Optional<String> tag, TupleDomain<PaimonColumnHandle> constraint, OptionalLong limit, Optional<String> optimizeStaging)
        implements ConnectorTableHandle
{
    public PaimonTableHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(tag, "tag is null");
        requireNonNull(constraint, "constraint is null");
        requireNonNull(limit, "limit is null");
        requireNonNull(optimizeStaging, "optimizeStaging is null");
    }

    public PaimonTableHandle(PaimonTable table, OptionalLong snapshotId, Optional<String> tag, TupleDomain<PaimonColumnHandle> constraint)
    {
        this(table, snapshotId, tag, constraint, OptionalLong.empty(), Optional.empty());
    }

    public PaimonTableHandle(PaimonTable table, OptionalLong snapshotId)
    {
        this(table, snapshotId, TupleDomain.all());
    }

    public PaimonTableHandle(PaimonTable table, OptionalLong snapshotId, TupleDomain<PaimonColumnHandle> constraint)
    {
        this(table, snapshotId, Optional.empty(), constraint);
    }

    public SchemaTableName schemaTableName()
    {
        return table.name();
    }

    public PaimonTableHandle withConstraint(TupleDomain<PaimonColumnHandle> constraint)
    {
        return new PaimonTableHandle(table, snapshotId, tag, constraint, limit, optimizeStaging);
    }

    public PaimonTableHandle withLimit(long limit)
    {
        return new PaimonTableHandle(table, snapshotId, tag, constraint, OptionalLong.of(limit), optimizeStaging);
    }

    /** The scan of an {@code optimize}, whose splits compact their buckets and leave the results in the staging folder. */
    public PaimonTableHandle forOptimize(String stagingLocation)
    {
        return new PaimonTableHandle(table, snapshotId, tag, constraint, limit, Optional.of(stagingLocation));
    }

    @Override
    public String toString()
    {
        String snapshot = snapshotId.stream().mapToObj(id -> "@snapshot-" + id).findFirst().orElse("") + tag.map(name -> "@tag-" + name).orElse("");
        String pruning = constraint.isAll() ? "" : constraint.isNone() ? " constraint=none"
                : " constraint on " + constraint.getDomains().orElseThrow().keySet().stream().map(PaimonColumnHandle::name).sorted().toList();
        return optimizeStaging.map(_ -> "optimize ").orElse("") + table + snapshot + pruning + limit.stream().mapToObj(rows -> " limit=" + rows).findFirst().orElse("");
    }
}
