package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.table.BucketFunction;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Trino's bucket of a row to write: the Paimon bucket of its bucket key (paimon-format.md §8.1), computed on the
 * page of bucket-key columns Trino passes in.
 */
public final class PaimonBucketFunction
        implements io.trino.spi.connector.BucketFunction
{
    private final List<DataType> types;
    private final List<Type> trinoTypes;
    private final int bucketCount;
    private final boolean modFunction;

    public PaimonBucketFunction(List<DataType> types, List<Type> trinoTypes, int bucketCount, boolean modFunction)
    {
        checkArgument(types.size() == trinoTypes.size(), "%s Paimon types, %s Trino types", types.size(), trinoTypes.size());
        this.types = List.copyOf(types);
        this.trinoTypes = List.copyOf(trinoTypes);
        this.bucketCount = bucketCount;
        this.modFunction = modFunction;
    }

    @Override
    public int getBucket(Page page, int position)
    {
        if (modFunction) {
            Object value = BinaryRowValues.value(types.getFirst(), trinoTypes.getFirst(), page.getBlock(0), position);
            return BucketFunction.modBucket(((Number) value).longValue(), bucketCount);
        }
        Block[] blocks = new Block[types.size()];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = page.getBlock(i);
        }
        return BucketFunction.bucket(BinaryRowValues.row(types, trinoTypes, blocks, position), bucketCount);
    }
}
