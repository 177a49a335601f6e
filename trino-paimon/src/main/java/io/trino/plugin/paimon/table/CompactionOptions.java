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
package io.trino.plugin.paimon.table;

import java.util.Map;

import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.integerOption;

/**
 * The options of a primary-key table that shape its compaction, with Paimon's defaults (CoreOptions):
 * {@code num-sorted-run.compaction-trigger} (5), {@code num-levels} (the trigger + 1),
 * {@code compaction.max-size-amplification-percent} (200), {@code compaction.size-ratio} (1) and {@code write-only}
 * (false: writers compact as they write).
 */
public record CompactionOptions(int sortedRunCompactionTrigger, int numLevels, int maxSizeAmplificationPercent, int sizeRatio, boolean writeOnly)
{
    public static CompactionOptions of(String tableName, Map<String, String> options)
    {
        int trigger = integerOption(tableName, options, "num-sorted-run.compaction-trigger", 5);
        return new CompactionOptions(
                trigger,
                integerOption(tableName, options, "num-levels", trigger + 1),
                integerOption(tableName, options, "compaction.max-size-amplification-percent", 200),
                integerOption(tableName, options, "compaction.size-ratio", 1),
                booleanOption(tableName, options, "write-only", false));
    }

    /** The highest level, where a full compaction writes. */
    public int maxLevel()
    {
        return numLevels - 1;
    }
}
