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
package io.trino.plugin.paimon.table;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.spi.TrinoException;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * What UPDATE, DELETE and MERGE may do to a primary-key table, as each merge engine reads the records they write
 * (merge-semantics §3): an UPDATE writes the new full row (+U) and a DELETE a -D record, so a change is allowed only
 * where the merge makes the table read as the statement says. Refusals known from the statement's shape are thrown
 * when it begins; the ones that depend on the rows (a delete, a NULL that would not replace a value) are kept here
 * and applied by the merge sink before anything is committed.
 * <ul>
 * <li>deduplicate: everything, except DELETE with {@code ignore-delete}.</li>
 * <li>partial-update: UPDATE, but not to NULL where a NULL does not replace (outside sequence groups, or
 * {@code last_non_null_value}), nor of a row that has a value in a sequence group whose sequence fields are all NULL
 * (Paimon reads such a row's group as it was written while the row has one record, and skips the group once the
 * row is merged with another, so rewriting the row would lose the values); DELETE only with {@code partial-update.remove-record-on-delete} or
 * {@code partial-update.remove-record-on-sequence-group}. Aggregate functions in groups other than last_value and
 * last_non_null_value refuse UPDATE (rewriting the row would aggregate its values again).</li>
 * <li>aggregation: DELETE only with {@code aggregation.remove-record-on-delete}; UPDATE only when every non-key
 * column's function replaces its value ({@code last_value}, or {@code last_non_null_value} except to NULL): the new
 * full row carries every column, and any other function would fold the current values in again (a {@code sum}
 * would add).</li>
 * <li>first-row: neither (the first row of a key never changes).</li>
 * </ul>
 * UPDATE of a primary-key or partition column is refused (it would move the row to another key), and so is UPDATE of
 * a sequence field (a smaller value would lose against the row it replaces).
 *
 * @param deleteRefusal why this table cannot take a DELETE, if it cannot
 * @param nullRefusals per MERGE case number, the columns of an UPDATE case whose new value must not be NULL
 * @param sequenceGroups the partial-update sequence groups, checked in every updated row
 */
public record RowChangeRules(Optional<String> deleteRefusal, Map<Integer, List<NullRefusal>> nullRefusals, List<SequenceGroupColumns> sequenceGroups)
{
    private static final Set<String> REPLACING_FUNCTIONS = Set.of("last_value", "last_non_null_value");

    public RowChangeRules
    {
        requireNonNull(deleteRefusal, "deleteRefusal is null");
        nullRefusals = ImmutableMap.copyOf(nullRefusals);
        sequenceGroups = ImmutableList.copyOf(sequenceGroups);
    }

    /**
     * A column an UPDATE case sets whose new value must not be NULL.
     *
     * @param reason the end of the refusal's message
     */
    public record NullRefusal(int column, String columnName, String reason)
    {
        public NullRefusal
        {
            requireNonNull(columnName, "columnName is null");
            requireNonNull(reason, "reason is null");
        }
    }

    /**
     * A partial-update sequence group by table column: an updated row whose sequence columns are all NULL must have
     * no value in the member columns either.
     */
    public record SequenceGroupColumns(List<String> sequenceFields, List<Integer> sequenceColumns, List<Integer> memberColumns)
    {
        public SequenceGroupColumns
        {
            sequenceFields = ImmutableList.copyOf(sequenceFields);
            sequenceColumns = ImmutableList.copyOf(sequenceColumns);
            memberColumns = ImmutableList.copyOf(memberColumns);
        }
    }

