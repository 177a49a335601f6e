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
package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.plugin.paimon.table.TableOptions;

import java.util.List;

/**
 * Whether a bucket's files hold every key at most once with no retractions, so they can be read without merging
 * (merge-semantics §2.1): all above level 0 with no delete rows, and deletion vectors or first-row or a single level;
 * or a single file without delete rows. Files that do not record their delete rows are merged. Such a bucket's
 * records are its rows, so value predicates may prune its row groups and its row count is known before reading.
 */
final class RawConvertible
{
    private RawConvertible() {}

    static boolean isRawConvertible(List<PaimonDataFile> files, TableOptions options)
    {
        boolean noDeleteRows = files.stream().allMatch(file -> file.deleteRowCount().isPresent() && file.deleteRowCount().getAsLong() == 0);
        if (files.size() == 1) {
            return noDeleteRows;
        }
        boolean allAboveLevelZero = files.stream().allMatch(file -> file.level() > 0);
        boolean singleLevel = files.stream().mapToInt(PaimonDataFile::level).distinct().count() == 1;
        return noDeleteRows && allAboveLevelZero
                && (options.deletionVectorsEnabled() || options.mergeEngine() == MergeEngine.FIRST_ROW || singleLevel);
    }
}
