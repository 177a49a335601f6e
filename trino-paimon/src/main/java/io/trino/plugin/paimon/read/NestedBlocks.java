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

import io.trino.parquet.GroupField;
import io.trino.parquet.reader.ColumnChunk;
import io.trino.parquet.reader.ListColumnReader.BlockPositions;
import io.trino.parquet.reader.StructColumnReader.RowBlockPositions;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.MapType;
import io.trino.spi.type.Type;

import java.util.List;

import static io.trino.parquet.reader.ListColumnReader.calculateCollectionOffsets;
import static io.trino.parquet.reader.StructColumnReader.calculateStructOffsets;
import static io.trino.plugin.paimon.read.NestedPositions.arrayBlock;
import static io.trino.plugin.paimon.read.NestedPositions.hasNullRows;
import static io.trino.plugin.paimon.read.NestedPositions.isNullRow;
import static io.trino.plugin.paimon.read.NestedPositions.mapBlock;
import static io.trino.plugin.paimon.read.NestedPositions.rowBlock;

/**
 * ARRAY, MAP and ROW blocks of a Parquet column built from the blocks read for its children and the definition and
 * repetition levels of a column chunk under it (trino-parquet's public level arithmetic). How the positions mark their
 * nulls, and so the block constructors that take them, differ between Trino releases: {@link NestedPositions}.
 */
final class NestedBlocks
{
    private NestedBlocks() {}

    static Block array(GroupField field, ColumnChunk elements)
    {
        BlockPositions positions = calculateCollectionOffsets(field, elements.getDefinitionLevels(), elements.getRepetitionLevels());
        return arrayBlock(positions, elements.getBlock());
    }

    static Block map(GroupField field, ColumnChunk keys, Block values)
    {
        BlockPositions positions = calculateCollectionOffsets(field, keys.getDefinitionLevels(), keys.getRepetitionLevels());
        return mapBlock((MapType) field.getType(), positions, keys.getBlock(), values);
    }

    /**
     * @param levels the column chunk of any of the row's fields read: its levels tell which rows are null
     * @param fields per field of the row type, its block, with a position for each row that is not null; null for a
     * field the file lacks
     */
    static Block row(GroupField field, ColumnChunk levels, Block[] fields)
    {
        RowBlockPositions positions = calculateStructOffsets(field, levels.getDefinitionLevels(), levels.getRepetitionLevels());
        int rows = positions.positionsCount();
        List<Type> types = field.getType().getTypeParameters();
        Block[] blocks = new Block[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (fields[i] == null) {
                blocks[i] = RunLengthEncodedBlock.create(types.get(i), null, rows);
            }
            else if (hasNullRows(positions)) {
                blocks[i] = withNullRows(fields[i], positions);
            }
            else {
                blocks[i] = fields[i];
            }
        }
        return rowBlock(positions, blocks);
    }

    // a field's block with a position for every row: a null row takes a null of the field (one the block has, or one
    // appended to it)
    private static Block withNullRows(Block field, RowBlockPositions positions)
    {
        int nullPosition = -1;
        if (field.mayHaveNull()) {
            for (int position = 0; position < field.getPositionCount(); position++) {
                if (field.isNull(position)) {
                    nullPosition = position;
                    break;
                }
            }
        }
        Block values = field;
        if (nullPosition < 0) {
            nullPosition = field.getPositionCount();
            values = field.copyWithAppendedNull();
        }
        int rows = positions.positionsCount();
        int[] ids = new int[rows];
        int next = 0;
        for (int row = 0; row < rows; row++) {
            ids[row] = isNullRow(positions, row) ? nullPosition : next++;
        }
        return DictionaryBlock.create(rows, values, ids);
    }
}