    /**
     * Checks a statement on the table and returns the checks left for its rows.
     *
     * @param updateCaseColumns the columns each UPDATE case of the statement sets, by name, per MERGE case number
     */
    public static RowChangeRules forStatement(String tableName, TableSchema schema, TableOptions options, Map<Integer, Set<String>> updateCaseColumns)
    {
        if (schema.primaryKeys().isEmpty()) {
            throw refuse(tableName, "UPDATE, DELETE and MERGE need a primary key; the table has none");
        }
        MergeEngine engine = options.mergeEngine();
        if (engine == MergeEngine.FIRST_ROW) {
            throw refuse(tableName, "with 'merge-engine' = 'first-row' the first row of a key is kept forever, so it can be neither updated nor deleted");
        }
        Set<String> keys = new HashSet<>(schema.primaryKeys());
        keys.addAll(schema.partitionKeys());
        Set<String> sequenceFields = new HashSet<>(options.sequenceFields());
        options.sequenceGroups().keySet().forEach(sequenceFields::addAll);
        boolean updates = false;
        for (Set<String> columns : updateCaseColumns.values()) {
            for (String column : columns) {
                updates = true;
                if (keys.contains(column)) {
                    throw refuse(tableName, "column '%s' is part of the primary key %s or the partition keys %s and cannot be updated".formatted(column, schema.primaryKeys(), schema.partitionKeys()));
                }
                if (sequenceFields.contains(column)) {
                    throw refuse(tableName, "column '%s' is a sequence field and cannot be updated (a smaller value would lose against the row it replaces)".formatted(column));
                }
            }
        }
        List<String> names = schema.fieldNames();
        Map<String, List<String>> groupOfMember = groupOfMember(options);
        ImmutableMap.Builder<Integer, List<NullRefusal>> nullRefusals = ImmutableMap.builder();
        if (updates) {
            checkUpdatable(tableName, schema, options, keys, groupOfMember);
        }
        for (Map.Entry<Integer, Set<String>> updateCase : updateCaseColumns.entrySet()) {
            ImmutableList.Builder<NullRefusal> refusals = ImmutableList.builder();
            for (String column : updateCase.getValue()) {
                int index = names.indexOf(column);
                String function = aggregateFunction(options, column);
                List<String> group = groupOfMember.get(column);
                if (engine == MergeEngine.PARTIAL_UPDATE && group == null) {
                    refusals.add(new NullRefusal(index, column, "with 'merge-engine' = 'partial-update' a NULL does not replace a value outside a sequence group ('fields.<sequence-field>.sequence-group')"));
                }
                else if (engine == MergeEngine.PARTIAL_UPDATE) {
                    if (configuredFunction(options, column).filter("last_non_null_value"::equals).isPresent()) {
                        refusals.add(new NullRefusal(index, column, "its aggregate function 'last_non_null_value' does not replace a value with NULL"));
                    }
                }
                else if (engine == MergeEngine.AGGREGATION && function.equals("last_non_null_value")) {
                    refusals.add(new NullRefusal(index, column, "its aggregate function 'last_non_null_value' does not replace a value with NULL (use 'fields.%s.aggregate-function' = 'last_value')".formatted(column)));
                }
            }
            nullRefusals.put(updateCase.getKey(), refusals.build());
        }
        List<SequenceGroupColumns> groups = ImmutableList.of();
        if (engine == MergeEngine.PARTIAL_UPDATE) {
            groups = options.sequenceGroups().entrySet().stream()
                    .map(group -> new SequenceGroupColumns(
                            group.getKey(),
                            group.getKey().stream().map(names::indexOf).toList(),
                            group.getValue().stream().map(names::indexOf).toList()))
                    .toList();
        }
        return new RowChangeRules(deleteRefusal(engine, options), nullRefusals.buildOrThrow(), groups);
    }

    // the rewritten full row must make every non-key column read as the statement says
    private static void checkUpdatable(String tableName, TableSchema schema, TableOptions options, Set<String> keys, Map<String, List<String>> groupOfMember)
    {
        MergeEngine engine = options.mergeEngine();
        for (DataField field : schema.fields()) {
            if (keys.contains(field.name())) {
                continue;
            }
            String function = aggregateFunction(options, field.name());
            boolean aggregated = engine == MergeEngine.AGGREGATION
                    || (engine == MergeEngine.PARTIAL_UPDATE && groupOfMember.containsKey(field.name()) && configuredFunction(options, field.name()).isPresent());
            if (aggregated && !REPLACING_FUNCTIONS.contains(function)) {
                throw refuse(tableName, "UPDATE would write the whole row again and column '%s' aggregates it with '%s' instead of replacing its value; only tables whose columns all use 'last_value' or 'last_non_null_value' can be updated".formatted(field.name(), function));
            }
        }
    }

    private static Optional<String> deleteRefusal(MergeEngine engine, TableOptions options)
    {
        if (options.ignoreDelete()) {
            return Optional.of("option 'ignore-delete' = 'true' makes Paimon skip deleted rows");
        }
        return switch (engine) {
            case PARTIAL_UPDATE -> options.partialUpdateRemoveRecordOnDelete() || !options.partialUpdateRemoveRecordOnSequenceGroup().isEmpty()
                    ? Optional.empty()
                    : Optional.of("with 'merge-engine' = 'partial-update' rows can be deleted only with 'partial-update.remove-record-on-delete' = 'true' or 'partial-update.remove-record-on-sequence-group'");
            case AGGREGATION -> options.aggregationRemoveRecordOnDelete()
                    ? Optional.empty()
                    : Optional.of("with 'merge-engine' = 'aggregation' rows can be deleted only with 'aggregation.remove-record-on-delete' = 'true'");
            case DEDUPLICATE, FIRST_ROW -> Optional.empty();
        };
    }

    // the function Paimon merges a non-key column with: its own, the table's default, or last_non_null_value
    private static String aggregateFunction(TableOptions options, String column)
    {
        return configuredFunction(options, column).orElse("last_non_null_value");
    }

    private static Optional<String> configuredFunction(TableOptions options, String column)
    {
        return options.aggregateFunction(column)
                .or(options::defaultAggregateFunction)
                .map(String::trim);
    }

    private static Map<String, List<String>> groupOfMember(TableOptions options)
    {
        ImmutableMap.Builder<String, List<String>> groups = ImmutableMap.builder();
        options.sequenceGroups().forEach((sequenceFields, members) -> members.forEach(member -> groups.put(member, sequenceFields)));
        return groups.buildKeepingLast();
    }

    /** Whether the table takes DELETE; otherwise a TrinoException naming the table and the option that would allow it. */
    public void checkDelete(String tableName)
    {
        if (deleteRefusal.isPresent()) {
            throw refuse(tableName, "DELETE is not possible: " + deleteRefusal.get());
        }
    }

    public static TrinoException refuse(String tableName, String reason)
    {
        return new TrinoException(NOT_SUPPORTED, "Cannot change rows of Paimon table %s: %s".formatted(tableName, reason));
    }
}
