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

import io.airlift.slice.Slices;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static java.util.Objects.requireNonNull;

/**
 * {@code hll_sketch}, {@code theta_sketch}, {@code rbm32} and {@code rbm64} (merge-semantics §7.2): nulls are skipped,
 * two values are replaced by their {@link BinaryUnion}. None can retract.
 */
final class BinaryUnionAggregator
        extends CombiningAggregator
{
    private final BinaryUnion union;
    private final String function;
    private byte[] value;

    BinaryUnionAggregator(BinaryUnion union, String function, int channel, String context)
    {
        super(VARBINARY, channel, context);
        this.union = requireNonNull(union, "union is null");
        this.function = requireNonNull(function, "function is null");
    }

    @Override
    protected void combine(Page page, Block block, int position)
    {
        if (settledByNulls(page, block, position)) {
            return;
        }
        byte[] accumulator = isReference() ? VARBINARY.getSlice(referencedBlock(), referencedPosition()).getBytes() : value;
        byte[] input = VARBINARY.getSlice(block, position).getBytes();
        try {
            value = union.union(accumulator, input);
        }
        catch (Exception e) {
            throw new TrinoException(PAIMON_MERGE_ERROR, "%s: cannot merge %s values: %s".formatted(context, function, e.getMessage()), e);
        }
        markBuilt();
    }

    @Override
    public void retract(Page page, int position)
    {
        throw FieldAggregator.retractUnsupported(context, function);
    }

    @Override
    protected void writeBuilt(BlockBuilder builder)
    {
        VARBINARY.writeSlice(builder, Slices.wrappedBuffer(value));
    }

    @Override
    protected void clearBuilt()
    {
        value = null;
    }
}
