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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.index.DeletionVectorIndexFile;
import io.trino.spi.Page;
import org.roaringbitmap.RoaringBitmap;

import java.util.function.IntToLongFunction;

/**
 * A data file's deletion vector, decoded by {@link DeletionVectorIndexFile}, applied to the pages read from the file:
 * bit i set means row i of the data file is deleted.
 */
public final class DeletionVectors
{
    private DeletionVectors() {}

    public static RoaringBitmap read(TrinoFileSystem fileSystem, PaimonDataFile.DeletionVectorReference reference)
    {
        return DeletionVectorIndexFile.read(fileSystem, Location.of(reference.indexFilePath()), reference.offset(), reference.length());
    }

    /**
     * The rows of a page that the deletion vector does not mark, given each row's position in its file; the page
     * itself when none is marked, and a page of no rows when all are.
     */
    static Page withoutDeletedRows(Page page, RoaringBitmap deletedRows, IntToLongFunction rowNumber)
    {
        int positions = page.getPositionCount();
        int[] kept = new int[positions];
        int keptCount = keptPositions(positions, deletedRows, rowNumber, kept);
        if (keptCount == positions) {
            return page;
        }
        return page.getPositions(kept, 0, keptCount);
    }

    /** Writes into {@code kept} the positions of the rows the deletion vector does not mark, and returns their count. */
    static int keptPositions(int positions, RoaringBitmap deletedRows, IntToLongFunction rowNumber, int[] kept)
    {
        int keptCount = 0;
        for (int position = 0; position < positions; position++) {
            if (!deletedRows.contains((int) rowNumber.applyAsLong(position))) {
                kept[keptCount++] = position;
            }
        }
        return keptCount;
    }
}
