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
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.merge.TestRunHeads.randomCompositePage;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys read out of their pages compare as {@link RecordComparator#compareKeys} compares them on the blocks, with and
 * without nulls, for one to three columns and for columns of narrow types, and the gallop over a page of ascending
 * keys finds what a scan from the start finds.
 */
final class TestPageKeys
{
    @Test
    void keysCompareAsOnTheBlocks()
    {
        Random random = new Random(31);
        List<List<Type>> shapes = List.of(List.of(BIGINT), List.of(BIGINT, INTEGER), List.of(BIGINT, INTEGER, DATE), List.of(SMALLINT, TINYINT));
        for (List<Type> keyTypes : shapes) {
            RecordComparator comparator = comparator(keyTypes);
            for (boolean withNulls : new boolean[] {false, true}) {
                Page left = randomCompositePage(keyTypes, withNulls, random);
                Page right = randomCompositePage(keyTypes, withNulls, random);
                PageKeys leftKeys = keys(comparator, left);
                PageKeys rightKeys = keys(comparator, right);
                int ties = 0;
                for (int leftPosition = 0; leftPosition < left.getPositionCount(); leftPosition++) {
                    for (int rightPosition = 0; rightPosition < right.getPositionCount(); rightPosition++) {
                        int expected = Integer.signum(comparator.compareKeys(left, leftPosition, right, rightPosition));
                        ties += expected == 0 ? 1 : 0;
                        assertThat(Integer.signum(leftKeys.compare(leftPosition, rightKeys, rightPosition)))
                                .as("%s keys at %s and %s", keyTypes, leftPosition, rightPosition)
                                .isEqualTo(expected);
                    }
                }
                assertThat(ties).isPositive();
            }
        }
    }

    @Test
    void gallopFindsTheFirstKeyNotBelow()
    {
        Random random = new Random(32);
        List<Type> keyTypes = List.of(BIGINT, INTEGER);
        RecordComparator comparator = comparator(keyTypes);
        for (boolean withNulls : new boolean[] {false, true}) {
            Page unsorted = randomCompositePage(keyTypes, withNulls, random);
            int[] order = IntStream.range(0, unsorted.getPositionCount()).boxed()
                    .sorted((left, right) -> comparator.compareKeys(unsorted, left, unsorted, right))
                    .mapToInt(Integer::intValue)
                    .toArray();
            Page sorted = unsorted.getPositions(order, 0, order.length);
            Page targets = randomCompositePage(keyTypes, withNulls, random);
            PageKeys sortedKeys = keys(comparator, sorted);
            PageKeys targetKeys = keys(comparator, targets);
            int count = sorted.getPositionCount();
            for (int target = 0; target < targets.getPositionCount(); target++) {
                for (int from = 0; from <= count; from++) {
                    int expected = from;
                    while (expected < count && comparator.compareKeys(sorted, expected, targets, target) < 0) {
                        expected++;
                    }
                    assertThat(sortedKeys.firstNotBelow(from, count, targetKeys, target)).as("from %s to key %s", from, target).isEqualTo(expected);
                }
            }
        }
    }

    private static RecordComparator comparator(List<Type> keyTypes)
    {
        KeyValueLayout layout = new KeyValueLayout(keyTypes.size(), new int[0], false, new int[0]);
        return new RecordComparator(layout, keyTypes, List.of());
    }

    private static PageKeys keys(RecordComparator comparator, Page page)
    {
        PageKeys keys = new PageKeys(comparator);
        keys.load(page);
        return keys;
    }
}
