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
import org.roaringbitmap.RoaringBitmap;

import static java.util.Objects.requireNonNull;

/**
 * A data file read for only some of its rows, given by their positions in the file: the file is read whole, without
 * its deletion vector (the selected rows are live ones), so the position of a row is the count of rows before it.
 */
final class SelectedRowsPageReader
        implements DataFilePageReader
{
    private final DataFilePageReader file;
    private final RoaringBitmap selected;
    private long position;

    SelectedRowsPageReader(DataFilePageReader file, RoaringBitmap selected)
    {
        this.file = requireNonNull(file, "file is null");
        this.selected = requireNonNull(selected, "selected is null");
    }

    @Override
    public Page nextPage()
    {
        Page page = file.nextPage();
        if (page == null) {
            return null;
        }
        int positions = page.getPositionCount();
        int[] kept = new int[positions];
        int keptCount = 0;
        for (int i = 0; i < positions; i++) {
            if (selected.contains((int) (position + i))) {
                kept[keptCount++] = i;
            }
        }
        position += positions;
        return keptCount == positions ? page : page.getPositions(kept, 0, keptCount);
    }

    @Override
    public int rowGroupCount()
    {
        return file.rowGroupCount();
    }

    @Override
    public int rowGroupsRead()
    {
        return file.rowGroupsRead();
    }

    @Override
    public long memoryUsage()
    {
        return file.memoryUsage();
    }

    @Override
    public long readBytes()
    {
        return file.readBytes();
    }

    @Override
    public long readTimeNanos()
    {
        return file.readTimeNanos();
    }

    @Override
    public void close()
    {
        file.close();
    }
}
