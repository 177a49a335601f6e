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
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.List;

/**
 * The aggregation merge engine (merge-semantics §7.1): each column folds the key's records with its own function;
 * add records aggregate, retract records retract. With {@code aggregation.remove-record-on-delete} a -D restarts
 * the row from the delete record, and a key whose newest change is such a delete yields no row.
 */
public final class AggregationMergeFunction
        implements MergeFunction
{
    private final FieldAggregator[] aggregators;
    private final boolean removeRecordOnDelete;
    private final ComputedValues computed;
    private final Page[] rowPages;
    private final int[] rowPositions;
    private boolean deleted;

    public AggregationMergeFunction(List<FieldAggregator> aggregators, List<Type> types, boolean removeRecordOnDelete)
    {
        this.aggregators = aggregators.toArray(FieldAggregator[]::new);
        this.computed = new ComputedValues(types);
        this.removeRecordOnDelete = removeRecordOnDelete;
        this.rowPages = new Page[this.aggregators.length];
        this.rowPositions = new int[this.aggregators.length];
    }

    @Override
    public Block[] buildComputedColumns()
    {
        return computed.build();
    }

    @Override
    public void reset()
    {
        for (FieldAggregator aggregator : aggregators) {
            aggregator.reset();
        }
        deleted = false;
    }

    @Override
    public void add(Page page, int position, byte kind)
    {
        // only the newest record decides whether the row is removed: a -U after a removing -D retracts from the
        // restarted row, which is then emitted (as Paimon 1.4 does)
        deleted = false;
        if (!KeyValueLayout.isRetract(kind)) {
            for (FieldAggregator aggregator : aggregators) {
                aggregator.add(page, position);
            }
            return;
        }
        if (removeRecordOnDelete && kind == KeyValueLayout.DELETE) {
            // the row restarts from the delete record (Paimon 1.4: later adds aggregate onto its values), keeping
            // any other state of the functions, such as first_value having seen a value
            for (FieldAggregator aggregator : aggregators) {
                aggregator.set(page, position);
            }
            deleted = true;
            return;
        }
        for (FieldAggregator aggregator : aggregators) {
            aggregator.retract(page, position);
        }
    }

    @Override
    public void emitResult(OutputPageBuilder output)
    {
        if (deleted) {
            return;
        }
        for (int column = 0; column < aggregators.length; column++) {
            aggregators[column].result(rowPages, rowPositions, column, computed.column(column));
        }
        output.addColumns(rowPages, rowPositions);
    }
}
