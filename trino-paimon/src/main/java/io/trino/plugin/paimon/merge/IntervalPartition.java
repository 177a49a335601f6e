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

import com.google.common.collect.ImmutableList;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Function;

import static com.google.common.collect.ImmutableList.toImmutableList;

/**
 * Cuts a bucket's files into sections and each section into sorted runs, as Paimon's interval partition does
 * (merge-semantics §2.2): files sorted by (min key, max key); a section ends where the next file starts after
 * every key seen so far; within a section each file joins the run whose last max key is smallest if it starts
 * after it, else opens a new run. Levels play no part. Sections come out in key order.
 */
public final class IntervalPartition
{
    private IntervalPartition() {}

    /**
     * @return the sections in key order
     */
    public static <F, K> List<Section<F>> partition(List<F> files, Function<F, K> minKey, Function<F, K> maxKey, Comparator<K> keyComparator)
    {
        List<F> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparing(minKey, keyComparator).thenComparing(maxKey, keyComparator));

        ImmutableList.Builder<Section<F>> sections = ImmutableList.builder();
        List<F> section = new ArrayList<>();
        K sectionMax = null;
        for (F file : sorted) {
            if (!section.isEmpty() && keyComparator.compare(minKey.apply(file), sectionMax) > 0) {
                sections.add(section(section, minKey, maxKey, keyComparator));
                section = new ArrayList<>();
                sectionMax = null;
            }
            section.add(file);
            if (sectionMax == null || keyComparator.compare(maxKey.apply(file), sectionMax) > 0) {
                sectionMax = maxKey.apply(file);
            }
        }
        if (!section.isEmpty()) {
            sections.add(section(section, minKey, maxKey, keyComparator));
        }
        return sections.build();
    }

    private static <F, K> Section<F> section(List<F> section, Function<F, K> minKey, Function<F, K> maxKey, Comparator<K> keyComparator)
    {
        // runs ordered by the max key of their last file
        PriorityQueue<List<F>> runs = new PriorityQueue<>(Comparator.comparing(run -> maxKey.apply(run.getLast()), keyComparator));
        for (F file : section) {
            List<F> run = runs.peek();
            if (run != null && keyComparator.compare(minKey.apply(file), maxKey.apply(run.getLast())) > 0) {
                runs.poll();
                run.add(file);
                runs.add(run);
            }
            else {
                List<F> newRun = new ArrayList<>();
                newRun.add(file);
                runs.add(newRun);
            }
        }
        return new Section<>(runs.stream().map(SortedRun::new).collect(toImmutableList()));
    }
}
