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

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

final class TestLoserTree
{
    @Test
    void mergesSortedInputsIntoOneSortedSequence()
    {
        Random random = new Random(7);
        for (int inputs = 1; inputs <= 17; inputs++) {
            List<int[]> runs = new ArrayList<>();
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < inputs; i++) {
                int[] run = random.ints(random.nextInt(50), 0, 1000).sorted().toArray();
                runs.add(run);
                for (int value : run) {
                    expected.add(value);
                }
            }
            expected.sort(null);
            assertThat(merge(runs)).as("%s inputs", inputs).isEqualTo(expected);
        }
    }

    @Test
    void tiesGoToTheLowerInput()
    {
        List<int[]> runs = List.of(new int[] {5}, new int[] {5}, new int[] {5});
        int[] heads = new int[3];
        boolean[] exhausted = new boolean[3];
        LoserTree tree = new LoserTree(3, exhausted, (left, right) -> Integer.compare(runs.get(left)[heads[left]], runs.get(right)[heads[right]]));
        List<Integer> order = new ArrayList<>();
        while (!tree.isEmpty()) {
            int winner = tree.winner();
            order.add(winner);
            heads[winner]++;
            tree.winnerAdvanced(heads[winner] >= runs.get(winner).length);
        }
        assertThat(order).containsExactly(0, 1, 2);
    }

    private static List<Integer> merge(List<int[]> runs)
    {
        int[] heads = new int[runs.size()];
        boolean[] exhausted = new boolean[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            exhausted[i] = runs.get(i).length == 0;
        }
        LoserTree tree = new LoserTree(runs.size(), exhausted, (left, right) -> Integer.compare(runs.get(left)[heads[left]], runs.get(right)[heads[right]]));
        List<Integer> merged = new ArrayList<>();
        while (!tree.isEmpty()) {
            int winner = tree.winner();
            merged.add(runs.get(winner)[heads[winner]]);
            heads[winner]++;
            tree.winnerAdvanced(heads[winner] >= runs.get(winner).length);
        }
        return merged;
    }
}
