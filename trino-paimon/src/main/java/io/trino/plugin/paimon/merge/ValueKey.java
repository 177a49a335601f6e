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

import static java.util.Objects.requireNonNull;

/** A value at a block position as a hash key, equal to another under the given {@link ValueEquality}. */
record ValueKey(Block block, int position, ValueEquality equality)
{
    ValueKey
    {
        requireNonNull(block, "block is null");
        requireNonNull(equality, "equality is null");
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof ValueKey that && equality.equal(block, position, that.block, that.position);
    }

    @Override
    public int hashCode()
    {
        return equality.hash(block, position);
    }
}
