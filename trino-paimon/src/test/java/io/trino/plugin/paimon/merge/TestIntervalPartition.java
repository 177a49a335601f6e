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

import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

final class TestIntervalPartition
{
    private record File(String name, int min, int max) {}

    @Test
    void cutsSectionsWhereKeyRangesStopOverlapping()
    {
        File a = new File("a", 1, 10);
        File b = new File("b", 5, 15);
        File c = new File("c", 16, 20);
        File d = new File("d", 12, 14);
        File e = new File("e", 30, 40);
        List<Section<File>> sections = partition(List.of(e, d, c, b, a));
        // [1,10] and [5,15] overlap and [12,14] falls inside them: one section, where [12,14] follows [1,10] in its
        // run; [16,20] starts after every key so far (15), so it is a section of its own, as is [30,40]
        assertThat(sections).hasSize(3);
        assertThat(sections.get(0).runs()).containsExactlyInAnyOrder(run(a, d), run(b));
        assertThat(sections.get(1).runs()).containsExactly(run(c));
        assertThat(sections.get(2).runs()).containsExactly(run(e));
    }

    @Test
    void touchingRangesOverlap()
    {
        // a key equal to another file's max key must be merged with it
        File a = new File("a", 1, 10);
        File b = new File("b", 10, 20);
        assertThat(partition(List.of(a, b))).containsExactly(new Section<>(List.of(run(a), run(b))));
    }

    @Test
    void runsNeverOverlapAndSectionsAreDisjoint()
    {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            List<File> files = random.ints(random.nextInt(30) + 1, 0, 500)
                    .mapToObj(start -> new File("f" + start, start, start + random.nextInt(60)))
                    .toList();
            List<Section<File>> sections = partition(files);
            int previousMax = Integer.MIN_VALUE;
            int total = 0;
            for (Section<File> section : sections) {
                int sectionMin = section.runs().stream().flatMap(run -> run.files().stream()).mapToInt(File::min).min().orElseThrow();
                int sectionMax = section.runs().stream().flatMap(run -> run.files().stream()).mapToInt(File::max).max().orElseThrow();
                assertThat(sectionMin).isGreaterThan(previousMax);
                previousMax = sectionMax;
                for (SortedRun<File> run : section.runs()) {
                    List<File> runFiles = run.files();
                    for (int i = 1; i < runFiles.size(); i++) {
                        assertThat(runFiles.get(i).min()).isGreaterThan(runFiles.get(i - 1).max());
                    }
                    total += runFiles.size();
                }
            }
            assertThat(total).isEqualTo(files.size());
        }
    }

    private static List<Section<File>> partition(List<File> files)
    {
        return IntervalPartition.partition(files, File::min, File::max, Comparator.naturalOrder());
    }

    private static SortedRun<File> run(File... files)
    {
        return new SortedRun<>(List.of(files));
    }
}
