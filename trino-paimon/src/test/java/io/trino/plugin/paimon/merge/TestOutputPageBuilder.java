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

import io.trino.spi.Page;
import io.trino.spi.block.BlockBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rows a merge collects keep their source pages alive after the runs have moved on: the builder's memory counts
 * each of those pages once, as long as rows refer to it.
 */
final class TestOutputPageBuilder
{
    @Test
    void retainedSizeCountsEachSourcePageOnce()
    {
        Page first = page(100);
        Page second = page(2_000);
        Page third = page(300);
        OutputPageBuilder builder = new OutputPageBuilder(List.of(BIGINT), new int[] {0}, 16);
        long empty = builder.retainedSizeInBytes();
        assertThat(empty).isPositive();

        builder.add(first, 0);
        builder.add(first, 1);
        builder.add(second, 0);
        builder.add(first, 2);
        assertThat(builder.retainedSizeInBytes()).isEqualTo(empty + first.getRetainedSizeInBytes() + second.getRetainedSizeInBytes());

        // a row combined from several records refers to each of their pages
        builder.addColumns(new Page[] {third}, new int[] {5});
        assertThat(builder.retainedSizeInBytes()).isEqualTo(empty + first.getRetainedSizeInBytes() + second.getRetainedSizeInBytes() + third.getRetainedSizeInBytes());

        List<Page> built = builder.build();
        assertThat(built.stream().mapToInt(Page::getPositionCount).sum()).isEqualTo(5);
        assertThat(builder.retainedSizeInBytes()).isEqualTo(empty);
    }

    private static Page page(int positions)
    {
        BlockBuilder values = BIGINT.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            BIGINT.writeLong(values, position);
        }
        return new Page(values.build());
    }
}
