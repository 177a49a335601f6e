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

import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.RowType;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bucket function of UPDATE, DELETE and MERGE, which finds the bucket key inside the row id: the buckets are
 * Paimon Java 1.4.2's ({@code abs(hash(bucket key row) % buckets)}), also when several drivers ask the one function
 * Trino shares among them at the same time, each with pages of its own sizes.
 */
final class TestPaimonBucketFunction
{
    private static final int BUCKETS = 4;
    private static final RowType ROW_ID = RowType.anonymous(List.of(BIGINT, INTEGER));

    @Test
    void bucketOfTheRowIdFieldsFromDriversAtOnce()
            throws Exception
    {
        // the bucket key is the row id's second field
        PaimonBucketFunction function = new PaimonBucketFunction(List.of(new DataType.IntType(false)), List.of(ROW_ID), BUCKETS, false, 0, 0, List.of(1));
        int threads = 4;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> checked = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                // pages of different sizes per thread, so a page's routing columns taken for another page are out of range or wrong
                int positions = 100 + 997 * thread;
                int firstKey = thread * 100_000;
                checked.add(executor.submit(() -> {
                    // Paimon's serializer reuses its row: one per thread
                    InternalRowSerializer paimonKey = new InternalRowSerializer(org.apache.paimon.types.RowType.of(DataTypes.INT()));
                    start.await();
                    int count = 0;
                    for (int page = 0; page < 200; page++) {
                        Page rowIds = new Page(rowIds(firstKey + page, positions));
                        for (int position = 0; position < positions; position++) {
                            int key = firstKey + page + position;
                            assertThat(function.getBucket(rowIds, position)).as("key %s", key).isEqualTo(paimonBucket(paimonKey, key));
                            count++;
                        }
                    }
                    return count;
                }));
            }
            for (Future<Integer> future : checked) {
                assertThat(future.get()).isPositive();
            }
        }
        finally {
            executor.shutdownNow();
        }
    }

    // a row id block of (key * 10, key) for keys first .. first + positions - 1
    private static Block rowIds(int first, int positions)
    {
        BlockBuilder ids = BIGINT.createBlockBuilder(null, positions);
        BlockBuilder keys = INTEGER.createBlockBuilder(null, positions);
        for (int i = 0; i < positions; i++) {
            BIGINT.writeLong(ids, (first + i) * 10L);
            INTEGER.writeLong(keys, first + i);
        }
        return RowBlock.fromFieldBlocks(positions, new Block[] {ids.build(), keys.build()});
    }

    private static int paimonBucket(InternalRowSerializer paimonKey, int key)
    {
        return Math.abs(paimonKey.toBinaryRow(GenericRow.of(key)).hashCode() % BUCKETS);
    }
}
