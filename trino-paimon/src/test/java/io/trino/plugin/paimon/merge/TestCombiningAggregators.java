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

import io.trino.plugin.paimon.merge.MergeEngineSpec.FieldAggregation;
import io.trino.spi.Page;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.plugin.paimon.merge.TypeValues.objectValue;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The older-input fold ({@code addOlder}, Paimon's {@code aggReversed}) of the combining aggregates, which only
 * partial-update sequence groups use: {@code agg(input, accumulator)}, except collect, which does not swap.
 */
final class TestCombiningAggregators
{
    private static final MapType MAP = new MapType(INTEGER, VARCHAR, new TypeOperators());
    private static final ArrayType ARRAY = new ArrayType(INTEGER);

    @Test
    void mergeMapFoldsAnOlderInputUnderTheAccumulator()
    {
        FieldAggregator aggregator = FieldAggregatorFactory.create("merge_map", FieldAggregation.NONE, MAP, 0, "t");
        aggregator.reset();
        aggregator.add(mapPage(Map.of(1, "new", 2, "b")), 0);
        aggregator.addOlder(mapPage(Map.of(1, "old", 3, "c")), 0);
        assertThat(result(aggregator, MAP)).isEqualTo(Map.of(1, "new", 2, "b", 3, "c"));
    }

    @Test
    void collectDoesNotSwap()
    {
        FieldAggregator aggregator = FieldAggregatorFactory.create("collect", FieldAggregation.NONE, ARRAY, 0, "t");
        aggregator.reset();
        aggregator.add(arrayPage(1, 2), 0);
        aggregator.addOlder(arrayPage(3), 0);
        assertThat(result(aggregator, ARRAY)).isEqualTo(List.of(1, 2, 3));
    }

    @Test
    void collectFoldsOlderInputsInArrivalOrder()
    {
        FieldAggregator aggregator = FieldAggregatorFactory.create("collect", FieldAggregation.NONE, ARRAY, 0, "t");
        aggregator.reset();
        aggregator.addOlder(arrayPage(1), 0);
        aggregator.addOlder(arrayPage(2), 0);
        assertThat(result(aggregator, ARRAY)).isEqualTo(List.of(1, 2));
    }

    private static Object result(FieldAggregator aggregator, Type type)
    {
        Page[] pages = new Page[1];
        int[] positions = new int[1];
        BlockBuilder computed = type.createBlockBuilder(null, 1);
        aggregator.result(pages, positions, 0, computed);
        Block block = pages[0] == OutputPageBuilder.COMPUTED ? computed.build() : pages[0].getBlock(0);
        return objectValue(type, block, positions[0]);
    }

    private static Page mapPage(Map<Integer, String> entries)
    {
        MapBlockBuilder builder = MAP.createBlockBuilder(null, 1);
        builder.buildEntry((keys, values) -> entries.forEach((key, value) -> {
            INTEGER.writeLong(keys, key);
            VARCHAR.writeSlice(values, utf8Slice(value));
        }));
        return new Page(builder.build());
    }

    private static Page arrayPage(int... elements)
    {
        BlockBuilder builder = ARRAY.createBlockBuilder(null, 1);
        ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> {
            for (int element : elements) {
                INTEGER.writeLong(elementBuilder, element);
            }
        });
        return new Page(builder.build());
    }
}
