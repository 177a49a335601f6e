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

import io.trino.spi.Page;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The value columns of a merged section's pages, read late. Each run's pages come with their keys, sequence numbers
 * and row kinds read and their value columns left unread ({@link DataFilePageReader#nextPage(boolean[])}); a run reads
 * a page's values before it moves past the page only if the merge returns one of its records
 * ({@link io.trino.plugin.paimon.merge.SortedRunCursor#keepValues()}). With clustered updates whole pages of older
 * runs lose the merge and are never decoded beyond their keys.
 * <p>
 * Merged rows refer to the key pages; when the output is built, {@link #valuesOf} gives each such page with its
 * values: the page a run is still on is read then, and a page a run has left is the one it read on leaving.
 */
final class DeferredValues
{
    private final boolean[] channels;
    private final List<DataFileRunCursor> runs = new ArrayList<>();
    // pages the runs have left since the output was last built, with their values read
    private final Map<Page, Page> leftPages = new IdentityHashMap<>();

    /**
     * @param channels the channels left unread until asked for
     */
    DeferredValues(boolean[] channels)
    {
        this.channels = requireNonNull(channels, "channels is null").clone();
    }

    boolean[] channels()
    {
        return channels;
    }

    void add(DataFileRunCursor run)
    {
        runs.add(run);
    }

    void pageLeft(Page page, Page withValues)
    {
        leftPages.put(page, withValues);
    }

    /** The page with its values read. */
    Page valuesOf(Page page)
    {
        Page left = leftPages.get(page);
        if (left != null) {
            return left;
        }
        for (DataFileRunCursor run : runs) {
            if (run.page() == page) {
                return run.valuesOfCurrentPage();
            }
        }
        // a run left this page without its values: the merge returned a record it had not said it would
        throw new IllegalStateException("The values of a merged record's page were not read");
    }

    /** Called once the output is built: no merged row refers to the pages left before. */
    void outputBuilt()
    {
        leftPages.clear();
    }
}
