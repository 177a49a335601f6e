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
 * Files whose key ranges do not overlap, in key order: read one after the other they yield each key at most once,
 * in key order (merge-semantics §2.2).
 *
 * @param <F> the file description
 */
public record SortedRun<F>(List<F> files)
{
    public SortedRun
    {
        files = ImmutableList.copyOf(files);
        checkArgument(!files.isEmpty(), "a sorted run has files");
    }

    public static <F> SortedRun<F> of(F file)
    {
        return new SortedRun<>(ImmutableList.of(file));
    }
}
