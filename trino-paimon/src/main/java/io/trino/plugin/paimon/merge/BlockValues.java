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

/**
 * Copies one value, or null, from a block to a builder of the same type, through the block's underlying value
 * block: the one way to copy a value that every supported Trino release offers ({@code Type.appendTo} is gone
 * since 481).
 */
public final class BlockValues
{
    private BlockValues() {}

    public static void appendValue(Block block, int position, BlockBuilder builder)
    {
        builder.append(block.getUnderlyingValueBlock(), block.getUnderlyingValuePosition(position));
    }
}
