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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.predicate.TupleDomain;

import java.util.Optional;

/**
 * What a scan takes over from the query. A predicate's domains are all kept in the table handle: the split manager
 * prunes partitions, buckets and files with those on partition, bucket-key and first primary-key columns, and the
 * page source skips Parquet row groups and pages, and ORC stripes and row groups, with those on primary-key columns, and on any column where rows are
 * read without merging. Only partition domains are enforced (a partition is read whole or not at all); Trino filters
 * the rows read with the rest, because value predicates never filter before the merge and a pruned bucket still
 * merges keys other than the predicate's. A LIMIT is taken as a cap on each split's rows, never guaranteed.
 */
final class ScanPushdown
{
    private ScanPushdown() {}

    static Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(PaimonTableHandle handle, Constraint constraint)
    {
        if (handle.limit().isPresent()) {
            // the rows of a limited scan are already chosen: a filter above it must not pick others
            return Optional.empty();
        }
        TupleDomain<PaimonColumnHandle> combined = handle.constraint().intersect(constraint.getSummary().transformKeys(PaimonColumnHandle.class::cast));
        if (combined.equals(handle.constraint())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withConstraint(combined), PartitionDelete.unenforced(handle.table(), constraint.getSummary()), constraint.getExpression(), false));
    }

    static Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(PaimonTableHandle handle, long limit)
    {
        if (handle.limit().isPresent() && handle.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }
}
