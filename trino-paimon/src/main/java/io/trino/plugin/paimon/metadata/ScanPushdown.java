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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.base.projection.ApplyProjectionUtil.ProjectedColumnRepresentation;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.read.NestedProjections;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Variable;
import io.trino.spi.predicate.TupleDomain;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.base.projection.ApplyProjectionUtil.createProjectedColumnRepresentation;
import static io.trino.plugin.base.projection.ApplyProjectionUtil.extractSupportedProjectedColumns;
import static io.trino.plugin.base.projection.ApplyProjectionUtil.replaceWithNewVariables;

/**
 * What a scan takes over from the query. A predicate's domains are all kept in the table handle: the split manager
 * prunes partitions, buckets and files with those on partition, bucket-key and first primary-key columns, and the
 * page source skips Parquet row groups and pages, and ORC stripes and row groups, with those on primary-key columns, and on any column where rows are
 * read without merging. Only partition domains are enforced (a partition is read whole or not at all); Trino filters
 * the rows read with the rest, because value predicates never filter before the merge and a pruned bucket still
 * merges keys other than the predicate's; a domain on a nested field is left to Trino. A LIMIT is taken as a cap on
 * each split's rows, never guaranteed. Dereferences of {@code ROW} columns become handles of the nested fields.
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
        // a domain on a nested field stays Trino's to apply: the pruning by column statistics knows whole columns only
        TupleDomain<PaimonColumnHandle> combined = handle.constraint().intersect(PaimonColumnHandle.wholeColumnDomains(constraint.getSummary()));
        if (combined.equals(handle.constraint())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withConstraint(combined), PartitionDelete.unenforced(handle.table(), constraint.getSummary()), constraint.getExpression(), false));
    }

    /**
     * Takes over the dereferences of {@code ROW} columns ({@code payload.inner.g}): each becomes a column handle of
     * the nested field, read without the rest of the column ({@link NestedProjections}). Plain column references
     * need nothing: the page source is only asked for the columns the query uses.
     */
    static Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(PaimonTableHandle handle, List<ConnectorExpression> projections, Map<String, ColumnHandle> assignments)
    {
        if (!NestedProjections.supported(handle)) {
            return Optional.empty();
        }
        Set<ConnectorExpression> pushable = new LinkedHashSet<>();
        for (ConnectorExpression projection : projections) {
            pushable.addAll(extractSupportedProjectedColumns(projection));
        }
        // the scan's columns become those the rewritten projections use: the columns used whole, and the fields
        Map<String, Assignment> scanColumns = new LinkedHashMap<>();
        Map<ConnectorExpression, Variable> fieldVariables = new HashMap<>();
        Map<PaimonColumnHandle, Variable> variableOfField = new HashMap<>();
        for (ConnectorExpression expression : pushable) {
            ProjectedColumnRepresentation field = createProjectedColumnRepresentation(expression);
            String variable = field.getVariable().getName();
            PaimonColumnHandle column = (PaimonColumnHandle) assignments.get(variable);
            if (field.isVariable()) {
                scanColumns.put(variable, new Assignment(variable, column, column.type()));
            }
        }
        for (ConnectorExpression expression : pushable) {
            ProjectedColumnRepresentation field = createProjectedColumnRepresentation(expression);
            if (field.isVariable()) {
                continue;
            }
            PaimonColumnHandle nested = ((PaimonColumnHandle) assignments.get(field.getVariable().getName())).dereference(field.getDereferenceIndices());
            Variable variable = variableOfField.computeIfAbsent(nested, _ -> {
                String name = nested.qualifiedName();
                for (int suffix = 1; scanColumns.containsKey(name) || assignments.containsKey(name); suffix++) {
                    name = nested.qualifiedName() + "_" + suffix;
                }
                scanColumns.put(name, new Assignment(name, nested, nested.type()));
                return new Variable(name, nested.type());
            });
            fieldVariables.put(expression, variable);
        }
        if (fieldVariables.isEmpty()) {
            return Optional.empty();
        }
        List<ConnectorExpression> rewritten = projections.stream()
                .map(projection -> replaceWithNewVariables(projection, fieldVariables))
                .collect(toImmutableList());
        return Optional.of(new ProjectionApplicationResult<>(handle, rewritten, ImmutableList.copyOf(scanColumns.values()), false));
    }

    static Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(PaimonTableHandle handle, long limit)
    {
        if (handle.view() == PaimonTableHandle.View.CHANGES) {
            // the splits of a range are few and cheap to plan: a LIMIT above them is Trino's to apply
            return Optional.empty();
        }
        if (handle.limit().isPresent() && handle.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }
}
