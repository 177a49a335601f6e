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

import java.util.List;

/**
 * The values a merge function computes (a sum, a joined list) rather than picks from an input record, a block
 * builder per output column. Rows refer to them with {@link OutputPageBuilder#COMPUTED} and their position.
 */
final class ComputedValues
{
    private final Type[] types;
    private final BlockBuilder[] builders;

    ComputedValues(List<Type> types)
    {
        this.types = types.toArray(Type[]::new);
        this.builders = new BlockBuilder[this.types.length];
        newBuilders();
    }

    BlockBuilder column(int column)
    {
        return builders[column];
    }

    /** The values computed since the last call; positions start again at 0 afterwards. */
    Block[] build()
    {
        Block[] blocks = new Block[builders.length];
        for (int column = 0; column < builders.length; column++) {
            blocks[column] = builders[column].build();
        }
        newBuilders();
        return blocks;
    }

    private void newBuilders()
    {
        for (int column = 0; column < types.length; column++) {
            builders[column] = types[column].createBlockBuilder(null, 16);
        }
    }
}
