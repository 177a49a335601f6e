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
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.FieldAggregatorFactory;
import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.plugin.paimon.merge.MergeEngineSpec;
import io.trino.plugin.paimon.merge.MergeEngineSpec.FieldAggregation;
import io.trino.plugin.paimon.merge.MergeEngineSpec.SequenceGroup;
import io.trino.plugin.paimon.merge.MergeFunctionFactory;
import io.trino.plugin.paimon.merge.ValueColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.parseBoolean;
import static io.trino.plugin.paimon.table.TableOptions.parseInteger;

/**
 * Turns the options of a primary-key table into the merge layer's description of its merge engine, checked the way
 * Paimon checks them when it loads the table (merge-semantics §5.3, §7.1): the sequence fields exist; for
 * partial-update and aggregation, the fields that per-field options name exist, sequence fields have no aggregate
 * function, sequence groups do not overlap, and the delete options do not contradict each other.
 */
public final class MergeEngineOptions
{
    private static final String LAST_NON_NULL_VALUE = "last_non_null_value";
    private static final String FIELDS_PREFIX = "fields.";

    private MergeEngineOptions() {}

    /**
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} for options Paimon would reject
     */
    public static MergeEngineSpec toSpec(TableSchema schema, TableOptions options)
    {
        String tableName = options.tableName();
        for (String field : options.sequenceFields()) {
            if (schema.field(field).isEmpty()) {
                throw invalid(tableName, "Sequence field: '%s' can not be found in table schema.".formatted(field));
            }
        }
        MergeEngine engine = options.mergeEngine();
        if (engine == MergeEngine.DEDUPLICATE || engine == MergeEngine.FIRST_ROW) {
            return new MergeEngineSpec(tableName, engine, options.ignoreDelete(), schema.fieldNames(), Set.copyOf(schema.primaryKeys()), options.sequenceFields(),
                    ImmutableList.of(), ImmutableMap.of(), Optional.empty(), false);
        }
        checkFieldOptions(tableName, schema, options);
        List<SequenceGroup> sequenceGroups = ImmutableList.of();
        boolean removeRecordOnDelete = options.aggregationRemoveRecordOnDelete();
        if (engine == MergeEngine.PARTIAL_UPDATE) {
            sequenceGroups = partialUpdateSequenceGroups(tableName, schema, options);
            removeRecordOnDelete = options.partialUpdateRemoveRecordOnDelete();
        }
        return new MergeEngineSpec(tableName, engine, options.ignoreDelete(), schema.fieldNames(), Set.copyOf(schema.primaryKeys()), options.sequenceFields(),
                sequenceGroups, fieldAggregations(schema, options), options.defaultAggregateFunction(), removeRecordOnDelete);
    }

    /**
     * Checks the merge engine of a table about to be created: its options as {@link #toSpec} checks them, and every
     * column's aggregate function created once with the column's type. Paimon checks a function's type only when a
     * key first merges; a table created through Trino is refused at CREATE TABLE instead of failing its first read.
     *
     * @param columnType the Trino type of a column, by name
     */
    public static void checkNewTable(TableSchema schema, TableOptions options, Function<String, Type> columnType)
    {
        MergeEngineSpec spec = toSpec(schema, options);
        List<String> names = schema.fieldNames();
        switch (spec.engine()) {
            case DEDUPLICATE, FIRST_ROW -> {}
            case AGGREGATION -> {
                // every column is merged: the factory checks the retraction options of each, create() each function
                List<ValueColumn> columns = IntStream.range(0, names.size())
                        .mapToObj(channel -> new ValueColumn(names.get(channel), columnType.apply(names.get(channel)), channel))
                        .toList();
                new MergeFunctionFactory(spec, columns, IntStream.range(0, names.size()).toArray()).create();
            }
            case PARTIAL_UPDATE -> {
                // only members of sequence groups aggregate (toSpec refused functions elsewhere)
                for (SequenceGroup group : spec.sequenceGroups()) {
                    for (String member : group.members()) {
                        FieldAggregation aggregation = spec.fieldAggregation(member);
                        Optional<String> function = aggregation.function().or(spec::defaultAggregateFunction);
                        if (function.isPresent() && !spec.primaryKeys().contains(member)) {
                            FieldAggregatorFactory.create(function.get(), aggregation, columnType.apply(member), 0, "Table %s column '%s'".formatted(spec.tableName(), member));
                        }
                    }
                }
            }
        }
    }

