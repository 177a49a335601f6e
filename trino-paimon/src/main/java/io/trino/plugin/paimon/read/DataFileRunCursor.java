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

import io.trino.plugin.paimon.merge.SortedRun;
import io.trino.plugin.paimon.merge.SortedRunCursor;
import io.trino.spi.Page;

import java.util.List;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * A sorted run read file after file; each file is opened only when the run reaches it. With {@link DeferredValues},
 * the value columns of each page are read only when the merge keeps the page's values (see there).
 */
final class DataFileRunCursor
        implements SortedRunCursor
{
    private final List<PaimonDataFile> files;
    private final Function<PaimonDataFile, DataFilePageReader> openFile;
    private final ReadMetrics metrics;
    private final DeferredValues deferredValues;
    private final WinningRows winningRows;
    private WinningRows.FileRows fileRows;
    private int nextFile;
    private DataFilePageReader reader;
    private PaimonDataFile currentFile;
    private int level;
    private Page page;
    private int position;
    // whether the page's value columns are still to be read, the page with them once read, and whether to read them
    private boolean pageDeferred;
    private Page pageWithValues;
    private boolean keepValues;

    DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics)
    {
        this(run, openFile, metrics, (DeferredValues) null);
    }

    /**
     * @param deferredValues where the run's pages get their values, or null to read every page whole
     */
    DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics, DeferredValues deferredValues)
    {
        this(run, openFile, metrics, deferredValues, null);
    }

    /**
     * A run of a two-pass merge: its pages come with their keys only, and the files and rows of each page are noted in
     * {@code winningRows}, which reads the values of the rows the merge returns and closes the files.
     */
    DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics, WinningRows winningRows)
    {
        this(run, openFile, metrics, null, requireNonNull(winningRows, "winningRows is null"));
    }

    private DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics, DeferredValues deferredValues, WinningRows winningRows)
    {
        this.files = run.files();
        this.openFile = requireNonNull(openFile, "openFile is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.deferredValues = deferredValues;
        this.winningRows = winningRows;
        if (deferredValues != null) {
            deferredValues.add(this);
        }
    }

    @Override
    public boolean advance()
    {
        position++;
        while (page == null || position >= page.getPositionCount()) {
            leavePage();
            Page next = nextPage(deferredValues != null ? deferredValues.channels() : winningRows != null ? winningRows.deferredChannels() : null);
            if (next == null) {
                return false;
            }
            page = next;
            pageDeferred = deferredValues != null && reader.defersChannels();
            position = 0;
        }
        return true;
    }

    @Override
    public boolean onLastRecordOfPage()
    {
        return page != null && position == page.getPositionCount() - 1;
    }

    @Override
    public void keepValues()
    {
        keepValues = true;
    }

    /** The current page with its value columns, read now if they were deferred. */
    Page valuesOfCurrentPage()
    {
        if (!pageDeferred) {
            return page;
        }
        if (pageWithValues == null) {
            pageWithValues = reader.loadDeferred(page);
        }
        return pageWithValues;
    }

    // before the reader moves on: reads the page's values if the merge returns a record of it, else drops it unread;
    // a page of a reader that cannot defer is kept as it is, on the same condition
    private void leavePage()
    {
        if (page != null && deferredValues != null) {
            if (keepValues || pageWithValues != null) {
                deferredValues.pageLeft(page, valuesOfCurrentPage());
            }
            else if (pageDeferred) {
                metrics.valuesUnread(page.getPositionCount());
            }
        }
        page = null;
        pageDeferred = false;
        pageWithValues = null;
        keepValues = false;
    }

    /** The next whole page of the run, for sections read straight through; null at the end. */
    Page nextPage()
    {
        return nextPage(null);
    }

    /**
     * The next whole page of the run, its channels read when the engine asks for them: for sections read straight
     * through to the engine; null at the end. The page is readable until the next call.
     */
    ChannelsOfSourcePage nextSourcePage()
    {
        while (true) {
            if (reader == null && !openNextFile()) {
                return null;
            }
            ChannelsOfSourcePage next = reader.nextSourcePage();
            if (next != null) {
                if (next.getPositionCount() == 0) {
                    continue;
                }
                metrics.recordsRead(next.getPositionCount());
                return next;
            }
            closeReader();
        }
    }

    private boolean openNextFile()
    {
        if (nextFile >= files.size()) {
            return false;
        }
        PaimonDataFile file = files.get(nextFile++);
        reader = openFile.apply(file);
        currentFile = file;
        if (winningRows != null) {
            fileRows = winningRows.fileOpened(reader);
        }
        metrics.fileOpened();
        metrics.rowGroups(reader.rowGroupCount(), reader.rowGroupsRead());
        level = file.level();
        return true;
    }

    private Page nextPage(boolean[] deferred)
    {
        while (true) {
            if (reader == null && !openNextFile()) {
                return null;
            }
            Page next = reader.nextPage(deferred);
            if (next != null) {
                if (next.getPositionCount() == 0) {
                    continue;
                }
                metrics.recordsRead(next.getPositionCount());
                if (fileRows != null && deferred != null) {
                    winningRows.pageRead(next, fileRows, reader.rowNumbers());
                }
                return next;
            }
            closeReader();
        }
    }

    /** The file the run's last page came from. */
    PaimonDataFile currentFile()
    {
        return currentFile;
    }

    @Override
    public Page page()
    {
        return page;
    }

    @Override
    public int position()
    {
        return position;
    }

    @Override
    public int level()
    {
        return level;
    }

    /** Bytes read so far from the file open now; closed files are counted in the metrics. */
    long openFileReadBytes()
    {
        return reader == null ? 0 : reader.readBytes();
    }

    @Override
    public long memoryUsage()
    {
        Page current = pageWithValues != null ? pageWithValues : page;
        long pageBytes = current == null ? 0 : current.getRetainedSizeInBytes();
        return pageBytes + (reader == null ? 0 : reader.memoryUsage());
    }

    @Override
    public void close()
    {
        closeReader();
    }

    private void closeReader()
    {
        if (fileRows != null) {
            // the file stays open for the values of its rows the merge returns; winningRows closes it
            fileRows.finished();
            fileRows = null;
            reader = null;
            return;
        }
        if (reader != null) {
            metrics.add(reader.readBytes(), reader.readTimeNanos());
            reader.close();
            reader = null;
        }
    }
}
