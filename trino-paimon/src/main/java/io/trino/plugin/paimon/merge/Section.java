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

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Sorted runs whose key ranges overlap one another and no other section's, as cut by {@link IntervalPartition}: a
 * section is merged on its own; a section of one run needs no merge.
 *
 * @param <F> the file description
 */
public record Section<F>(List<SortedRun<F>> runs)
{
    public Section
    {
        runs = ImmutableList.copyOf(runs);
        checkArgument(!runs.isEmpty(), "a section has sorted runs");
    }

    public static <F> Section<F> of(SortedRun<F> run)
    {
        return new Section<>(ImmutableList.of(run));
    }
}
