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

import io.trino.parquet.reader.ListColumnReader.BlockPositions;
import io.trino.parquet.reader.StructColumnReader.RowBlockPositions;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.MapType;

import java.util.Optional;

import static io.trino.spi.block.Bitmap.isSet;

/**
 * The nulls of trino-parquet's nested block positions as Trino 483 marks them, a bitmap of the positions that are valid
 * (not null), and the block constructors that take them: the part of {@link NestedBlocks} that differs between Trino
 * releases.
 */
final class NestedPositions
{
    private NestedPositions() {}

    static Block arrayBlock(BlockPositions positions, Block elements)
    {
        int[] offsets = positions.offsets();
        return ArrayBlock.fromElementBlock(offsets.length - 1, positions.valueIsValid(), offsets, elements);
    }

    static Block mapBlock(MapType type, BlockPositions positions, Block keys, Block values)
    {
        return type.createBlockFromKeyValue(positions.valueIsValid(), positions.offsets(), keys, values);
    }

    /** A ROW block of {@code fields}, each with a position for every row, null rows included. */
    static Block rowBlock(RowBlockPositions positions, Block[] fields)
    {
        return RowBlock.fromNotNullSuppressedFieldBlocks(positions.positionsCount(), positions.valueIsValid(), fields);
    }

    static boolean hasNullRows(RowBlockPositions positions)
    {
        return positions.valueIsValid().isPresent();
    }

    static boolean isNullRow(RowBlockPositions positions, int row)
    {
        Optional<long[]> valid = positions.valueIsValid();
        return valid.isPresent() && !isSet(valid.get(), 0, row);
    }
}
