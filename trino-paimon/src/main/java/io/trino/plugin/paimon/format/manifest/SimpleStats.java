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
package io.trino.plugin.paimon.format.manifest;

import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Min, max and null count per column of a file or manifest (paimon-format.md §6). A null min or max field means
 * unknown, so does an empty null-count list or a null count.
 */
public record SimpleStats(BinaryRow minValues, BinaryRow maxValues, Optional<List<Long>> nullCounts)
{
    public static final SimpleStats EMPTY = new SimpleStats(BinaryRow.EMPTY, BinaryRow.EMPTY, Optional.of(List.of()));

    public SimpleStats
    {
        requireNonNull(minValues, "minValues is null");
        requireNonNull(maxValues, "maxValues is null");
        // null counts may hold nulls (unknown), which Guava's immutable lists refuse
        nullCounts = requireNonNull(nullCounts, "nullCounts is null").map(counts -> Collections.unmodifiableList(new ArrayList<>(counts)));
    }
}
