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
package io.trino.plugin.paimon.merge;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A table's merge engine in the merge layer's terms: field names and what the options say about each. The table
 * layer builds it from the table's options after checking them as Paimon does; {@link MergeFunctionFactory} turns
 * it into merge functions for a given channel layout (a reader's, a page sink's, a compaction's).
 *
 * @param tableName named in errors
 * @param fieldNames the table's fields in table column order, the order in which Paimon visits them
 * @param primaryKeys the primary key fields, partition keys included
 * @param sequenceFields the fields of {@code sequence.field}, compared as a tuple
 * @param sequenceGroups partial-update sequence groups; empty for the other engines
 * @param fieldAggregations the {@code fields.<f>.*} options of the fields that have any, parsed
 * @param defaultAggregateFunction {@code fields.default-aggregate-function}
 * @param removeRecordOnDelete {@code partial-update.remove-record-on-delete} or
 * {@code aggregation.remove-record-on-delete}, whichever belongs to the engine
 */
public record MergeEngineSpec(
        String tableName,
        MergeEngine engine,
        boolean ignoreDelete,
        List<String> fieldNames,
        Set<String> primaryKeys,
        List<String> sequenceFields,
        List<SequenceGroup> sequenceGroups,
        Map<String, FieldAggregation> fieldAggregations,
        Optional<String> defaultAggregateFunction,
        boolean removeRecordOnDelete)
{
    public MergeEngineSpec
    {
        requireNonNull(tableName, "tableName is null");
        requireNonNull(engine, "engine is null");
        fieldNames = ImmutableList.copyOf(fieldNames);
        primaryKeys = ImmutableSet.copyOf(primaryKeys);
        sequenceFields = ImmutableList.copyOf(sequenceFields);
        sequenceGroups = ImmutableList.copyOf(sequenceGroups);
        fieldAggregations = ImmutableMap.copyOf(fieldAggregations);
        requireNonNull(defaultAggregateFunction, "defaultAggregateFunction is null");
    }

    /**
     * Whether a -D makes the row start afresh ({@code remove-record-on-delete}, or a sequence group that removes the
     * row). Such merges are not associative: records merged without the older ones of their key lose the restart,
     * since a sorted run holds one record per key, so only a compaction that takes all of a bucket's runs may merge
     * them.
     */
    public boolean deleteRestartsRow()
    {
        return !ignoreDelete && (removeRecordOnDelete || sequenceGroups.stream().anyMatch(SequenceGroup::removesRowOnDelete));
    }

    /**
     * A partial-update sequence group (merge-semantics §5.2): its sequence fields order updates of its members.
     *
     * @param removesRowOnDelete whether a -D of this group removes the whole row
     * ({@code partial-update.remove-record-on-sequence-group} names one of its sequence fields)
     */
    public record SequenceGroup(List<String> sequenceFields, List<String> members, boolean removesRowOnDelete)
    {
        public SequenceGroup
        {
            sequenceFields = ImmutableList.copyOf(sequenceFields);
            members = ImmutableList.copyOf(members);
        }
    }

    /**
     * The aggregation options of one field, read and checked by the table layer.
     *
     * @param function {@code fields.<f>.aggregate-function}
     * @param ignoreRetract {@code fields.<f>.ignore-retract}
     * @param listAggDelimiter {@code fields.<f>.list-agg-delimiter}: what listagg puts between values
     * @param distinct {@code fields.<f>.distinct}: listagg and collect keep each value once
     * @param nestedKey {@code fields.<f>.nested-key}: the nested row's key fields of nested_update and
     * nested_partial_update, trimmed; empty when not set
     * @param countLimit {@code fields.<f>.count-limit}: the most rows nested_update keeps
     * @param timestampField {@code fields.<f>.ts-field}: the row field of merge_map_with_keytime's timestamp
     */
    public record FieldAggregation(
            Optional<String> function,
            boolean ignoreRetract,
            String listAggDelimiter,
            boolean distinct,
            List<String> nestedKey,
            int countLimit,
            Optional<String> timestampField)
    {
        public static final FieldAggregation NONE = new FieldAggregation(Optional.empty(), false, ",", false, ImmutableList.of(), Integer.MAX_VALUE, Optional.empty());

        public FieldAggregation
        {
            requireNonNull(function, "function is null");
            requireNonNull(listAggDelimiter, "listAggDelimiter is null");
            nestedKey = ImmutableList.copyOf(nestedKey);
            requireNonNull(timestampField, "timestampField is null");
        }
    }

    public FieldAggregation fieldAggregation(String field)
    {
        return fieldAggregations.getOrDefault(field, FieldAggregation.NONE);
    }

    /**
     * Fields the merge reads besides the ones asked for: the sequence fields, and the sequence fields of every
     * partial-update sequence group (all of them, because a group's -D may remove the whole row).
     */
    public List<String> extraValueFields()
    {
        Set<String> fields = new LinkedHashSet<>(sequenceFields);
        for (SequenceGroup group : sequenceGroups) {
            fields.addAll(group.sequenceFields());
        }
        return ImmutableList.copyOf(fields);
    }
}