    private static List<SequenceGroup> partialUpdateSequenceGroups(String tableName, TableSchema schema, TableOptions options)
    {
        List<String> fieldNames = schema.fieldNames();

        // the groups, each field in at most one of them
        List<List<String>> groupSequenceFields = new ArrayList<>();
        Map<String, Integer> groupOfField = new HashMap<>();
        Set<String> sequenceFields = new LinkedHashSet<>();
        options.sequenceGroups().forEach((sequence, members) -> {
            int group = groupSequenceFields.size();
            groupSequenceFields.add(sequence);
            for (String field : concat(members, sequence)) {
                if (!fieldNames.contains(field)) {
                    throw invalid(tableName, "Field %s can not be found in table schema.".formatted(field));
                }
                Integer other = groupOfField.putIfAbsent(field, group);
                if (other != null && other != group) {
                    throw invalid(tableName, "Field %s is defined repeatedly by multiple groups: [%s, %s].".formatted(field, groupSequenceFields.get(other), sequence));
                }
            }
            sequenceFields.addAll(sequence);
        });
        List<String> aggregatedSequenceFields = sequenceFields.stream().filter(field -> options.aggregateFunction(field).isPresent()).toList();
        if (!aggregatedSequenceFields.isEmpty()) {
            throw invalid(tableName, "Should not defined aggregation function on sequence group: %s".formatted(aggregatedSequenceFields));
        }
        for (String field : fieldNames) {
            if (schema.primaryKeys().contains(field) || sequenceFields.contains(field) || groupOfField.containsKey(field)) {
                continue;
            }
            Optional<String> function = options.aggregateFunction(field).or(options::defaultAggregateFunction);
            if (function.isPresent() && !function.get().equals(LAST_NON_NULL_VALUE)) {
                throw invalid(tableName, "Must use sequence group for aggregation functions but not found for field %s.".formatted(field));
            }
        }
        boolean removeOnSequenceGroup = !options.partialUpdateRemoveRecordOnSequenceGroup().isEmpty();
        if (options.ignoreDelete() && options.partialUpdateRemoveRecordOnDelete()) {
            throw invalid(tableName, "ignore-delete and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time.");
        }
        if (options.ignoreDelete() && removeOnSequenceGroup) {
            throw invalid(tableName, "ignore-delete and partial-update.remove-record-on-sequence-group have conflicting behavior so should not be enabled at the same time.");
        }
        if (options.partialUpdateRemoveRecordOnDelete() && !groupSequenceFields.isEmpty()) {
            throw invalid(tableName, "sequence-group and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time.");
        }
        if (!sequenceFields.containsAll(options.partialUpdateRemoveRecordOnSequenceGroup())) {
            throw invalid(tableName, "field '%s' defined in 'partial-update.remove-record-on-sequence-group' option must be part of sequence groups"
                    .formatted(String.join(",", options.partialUpdateRemoveRecordOnSequenceGroup())));
        }

        ImmutableList.Builder<SequenceGroup> groups = ImmutableList.builder();
        options.sequenceGroups().forEach((sequence, members) -> groups.add(new SequenceGroup(
                sequence,
                members,
                sequence.stream().anyMatch(options.partialUpdateRemoveRecordOnSequenceGroup()::contains))));
        return groups.build();
    }

    // the fields.<f>.<suffix> options of each field that has any
    private static Map<String, FieldAggregation> fieldAggregations(TableSchema schema, TableOptions options)
    {
        ImmutableMap.Builder<String, FieldAggregation> aggregations = ImmutableMap.builder();
        for (String field : schema.fieldNames()) {
            String prefix = FIELDS_PREFIX + field + ".";
            if (options.options().keySet().stream().anyMatch(key -> key.startsWith(prefix))) {
                aggregations.put(field, fieldAggregation(options, field));
            }
        }
        return aggregations.buildOrThrow();
    }

    // each parameter read as Paimon types it, with the one parser of its kind
    private static FieldAggregation fieldAggregation(TableOptions options, String field)
    {
        String tableName = options.tableName();
        return new FieldAggregation(
                options.aggregateFunction(field),
                options.ignoreRetract(field),
                options.fieldOption(field, "list-agg-delimiter").orElse(","),
                options.fieldOption(field, "distinct").map(value -> parseBoolean(tableName, fieldKey(field, "distinct"), value)).orElse(false),
                options.fieldOption(field, "nested-key").map(value -> Arrays.stream(value.split(",")).map(String::trim).toList()).orElse(ImmutableList.of()),
                options.fieldOption(field, "count-limit").map(value -> parseInteger(tableName, fieldKey(field, "count-limit"), value)).orElse(Integer.MAX_VALUE),
                options.fieldOption(field, "ts-field"));
    }

    private static String fieldKey(String field, String suffix)
    {
        return FIELDS_PREFIX + field + "." + suffix;
    }

    // what Paimon checks of the per-field options of any table: the fields they name exist, and sequence fields
    // have no aggregate function
    private static void checkFieldOptions(String tableName, TableSchema schema, TableOptions options)
    {
        for (String key : options.options().keySet()) {
            if (!key.startsWith(FIELDS_PREFIX)) {
                continue;
            }
            String fields = key.split("\\.", -1)[1];
            for (String field : fields.split(",", -1)) {
                if (!field.equals("default-aggregate-function") && schema.field(field).isEmpty()) {
                    throw invalid(tableName, "Field %s can not be found in table schema.".formatted(field));
                }
            }
        }
        for (String field : options.sequenceFields()) {
            if (options.aggregateFunction(field).isPresent()) {
                throw invalid(tableName, "Should not define aggregation on sequence field: '%s'.".formatted(field));
            }
        }
    }

    private static List<String> concat(List<String> first, List<String> second)
    {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static TrinoException invalid(String tableName, String message)
    {
        return new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: %s".formatted(tableName, message));
    }
}
