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

import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * The partial-update merge engine (merge-semantics §5). Without sequence groups every column takes its newest
 * non-null value. With sequence groups, a group's columns change only when a record's group sequence is at least
 * the stored one (then even to null, or through the column's aggregate function), an older record is folded into
 * aggregated columns before the stored value, and retractions clear or retract the group's columns.
 * <p>
 * Deletes: {@code ignore-delete} skips them; {@code partial-update.remove-record-on-delete} makes a -D restart the
 * row from the delete record's values and remove it unless a newer record follows; a -D whose sequence group is
 * listed in {@code partial-update.remove-record-on-sequence-group} does the same. Anything else refuses
 * retractions. The key yields no row when no add record was seen. Plain columns keep a reference to the record
 * their value came from; nothing is copied until output.
 */
public final class PartialUpdateMergeFunction
        implements MergeFunction
{
    public static final String RETRACT_ERROR = """
            By default, Partial update can not accept delete records, you can choose one of the following solutions:
            1. Configure 'ignore-delete' to ignore delete records.
            2. Configure 'partial-update.remove-record-on-delete' to remove the whole row when receiving delete records.
            3. Configure 'sequence-group's to retract partial columns. Also configure 'partial-update.remove-record-on-sequence-group' to remove the whole row when receiving deleted records of `specified sequence group`.""";

    private static final byte UNKNOWN = 0;
    private static final byte EMPTY = 1;
    private static final byte NEWER = 2;
    private static final byte OLDER = 3;

    /**
     * A value column the merge folds.
     *
     * @param group index of the column's sequence group, or -1
     * @param sequenceField whether the column is one of its group's sequence fields
     * @param aggregator the aggregate function of a group member that has one
     */
    public record Column(int channel, int group, boolean sequenceField, Optional<Supplier<FieldAggregator>> aggregator)
    {
        public Column
        {
            requireNonNull(aggregator, "aggregator is null");
        }
    }

    /**
     * @param sequenceColumns the group's sequence fields as indexes of columns, compared as a tuple in this order
     * @param removesRow whether a -D of this group removes the whole row
     */
    public record SequenceGroup(int[] sequenceColumns, List<Type> sequenceTypes, boolean removesRow)
    {
        public SequenceGroup
        {
            sequenceColumns = sequenceColumns.clone();
            sequenceTypes = List.copyOf(sequenceTypes);
        }
    }

    private final String tableName;
    private final int[] channels;
    private final int[] groups;
    private final boolean[] sequenceFields;
    private final FieldAggregator[] aggregators;
    private final int[][] groupSequenceColumns;
    private final BlockValueComparator[][] groupComparators;
    private final boolean[] groupRemovesRow;
    private final int[] outputColumns;
    private final boolean ignoreDelete;
    private final boolean removeRecordOnDelete;
    private final ComputedValues computed;

    // the current row: plain columns as references (a null page is NULL), aggregated ones inside their function
    private final Page[] pages;
    private final int[] positions;
    private final byte[] groupStates;
    private final Page[] rowPages;
    private final int[] rowPositions;
    private boolean sawAdd;
    private boolean deleted;
    private boolean filled;

    /**
     * @param columns the value columns in table column order, the order in which Paimon visits them
     * @param outputColumns for each output column, its index in {@code columns}
     */
    public PartialUpdateMergeFunction(String tableName, List<Column> columns, List<SequenceGroup> groups, int[] outputColumns, List<Type> outputTypes, boolean ignoreDelete, boolean removeRecordOnDelete)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.channels = columns.stream().mapToInt(Column::channel).toArray();
        this.groups = columns.stream().mapToInt(Column::group).toArray();
        this.sequenceFields = new boolean[columns.size()];
        this.aggregators = new FieldAggregator[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            sequenceFields[i] = columns.get(i).sequenceField();
            aggregators[i] = columns.get(i).aggregator().map(Supplier::get).orElse(null);
        }
        this.groupSequenceColumns = groups.stream().map(SequenceGroup::sequenceColumns).toArray(int[][]::new);
        this.groupComparators = groups.stream()
                .map(group -> group.sequenceTypes().stream().map(BlockValueComparator::forType).toArray(BlockValueComparator[]::new))
                .toArray(BlockValueComparator[][]::new);
        this.groupRemovesRow = new boolean[groups.size()];
        for (int i = 0; i < groups.size(); i++) {
            groupRemovesRow[i] = groups.get(i).removesRow();
        }
        this.outputColumns = outputColumns.clone();
        this.ignoreDelete = ignoreDelete;
        this.removeRecordOnDelete = removeRecordOnDelete;
        this.computed = new ComputedValues(outputTypes);
        this.pages = new Page[columns.size()];
        this.positions = new int[columns.size()];
        this.groupStates = new byte[groups.size()];
        this.rowPages = new Page[outputColumns.length];
        this.rowPositions = new int[outputColumns.length];
    }

    @Override
    public void reset()
    {
        Arrays.fill(pages, null);
        for (FieldAggregator aggregator : aggregators) {
            if (aggregator != null) {
                aggregator.reset();
            }
        }
        sawAdd = false;
        deleted = false;
        filled = false;
    }

    @Override
    public void add(Page page, int position, byte kind)
    {
        // only the newest record decides whether the row is removed
        deleted = false;
        if (KeyValueLayout.isRetract(kind)) {
            // a key whose first record retracts starts from that record's values (what Paimon does)
            if (!filled) {
                restart(page, position);
                filled = true;
            }
            if (ignoreDelete) {
                return;
            }
            if (groupStates.length > 0) {
                retractGroups(page, position, kind);
                return;
            }
            if (!removeRecordOnDelete) {
                throw new TrinoException(PAIMON_MERGE_ERROR, "Table %s: %s".formatted(tableName, RETRACT_ERROR));
            }
            if (kind == KeyValueLayout.DELETE) {
                restart(page, position);
                deleted = true;
            }
            return;
        }
        if (groupStates.length == 0) {
            for (int column = 0; column < channels.length; column++) {
                if (!isNull(page, position, column)) {
                    take(column, page, position);
                }
            }
        }
        else {
            updateGroups(page, position);
        }
        sawAdd = true;
        filled = true;
    }

    @Override
    public void emitResult(OutputPageBuilder output)
    {
        if (!sawAdd || deleted) {
            return;
        }
        for (int outputColumn = 0; outputColumn < outputColumns.length; outputColumn++) {
            int column = outputColumns[outputColumn];
            if (aggregators[column] != null) {
                aggregators[column].result(rowPages, rowPositions, outputColumn, computed.column(outputColumn));
            }
            else {
                rowPages[outputColumn] = pages[column];
                rowPositions[outputColumn] = positions[column];
            }
        }
        output.addColumns(rowPages, rowPositions);
    }

    @Override
    public Block[] buildComputedColumns()
    {
        return computed.build();
    }

    private void updateGroups(Page page, int position)
    {
        Arrays.fill(groupStates, UNKNOWN);
        for (int column = 0; column < channels.length; column++) {
            int group = groups[column];
            if (group < 0) {
                if (!isNull(page, position, column)) {
                    take(column, page, position);
                }
                continue;
            }
            byte state = groupState(group, page, position);
            if (state == EMPTY) {
                continue;
            }
            FieldAggregator aggregator = aggregators[column];
            if (sequenceFields[column]) {
                if (state == NEWER) {
                    take(column, page, position);
                }
            }
            else if (state == NEWER) {
                // a true partial update: the group's columns take the record's values, nulls included
                if (aggregator != null) {
                    aggregator.add(page, position);
                }
                else {
                    take(column, page, position);
                }
            }
            else if (aggregator != null) {
                aggregator.addOlder(page, position);
            }
        }
    }

    private void retractGroups(Page page, int position, byte kind)
    {
        Arrays.fill(groupStates, UNKNOWN);
        for (int column = 0; column < channels.length; column++) {
            int group = groups[column];
            if (group < 0) {
                continue;
            }
            byte state = groupState(group, page, position);
            if (state == EMPTY) {
                continue;
            }
            if (sequenceFields[column]) {
                if (state == NEWER) {
                    if (kind == KeyValueLayout.DELETE && groupRemovesRow[group]) {
                        restart(page, position);
                        deleted = true;
                        return;
                    }
                    take(column, page, position);
                }
                continue;
            }
            FieldAggregator aggregator = aggregators[column];
            if (aggregator != null) {
                // aggregated columns take back the value whatever the group sequence
                aggregator.retract(page, position);
            }
            else if (state == NEWER) {
                pages[column] = null;
            }
        }
    }

    // whether the record leaves the group alone (all its sequence fields null), or is newer or older than the row;
    // decided once per record, before any of the group's sequence fields change
    private byte groupState(int group, Page page, int position)
    {
        byte state = groupStates[group];
        if (state != UNKNOWN) {
            return state;
        }
        int[] sequenceColumns = groupSequenceColumns[group];
        state = EMPTY;
        for (int column : sequenceColumns) {
            if (!isNull(page, position, column)) {
                state = compareSequence(group, page, position) >= 0 ? NEWER : OLDER;
                break;
            }
        }
        groupStates[group] = state;
        return state;
    }

    // the record's group sequence against the row's, as a tuple, nulls first
    private int compareSequence(int group, Page page, int position)
    {
        int[] sequenceColumns = groupSequenceColumns[group];
        for (int i = 0; i < sequenceColumns.length; i++) {
            int column = sequenceColumns[i];
            boolean incomingNull = isNull(page, position, column);
            boolean storedNull = pages[column] == null || isNull(pages[column], positions[column], column);
            if (incomingNull || storedNull) {
                if (incomingNull != storedNull) {
                    return incomingNull ? -1 : 1;
                }
                continue;
            }
            int comparison = groupComparators[group][i].compare(page.getBlock(channels[column]), position, pages[column].getBlock(channels[column]), positions[column]);
            if (comparison != 0) {
                return comparison;
            }
        }
        return 0;
    }

    // the row starts again from the record: every column takes its value, aggregate functions keep their other state
    private void restart(Page page, int position)
    {
        for (int column = 0; column < channels.length; column++) {
            if (aggregators[column] != null) {
                aggregators[column].set(page, position);
            }
            else {
                take(column, page, position);
            }
        }
    }

    private void take(int column, Page page, int position)
    {
        pages[column] = page;
        positions[column] = position;
    }

    private boolean isNull(Page page, int position, int column)
    {
        return page.getBlock(channels[column]).isNull(position);
    }
}
