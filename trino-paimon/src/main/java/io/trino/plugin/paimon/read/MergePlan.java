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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.plugin.paimon.merge.MergeEngineSpec;
import io.trino.plugin.paimon.merge.MergeFunctionFactory;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.merge.ValueColumn;
import io.trino.plugin.paimon.table.MergeEngineOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * How the key-value records of a primary-key bucket are read and merged, built once per split: the key columns and
 * the value columns read from its files (the requested ones first, then those only the merge needs), their channel
 * layout, the order of records, the table's merge function, and whether it merges in lookup mode.
 *
 * @param keyTypes Paimon types of the trimmed primary key, which order files by their key ranges
 * @param newestRecordWins the merged row of a key is its newest record unless that retracts (deduplicate without
 * {@code ignore-delete}, outside lookup mode): a run can tell whether a page holds merged rows as it leaves the page
 * @param oneRecordWins the merged row of a key is one of its records, picked by row kinds, levels and record order
 * alone, never by values (deduplicate and first-row, with or without {@code ignore-delete}, in lookup mode or not):
 * the merge can run on keys alone and the values be read afterwards for the records it picked
 */
record MergePlan(
        List<ReadColumn> keyColumns,
        List<DataType> keyTypes,
        List<ReadColumn> valueColumns,
        KeyValueLayout layout,
        RecordComparator comparator,
        MergeFunctionFactory mergeFunctions,
        boolean lookupMode,
        boolean newestRecordWins,
        boolean oneRecordWins)
{
    MergePlan
    {
        keyColumns = ImmutableList.copyOf(keyColumns);
        keyTypes = ImmutableList.copyOf(keyTypes);
        valueColumns = ImmutableList.copyOf(valueColumns);
        requireNonNull(layout, "layout is null");
        requireNonNull(comparator, "comparator is null");
        requireNonNull(mergeFunctions, "mergeFunctions is null");
    }

    /**
     * The plan of a read whose merged rows are {@code outputColumns} of the table, named by {@code outputFields}.
     */
    static MergePlan of(PaimonTable table, TypeMapping typeMapping, List<String> outputFields, List<ReadColumn> outputColumns)
    {
        TableSchema schema = table.schema();
        TableOptions options = table.options();
        List<DataField> keyFields = table.trimmedPrimaryKeyFields();
        List<ReadColumn> keyColumns = keyFields.stream()
                .map(field -> new ReadColumn(field.id(), typeMapping.toTrinoType(field)))
                .toList();
        MergeEngineSpec mergeEngine = MergeEngineOptions.toSpec(schema, options);

        List<ReadColumn> valueColumns = new ArrayList<>(outputColumns);
        List<String> valueFields = new ArrayList<>(outputFields);
        for (String name : mergeEngine.extraValueFields()) {
            DataField field = schema.field(name).orElseThrow();
            if (indexOfField(valueColumns, field.id()) < 0) {
                valueColumns.add(new ReadColumn(field.id(), typeMapping.toTrinoType(field)));
                valueFields.add(name);
            }
        }
        int firstValueChannel = KeyValueLayout.firstValueChannel(keyColumns.size());
        List<ValueColumn> mergedValues = new ArrayList<>();
        for (int i = 0; i < valueColumns.size(); i++) {
            mergedValues.add(new ValueColumn(valueFields.get(i), valueColumns.get(i).type(), firstValueChannel + i));
        }
        int[] sequenceChannels = new int[options.sequenceFields().size()];
        List<Type> sequenceTypes = new ArrayList<>();
        for (int i = 0; i < sequenceChannels.length; i++) {
            int index = indexOfField(valueColumns, schema.field(options.sequenceFields().get(i)).orElseThrow().id());
            sequenceChannels[i] = firstValueChannel + index;
            sequenceTypes.add(valueColumns.get(index).type());
        }
        int[] outputChannels = new int[outputColumns.size()];
        for (int i = 0; i < outputChannels.length; i++) {
            outputChannels[i] = firstValueChannel + i;
        }
        KeyValueLayout layout = new KeyValueLayout(keyColumns.size(), sequenceChannels, options.sequenceFieldDescending(), outputChannels);
        RecordComparator comparator = new RecordComparator(layout, keyColumns.stream().map(ReadColumn::type).toList(), sequenceTypes);
        MergeFunctionFactory mergeFunctions = new MergeFunctionFactory(mergeEngine, mergedValues, outputChannels);
        // first-row is not lookup-wrapped in Paimon: its levels above 0 hold each key once
        boolean lookupMode = options.needsLookup() && options.mergeEngine() != MergeEngine.FIRST_ROW;
        boolean newestRecordWins = mergeEngine.engine() == MergeEngine.DEDUPLICATE && !mergeEngine.ignoreDelete() && !lookupMode;
        boolean oneRecordWins = mergeEngine.engine() == MergeEngine.DEDUPLICATE || mergeEngine.engine() == MergeEngine.FIRST_ROW;
        return new MergePlan(
                keyColumns,
                keyFields.stream().map(DataField::type).toList(),
                valueColumns,
                layout,
                comparator,
                mergeFunctions,
                lookupMode,
                newestRecordWins,
                oneRecordWins);
    }

    /** The position of the column of a field among {@code columns}, or -1. */
    static int indexOfField(List<ReadColumn> columns, int fieldId)
    {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).fieldId() == fieldId) {
                return i;
            }
        }
        return -1;
    }
}
