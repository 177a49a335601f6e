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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * An INSERT into a table at one schema version (the table model of the query, which travels with the handle), on
 * top of one snapshot (none for an empty table). The page sinks read the buckets they write in that snapshot
 * themselves and continue each bucket's sequence numbers above its maximum there, so the handle does not grow with the
 * table; the commit checks that no other writer
 * added files to the buckets written since then. The commit identifier marks the snapshot this statement publishes,
 * so that a publish with an unknown outcome can be recognised. The same handle serves CREATE TABLE AS, whose
 * table is new (no base snapshot) and was created by this statement.
 *
 * @param columns the table columns, in table order, as the pages carry them
 * @param dynamicBuckets for a dynamic-bucket table: how rows reach assigners
 * @param overwrite replace the partitions written (the whole table when it has no partitions) instead of appending
 * @param compactInSinks the page sinks compact the buckets they wrote and report the results in their fragments,
 * which the coordinator commits after the statement's own snapshot (compaction on write on the workers)
 */
public record PaimonInsertTableHandle(
        PaimonTable table,
        OptionalLong baseSnapshotId,
        List<PaimonColumnHandle> columns,
        Optional<DynamicBuckets> dynamicBuckets,
        String commitIdentifier,
        boolean overwrite,
        boolean compactInSinks)
        implements ConnectorInsertTableHandle, ConnectorOutputTableHandle
{
    public PaimonInsertTableHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(baseSnapshotId, "baseSnapshotId is null");
        columns = ImmutableList.copyOf(columns);
        requireNonNull(dynamicBuckets, "dynamicBuckets is null");
        requireNonNull(commitIdentifier, "commitIdentifier is null");
    }

    /** A write whose buckets, if compacted on write, are compacted by the coordinator after the commit. */
    public PaimonInsertTableHandle(PaimonTable table, OptionalLong baseSnapshotId, List<PaimonColumnHandle> columns, Optional<DynamicBuckets> dynamicBuckets, String commitIdentifier, boolean overwrite)
    {
        this(table, baseSnapshotId, columns, dynamicBuckets, commitIdentifier, overwrite, false);
    }

    /**
     * The assignment of a dynamic-bucket table's keys: rows reach one of {@code channels} writer channels (Trino's
     * buckets) by partition and key hash, {@code assigners} of them per partition, and each channel assigns buckets
     * from the {@code HASH} index files of the snapshot the statement read, which it reads itself.
     */
    public record DynamicBuckets(int channels, int assigners, long targetRowNumber, int maxBuckets)
    {
        public DynamicBuckets
        {
            checkArgument(assigners > 0 && channels % assigners == 0, "channels %s must be a multiple of assigners %s", channels, assigners);
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
