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
import static io.trino.plugin.paimon.table.TableOptions.memorySizeOption;

/**
 * The options of an append table (no primary key) that shape its compaction, with Paimon's defaults (CoreOptions):
 * {@code compaction.min.file-num} (5), {@code target-file-size} (256 MB for append tables), the size below which a
 * file joins a compaction (7/10 of the target, Paimon's {@code compactionFileSize}), {@code source.split.open-file-cost}
 * (4 MB, which Paimon's coordinator adds to each file's size when packing a bucket-unaware partition),
 * {@code compaction.force-rewrite-all-files} (false), {@code write-only} (false) and {@code clustering.incremental}
 * (false: Paimon's incremental clustering, which compacts by clustering columns and levels instead).
 */
public record AppendCompactionOptions(int minFileNum, long targetFileSize, long openFileCost, boolean forceRewriteAllFiles, boolean writeOnly, boolean incrementalClustering)
{
    public static AppendCompactionOptions of(String tableName, Map<String, String> options)
    {
        return new AppendCompactionOptions(
                integerOption(tableName, options, "compaction.min.file-num", 5),
                memorySizeOption(tableName, options, "target-file-size", "256 mb"),
                memorySizeOption(tableName, options, "source.split.open-file-cost", "4 mb"),
                booleanOption(tableName, options, "compaction.force-rewrite-all-files", false),
                booleanOption(tableName, options, "write-only", false),
                booleanOption(tableName, options, "clustering.incremental", false));
    }

    /** Files smaller than this are small: they join compactions, larger ones are left as they are. */
    public long compactionFileSize()
    {
        return targetFileSize / 10 * 7;
    }
}
