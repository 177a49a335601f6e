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
package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.table.BucketFunction;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Trino's bucket of a row to write, computed on the page of routing columns Trino passes in: for a fixed-bucket table
 * the Paimon bucket of its bucket key (paimon-format.md §8.1); for a dynamic-bucket table the assigner channel of its
 * partition and trimmed primary key ({@link DynamicBucketAssigner#channel}).
 */
public final class PaimonBucketFunction
        implements io.trino.spi.connector.BucketFunction
{
    private final List<DataType> types;
    private final List<Type> trinoTypes;
    private final int bucketCount;
    private final boolean modFunction;
    private final int partitionKeyCount;
    private final int assigners;
    private final int[] rowIdFields;
    // Trino shares one bucket function among the drivers of a pipeline, so the routing columns taken out of the last
    // row-id block are kept as one immutable pair, read once per call: two fields written by different threads could
    // pair one page's row ids with another page's routing columns
    private volatile RowIdRouting lastRowIdRouting;

    public PaimonBucketFunction(List<DataType> types, List<Type> trinoTypes, int bucketCount, boolean modFunction)
    {
        this(types, trinoTypes, bucketCount, modFunction, 0, 0, List.of());
    }

    /**
     * @param partitionKeyCount for a dynamic-bucket table, how many of the leading columns are partition keys
     * @param assigners for a dynamic-bucket table, the assigners per partition; 0 for a fixed-bucket table
     * @param rowIdFields when not empty, the page has one channel, the row id, and these are the positions of the
     * routing columns among its fields
     */
    public PaimonBucketFunction(List<DataType> types, List<Type> trinoTypes, int bucketCount, boolean modFunction, int partitionKeyCount, int assigners, List<Integer> rowIdFields)
    {
        this.rowIdFields = rowIdFields.stream().mapToInt(Integer::intValue).toArray();
        if (!rowIdFields.isEmpty()) {
            checkArgument(trinoTypes.size() == 1 && trinoTypes.getFirst() instanceof RowType, "the row id is not a single ROW channel: %s", trinoTypes);
            List<Type> fieldTypes = trinoTypes.getFirst().getTypeParameters();
            trinoTypes = rowIdFields.stream().map(fieldTypes::get).toList();
        }
        checkArgument(types.size() == trinoTypes.size(), "%s Paimon types, %s Trino types", types.size(), trinoTypes.size());
        this.types = List.copyOf(types);
        this.trinoTypes = List.copyOf(trinoTypes);
        this.bucketCount = bucketCount;
        this.modFunction = modFunction;
        this.partitionKeyCount = partitionKeyCount;
        this.assigners = assigners;
    }

    @Override
    public int getBucket(Page page, int position)
    {
        if (rowIdFields.length > 0) {
            // Trino asks row by row of one page: the field blocks of its row-id block are taken out once per page
            Block rowIds = page.getBlock(0);
            RowIdRouting routing = lastRowIdRouting;
            if (routing == null || routing.rowIds() != rowIds) {
                List<Block> fields = RowBlock.getRowFieldsFromBlock(rowIds);
                Block[] routingBlocks = new Block[rowIdFields.length];
                for (int i = 0; i < routingBlocks.length; i++) {
                    routingBlocks[i] = fields.get(rowIdFields[i]);
                }
                routing = new RowIdRouting(rowIds, new Page(rowIds.getPositionCount(), routingBlocks));
                lastRowIdRouting = routing;
            }
            page = routing.columns();
        }
        if (assigners > 0) {
            BinaryRow partition = partitionKeyCount == 0 ? BinaryRow.EMPTY : row(page, position, 0, partitionKeyCount);
            int partitionHash = partition.paimonHashCode();
            int keyHash = row(page, position, partitionKeyCount, types.size()).paimonHashCode();
            return DynamicBucketAssigner.channel(partitionHash, keyHash, bucketCount, assigners);
        }
        if (modFunction) {
            Object value = BinaryRowValues.value(types.getFirst(), trinoTypes.getFirst(), page.getBlock(0), position);
            return BucketFunction.modBucket(((Number) value).longValue(), bucketCount);
        }
        return BucketFunction.bucket(row(page, position, 0, types.size()), bucketCount);
    }

    // the binary row of the routing columns from (inclusive) to (exclusive)
    private BinaryRow row(Page page, int position, int from, int to)
    {
        Block[] blocks = new Block[to - from];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = page.getBlock(from + i);
        }
        return BinaryRowValues.row(types.subList(from, to), trinoTypes.subList(from, to), blocks, position);
    }

    private record RowIdRouting(Block rowIds, Page columns) {}
}
