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

import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;

import java.util.Arrays;

import static io.trino.plugin.paimon.merge.BlockValues.appendValue;

/** An ordered list of references to values at block positions, the elements of a collection being built. */
final class ValueList
{
    private Block[] blocks = new Block[8];
    private int[] positions = new int[8];
    private int size;

    void add(Block block, int position)
    {
        if (size == blocks.length) {
            blocks = Arrays.copyOf(blocks, size * 2);
            positions = Arrays.copyOf(positions, size * 2);
        }
        blocks[size] = block;
        positions[size] = position;
        size++;
    }

    /** Adds every position of the block. */
    void addAll(Block block)
    {
        for (int i = 0; i < block.getPositionCount(); i++) {
            add(block, i);
        }
    }

    void set(int index, Block block, int position)
    {
        blocks[index] = block;
        positions[index] = position;
    }

    Block block(int index)
    {
        return blocks[index];
    }

    int position(int index)
    {
        return positions[index];
    }

    int size()
    {
        return size;
    }

    void clear()
    {
        Arrays.fill(blocks, 0, size, null);
        size = 0;
    }

    void appendTo(Type type, BlockBuilder builder)
    {
        for (int i = 0; i < size; i++) {
            appendValue(blocks[i], positions[i], builder);
        }
    }
}
