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
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.trino.plugin.paimon.merge.BlockValues.appendValue;

/**
 * {@code nested_partial_update} (Paimon 1.4) on a nested table {@code ARRAY<ROW>} with a {@code nested-key}: the
 * rows of the accumulator, then of the input, are grouped by key, and each group becomes one row whose every field
 * is the last non-null value of that field in the group. Null rows are dropped. It cannot retract.
 *
 * <p>Paimon's row order is unspecified (a hash map); here a key stays where it first appeared.
 */
final class NestedPartialUpdateAggregator
        extends CombiningAggregator
{
    private final ArrayType arrayType;
    private final RowType rowType;
    private final List<Type> fieldTypes;
    private final NestedKeyProjection nestedKey;
    private final Map<NestedKeyProjection.Key, Integer> rowsByKey = new HashMap<>();
    // per merged row, per field: the block and position of its value, or a null block
    private final List<Block[]> fieldBlocks = new ArrayList<>();
    private final List<int[]> fieldPositions = new ArrayList<>();

    NestedPartialUpdateAggregator(ArrayType type, int channel, String context, NestedKeyProjection nestedKey)
    {
        super(type, channel, context);
        this.arrayType = type;
        this.rowType = (RowType) type.getElementType();
        this.fieldTypes = rowType.getTypeParameters();
        this.nestedKey = nestedKey;
    }

    @Override
    protected void combine(Page page, Block block, int position)
    {
        if (settledByNulls(page, block, position)) {
            return;
        }
        if (isReference()) {
            Block accumulator = arrayType.getObject(referencedBlock(), referencedPosition());
            markBuilt();
            clearBuilt();
            update(accumulator);
        }
        update(arrayType.getObject(block, position));
    }

    private void update(Block rows)
    {
        for (int i = 0; i < rows.getPositionCount(); i++) {
            if (rows.isNull(i)) {
                continue;
            }
            SqlRow row = (SqlRow) rowType.getObject(rows, i);
            Integer index = rowsByKey.putIfAbsent(nestedKey.keyOf(row), fieldBlocks.size());
            if (index == null) {
                index = fieldBlocks.size();
                fieldBlocks.add(new Block[fieldTypes.size()]);
                fieldPositions.add(new int[fieldTypes.size()]);
            }
            Block[] blocks = fieldBlocks.get(index);
            int[] positions = fieldPositions.get(index);
            for (int field = 0; field < blocks.length; field++) {
                Block fieldBlock = row.getRawFieldBlock(field);
                if (!fieldBlock.isNull(row.getRawIndex())) {
                    blocks[field] = fieldBlock;
                    positions[field] = row.getRawIndex();
                }
            }
        }
    }

    @Override
    public void retract(Page page, int position)
    {
        throw FieldAggregator.retractUnsupported(context, "nested_partial_update");
    }

    @Override
    protected void writeBuilt(BlockBuilder builder)
    {
        ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> {
            for (int row = 0; row < fieldBlocks.size(); row++) {
                Block[] blocks = fieldBlocks.get(row);
                int[] positions = fieldPositions.get(row);
                ((RowBlockBuilder) elementBuilder).buildEntry(fieldBuilders -> {
                    for (int field = 0; field < blocks.length; field++) {
                        if (blocks[field] == null) {
                            fieldBuilders.get(field).appendNull();
                        }
                        else {
                            appendValue(blocks[field], positions[field], fieldBuilders.get(field));
                        }
                    }
                });
            }
        });
    }

    @Override
    protected void clearBuilt()
    {
        rowsByKey.clear();
        fieldBlocks.clear();
        fieldPositions.clear();
    }
}
