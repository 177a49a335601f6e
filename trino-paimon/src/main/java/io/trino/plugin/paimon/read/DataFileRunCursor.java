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
 * A sorted run read file after file; each file is opened only when the run reaches it. A merge reads it record by
 * record ({@link #advance()}) or page by page ({@link #nextSourcePage()}).
 */
final class DataFileRunCursor
        implements SortedRunCursor
{
    private final List<PaimonDataFile> files;
    private final Function<PaimonDataFile, DataFilePageReader> openFile;
    private final ReadMetrics metrics;
    private final WinningRows winningRows;
    private WinningRows.FileRows fileRows;
    private int nextFile;
    private DataFilePageReader reader;
    private PaimonDataFile currentFile;
    private int level;
    private Page page;
    private int position;

    DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics)
    {
        this(run, openFile, metrics, null);
    }

    /**
     * A run of a two-pass merge: its pages come with their keys only, and the files and rows of each page are noted in
     * {@code winningRows}, which reads the values of the rows the merge returns and closes the files.
     */
    DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics, WinningRows winningRows)
    {
        this.files = run.files();
        this.openFile = requireNonNull(openFile, "openFile is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.winningRows = winningRows;
    }

    @Override
    public boolean advance()
    {
        position++;
        while (page == null || position >= page.getPositionCount()) {
            page = null;
            Page next = nextPage(winningRows != null ? winningRows.deferredChannels() : null);
            if (next == null) {
                return false;
            }
            page = next;
            position = 0;
        }
        return true;
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
        long pageBytes = page == null ? 0 : page.getRetainedSizeInBytes();
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
