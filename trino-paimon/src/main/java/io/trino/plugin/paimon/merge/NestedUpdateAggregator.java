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
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code nested_update} (merge-semantics §7.2) on a nested table {@code ARRAY<ROW>}: appends the input's rows to
 * the accumulator's, null rows dropped; with {@code nested-key} a later row replaces an earlier one with the same
 * key. {@code count-limit} caps what an input adds: an accumulator of that many elements (nulls counted, as Paimon
 * counts them in a value it has not rebuilt) takes nothing more, otherwise at most the remainder of the input's
 * rows. A retraction removes every row equal to a retracted one, or with a nested key, the retracted keys.
 *
 * <p>With a nested key Paimon's row order is unspecified (a hash map); here a key stays where it first appeared.
 */
final class NestedUpdateAggregator
        extends CombiningAggregator
{
    private final ArrayType arrayType;
    private final RowType rowType;
    private final Optional<NestedKeyProjection> nestedKey;
    private final int countLimit;
    private final ValueEquality rowEquality;
    private final ValueList rows = new ValueList();
    private final Map<NestedKeyProjection.Key, Integer> rowsByKey = new LinkedHashMap<>();

    NestedUpdateAggregator(ArrayType type, int channel, String context, Optional<NestedKeyProjection> nestedKey, int countLimit)
    {
        super(type, channel, context);
        this.arrayType = type;
        this.rowType = (RowType) type.getElementType();
        this.nestedKey = nestedKey;
        this.countLimit = countLimit;
        this.rowEquality = ValueEquality.of(rowType, ValueEquality.Mode.RECORD_EQUALISER);
    }

    @Override
    protected void combine(Page page, Block block, int position)
    {
        if (settledByNulls(page, block, position)) {
            return;
        }
        int accumulatorSize = isReference() ? arrayType.getObject(referencedBlock(), referencedPosition()).getPositionCount() : rows.size();
        if (accumulatorSize >= countLimit) {
            return;
        }
        int remaining = countLimit - accumulatorSize;
        build();
        Block input = arrayType.getObject(block, position);
        int taken = 0;
        for (int i = 0; i < input.getPositionCount() && taken < remaining; i++) {
            if (!input.isNull(i)) {
                addRow(input, i);
                taken++;
            }
        }
    }

    @Override
    public void retract(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (accumulatorIsNull() || block.isNull(position)) {
            return;
        }
        build();
        Block retracted = arrayType.getObject(block, position);
        ValueList kept = new ValueList();
        for (int i = 0; i < rows.size(); i++) {
            if (!isRetracted(retracted, rows.block(i), rows.position(i))) {
                kept.add(rows.block(i), rows.position(i));
            }
        }
        clearBuilt();
        for (int i = 0; i < kept.size(); i++) {
            addRow(kept.block(i), kept.position(i));
        }
    }

    private boolean isRetracted(Block retracted, Block block, int position)
    {
        NestedKeyProjection.Key key = nestedKey.map(projection -> projection.keyOf(row(block, position))).orElse(null);
        for (int j = 0; j < retracted.getPositionCount(); j++) {
            if (retracted.isNull(j)) {
                continue;
            }
            boolean match = key == null
                    ? rowEquality.equal(retracted, j, block, position)
                    : key.equals(nestedKey.get().keyOf(row(retracted, j)));
            if (match) {
                return true;
            }
        }
        return false;
    }

    // the accumulator as a list of its non-null rows (keyed: one per key, the last one)
    private void build()
    {
        if (!isReference()) {
            return;
        }
        Block value = arrayType.getObject(referencedBlock(), referencedPosition());
        markBuilt();
        clearBuilt();
        for (int i = 0; i < value.getPositionCount(); i++) {
            if (!value.isNull(i)) {
                addRow(value, i);
            }
        }
    }

    private void addRow(Block block, int position)
    {
        if (nestedKey.isEmpty()) {
            rows.add(block, position);
            return;
        }
        Integer index = rowsByKey.putIfAbsent(nestedKey.get().keyOf(row(block, position)), rows.size());
        if (index == null) {
            rows.add(block, position);
        }
        else {
            rows.set(index, block, position);
        }
    }

    private SqlRow row(Block block, int position)
    {
        return (SqlRow) rowType.getObject(block, position);
    }

    @Override
    protected void writeBuilt(BlockBuilder builder)
    {
        ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> rows.appendTo(rowType, elementBuilder));
    }

    @Override
    protected void clearBuilt()
    {
        rows.clear();
        rowsByKey.clear();
    }
}
