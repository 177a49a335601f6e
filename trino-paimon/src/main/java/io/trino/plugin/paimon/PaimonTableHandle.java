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
package io.trino.plugin.paimon;

import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
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
 * A read of {@code "<table>$ro"} or {@code "<table>$audit_log"} reads another {@link View} of the table, and so does
 * a read of {@code table_changes}, whose handle carries the range it reads.
 */
public record PaimonTableHandle(
        PaimonTable table,
        View view,
        OptionalLong snapshotId,
        Optional<String> tag,
        TupleDomain<PaimonColumnHandle> constraint,
        OptionalLong limit,
        Optional<String> optimizeStaging,
        Optional<TableChanges> changes)
        implements ConnectorTableHandle
{
    /** What a scan of the table returns. */
    public enum View
    {
        /** The table's rows: every level of a bucket merged. */
        TABLE,
        /**
         * Paimon's read-optimized table ({@code $ro}): of a primary-key table only the files of the highest level,
         * read without a merge (with their deletion vectors), so rows not yet compacted there are missing; of an
         * append table every file.
         */
        READ_OPTIMIZED,
        /**
         * Paimon's audit log ({@code $audit_log}): a {@code rowkind} column, then the table's columns; each key of a
         * primary-key table merged as a read merges it, but kept with its kind when its merged record retracts.
         */
        AUDIT_LOG,
        /**
         * The changes between two versions ({@code system.table_changes}, {@link TableChanges}): the table's columns,
         * then the kind of each change, the snapshot that committed it and that snapshot's time; the handle's
         * snapshot is the end of the range.
         */
        CHANGES,
    }

    public PaimonTableHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(view, "view is null");
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(tag, "tag is null");
        requireNonNull(constraint, "constraint is null");
        requireNonNull(limit, "limit is null");
        requireNonNull(optimizeStaging, "optimizeStaging is null");
        requireNonNull(changes, "changes is null");
        checkArgument(changes.isPresent() == (view == View.CHANGES), "the changes view and its range go together");
    }

    public PaimonTableHandle(PaimonTable table, OptionalLong snapshotId, Optional<String> tag, TupleDomain<PaimonColumnHandle> constraint)
    {
        this(table, View.TABLE, snapshotId, tag, constraint, OptionalLong.empty(), Optional.empty(), Optional.empty());
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
        return new PaimonTableHandle(table, view, snapshotId, tag, constraint, limit, optimizeStaging, changes);
    }

    public PaimonTableHandle withLimit(long limit)
    {
        return new PaimonTableHandle(table, view, snapshotId, tag, constraint, OptionalLong.of(limit), optimizeStaging, changes);
    }

    public PaimonTableHandle withView(View view)
    {
        checkArgument(view != View.CHANGES, "a scan of changes is made by forChanges");
        return new PaimonTableHandle(table, view, snapshotId, tag, constraint, limit, optimizeStaging, changes);
    }

    /** The scan of the changes in a range of the table's snapshots, pinned at the range's end. */
    public PaimonTableHandle forChanges(TableChanges range)
    {
        // nothing committed yet: no snapshot to pin, nothing to read
        OptionalLong end = range.end().snapshotId() == 0 ? OptionalLong.empty() : OptionalLong.of(range.end().snapshotId());
        return new PaimonTableHandle(table, View.CHANGES, end, range.end().tag(), TupleDomain.all(), OptionalLong.empty(), Optional.empty(), Optional.of(range));
    }

    /** The scan of an {@code optimize}, whose splits compact their buckets and leave the results in the staging folder. */
    public PaimonTableHandle forOptimize(String stagingLocation)
    {
        return new PaimonTableHandle(table, view, snapshotId, tag, constraint, limit, Optional.of(stagingLocation), changes);
    }

    @Override
    public String toString()
    {
        String snapshot = snapshotId.stream().mapToObj(id -> "@snapshot-" + id).findFirst().orElse("") + tag.map(name -> "@tag-" + name).orElse("");
        String pruning = constraint.isAll() ? "" : constraint.isNone() ? " constraint=none"
                : " constraint on " + constraint.getDomains().orElseThrow().keySet().stream().map(PaimonColumnHandle::name).sorted().toList();
        String viewText = switch (view) {
            case TABLE -> "";
            case READ_OPTIMIZED -> "$ro";
            case AUDIT_LOG -> "$audit_log";
            case CHANGES -> " changes " + changes.orElseThrow();
        };
        return optimizeStaging.map(_ -> "optimize ").orElse("") + table + viewText + snapshot + pruning + limit.stream().mapToObj(rows -> " limit=" + rows).findFirst().orElse("");
    }
}
