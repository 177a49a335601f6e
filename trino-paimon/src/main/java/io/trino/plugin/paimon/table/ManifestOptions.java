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

import static io.trino.plugin.paimon.table.TableOptions.integerOption;
import static io.trino.plugin.paimon.table.TableOptions.memorySizeOption;

/**
 * The options that bound how many manifests a snapshot lists, with Paimon's defaults (CoreOptions):
 * {@code manifest.target-file-size} (8 MB), {@code manifest.merge-min-count} (30) and
 * {@code manifest.full-compaction-threshold-size} (16 MB).
 */
public record ManifestOptions(long targetFileSize, int mergeMinCount, long fullCompactionThresholdSize)
{
    public static ManifestOptions of(String tableName, Map<String, String> options)
    {
        return new ManifestOptions(
                memorySizeOption(tableName, options, "manifest.target-file-size", "8 mb"),
                integerOption(tableName, options, "manifest.merge-min-count", 30),
                memorySizeOption(tableName, options, "manifest.full-compaction-threshold-size", "16 mb"));
    }
}
