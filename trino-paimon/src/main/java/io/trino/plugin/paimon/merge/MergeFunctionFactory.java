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
import io.trino.plugin.paimon.merge.MergeEngineSpec.FieldAggregation;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Builds the merge function of a table for one channel layout: the reader, the page sink and compaction each give
 * where the value fields lie in their pages and which of them make the merged row. Which function folds each
 * column is decided here once; the aggregate functions themselves are created, and their column types checked,
 * by {@link #create()}, that is only when a key needs merging, as in Paimon.
 */
public final class MergeFunctionFactory
{
    private static final String LAST_NON_NULL_VALUE = "last_non_null_value";

    private final Supplier<MergeFunction> mergeFunctions;

    /**
     * @param valueColumns the value fields in the merged pages; they include the spec's
     * {@link MergeEngineSpec#extraValueFields()}
     * @param outputChannels the channels of the merged row's columns, in output order, as in
     * {@link KeyValueLayout#outputChannels()}; each is the channel of one of {@code valueColumns}
     */
    public MergeFunctionFactory(MergeEngineSpec spec, List<ValueColumn> valueColumns, int[] outputChannels)
    {
        requireNonNull(spec, "spec is null");
        List<ValueColumn> values = ImmutableList.copyOf(valueColumns);
        List<ValueColumn> outputs = new ArrayList<>(outputChannels.length);
        for (int channel : outputChannels) {
            outputs.add(values.get(indexOfChannel(values, channel)));
        }
        this.mergeFunctions = switch (spec.engine()) {
            case DEDUPLICATE -> () -> new DeduplicateMergeFunction(spec.ignoreDelete());
            case FIRST_ROW -> () -> new FirstRowMergeFunction(spec.ignoreDelete());
            case PARTIAL_UPDATE -> partialUpdate(spec, values, outputs);
            case AGGREGATION -> aggregation(spec, outputs);
        };
    }

    /** A new merge function; each holds the state of one key at a time. */
    public MergeFunction create()
    {
        return mergeFunctions.get();
    }

    private static Supplier<MergeFunction> partialUpdate(MergeEngineSpec spec, List<ValueColumn> values, List<ValueColumn> outputs)
    {
        Map<String, Integer> groupOfField = new HashMap<>();
        Set<String> sequenceFields = new HashSet<>();
        for (int group = 0; group < spec.sequenceGroups().size(); group++) {
            MergeEngineSpec.SequenceGroup sequenceGroup = spec.sequenceGroups().get(group);
            for (String field : sequenceGroup.members()) {
                groupOfField.put(field, group);
            }
            for (String field : sequenceGroup.sequenceFields()) {
                groupOfField.put(field, group);
            }
            sequenceFields.addAll(sequenceGroup.sequenceFields());
        }

        // the value columns in table column order, the order in which Paimon visits them
        List<Integer> order = new ArrayList<>();
        for (String field : spec.fieldNames()) {
            for (int value = 0; value < values.size(); value++) {
                if (values.get(value).field().equals(field)) {
                    order.add(value);
                }
            }
        }
        if (order.size() != values.size()) {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "Value columns are not all fields of table " + spec.tableName());
        }
        int[] columnOfValue = new int[values.size()];
        List<PartialUpdateMergeFunction.Column> columns = new ArrayList<>();
        for (int column = 0; column < order.size(); column++) {
            int value = order.get(column);
            columnOfValue[value] = column;
            ValueColumn valueColumn = values.get(value);
            String name = valueColumn.field();
            int group = groupOfField.getOrDefault(name, -1);
            boolean sequenceField = sequenceFields.contains(name);
            Optional<Supplier<FieldAggregator>> aggregator = Optional.empty();
            if (group >= 0 && !sequenceField) {
                FieldAggregation aggregation = spec.fieldAggregation(name);
                Optional<String> function = spec.primaryKeys().contains(name)
                        ? Optional.of("primary-key")
                        : aggregation.function().or(spec::defaultAggregateFunction);
                aggregator = function.map(functionName -> () -> FieldAggregatorFactory.create(functionName, aggregation, valueColumn.type(), valueColumn.channel(), context(spec, name)));
            }
            columns.add(new PartialUpdateMergeFunction.Column(valueColumn.channel(), group, sequenceField, aggregator));
        }
        List<PartialUpdateMergeFunction.SequenceGroup> groups = new ArrayList<>();
        for (MergeEngineSpec.SequenceGroup group : spec.sequenceGroups()) {
            int[] sequenceColumns = group.sequenceFields().stream()
                    .mapToInt(field -> columnOfValue[indexOfField(values, field)])
                    .toArray();
            List<Type> types = group.sequenceFields().stream().map(field -> values.get(indexOfField(values, field)).type()).toList();
            groups.add(new PartialUpdateMergeFunction.SequenceGroup(sequenceColumns, types, group.removesRowOnDelete()));
        }
        int[] outputColumns = outputs.stream()
                .mapToInt(output -> columnOfValue[values.indexOf(output)])
                .toArray();
        List<Type> outputTypes = outputs.stream().map(ValueColumn::type).toList();
        return () -> new PartialUpdateMergeFunction(spec.tableName(), columns, groups, outputColumns, outputTypes, spec.ignoreDelete(), spec.removeRecordOnDelete());
    }

    /**
     * Each output column folds with its function: keys take the input, sequence fields the last value, others
     * their configured function, else the default one, else last_non_null_value.
     */
    private static Supplier<MergeFunction> aggregation(MergeEngineSpec spec, List<ValueColumn> outputs)
    {
        List<String> functions = new ArrayList<>();
        for (ValueColumn output : outputs) {
            String name = output.field();
            FieldAggregation aggregation = spec.fieldAggregation(name);
            String function;
            if (spec.primaryKeys().contains(name)) {
                function = "primary-key";
            }
            else if (spec.sequenceFields().contains(name)) {
                function = "last_value";
            }
            else {
                function = aggregation.function().or(spec::defaultAggregateFunction).orElse(LAST_NON_NULL_VALUE);
            }
            // checked for the columns merged, as Paimon checks the fields of the projection it merges
            if (aggregation.ignoreRetract() && spec.removeRecordOnDelete()) {
                throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: Key: 'aggregation.remove-record-on-delete' , default: false (fallback keys: []) and fields.%s.ignore-retract have conflicting behavior so should not be enabled at the same time."
                        .formatted(spec.tableName(), name));
            }
            functions.add(function);
        }
        List<Type> types = outputs.stream().map(ValueColumn::type).toList();
        return () -> {
            List<FieldAggregator> aggregators = new ArrayList<>();
            for (int i = 0; i < outputs.size(); i++) {
                ValueColumn output = outputs.get(i);
                FieldAggregation aggregation = spec.fieldAggregation(output.field());
                aggregators.add(FieldAggregatorFactory.create(functions.get(i), aggregation, output.type(), output.channel(), context(spec, output.field())));
            }
            return new AggregationMergeFunction(aggregators, types, spec.removeRecordOnDelete());
        };
    }

    private static String context(MergeEngineSpec spec, String field)
    {
        return "Table %s column '%s'".formatted(spec.tableName(), field);
    }

    private static int indexOfChannel(List<ValueColumn> values, int channel)
    {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i).channel() == channel) {
                return i;
            }
        }
        throw new TrinoException(GENERIC_INTERNAL_ERROR, "No value column at channel " + channel);
    }

    private static int indexOfField(List<ValueColumn> values, String field)
    {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i).field().equals(field)) {
                return i;
            }
        }
        throw new TrinoException(GENERIC_INTERNAL_ERROR, "Field %s is not among the merged value columns".formatted(field));
    }
}
