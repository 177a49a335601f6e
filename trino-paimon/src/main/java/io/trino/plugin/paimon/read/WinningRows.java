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

import io.trino.plugin.paimon.merge.OutputPageBuilder;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.spi.type.BigintType.BIGINT;
import static java.lang.Math.max;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The two-pass read of a merged section (Parquet files of a table whose merge picks one record of a key by its kind and
 * order alone: deduplicate, first-row). Pass one reads the runs' keys, sequence numbers and row kinds, with the value
 * columns left unread, and merges them; the merged rows it returns are not built into pages but noted here as rows
 * of their files. Once a window holds enough of them
 * (or the section ends), pass two reads the output columns of each file at exactly those rows
 * ({@link ParquetRowRangeReader}), and those pages are the section's output: the rows of a split carry no order, so
 * each file's winners come out together. Values of records the merge drops are not decoded, except those lying a few
 * rows from winners on both sides, which pass two decodes and drops (see {@link ParquetRowRangeReader}).
 * <p>
 * A file stays open until the window that holds its last winners is read; memory is bounded by the row numbers of
 * one window's winners and the pages of one file's part of it.
 */
final class WinningRows
{
    private final boolean[] deferredChannels;
    private final int[] outputChannels;
    private final Settings settings;
    private final int outputPageRows;
    private final ReadMetrics metrics;
    // key pages the runs have read and the merge may still return rows of, with where their rows are in their files
    private final Map<Page, PageRows> pages = new IdentityHashMap<>();
    // the files opened in this section and not closed yet, in the order they were opened
    private final List<FileRows> files = new ArrayList<>();
    private int windowCount;
    private long recordsRead;
    private long recordsReturned;
    // records the merge dropped whose values pass two decoded all the same (gaps between winners)
    private long gapRowsDecoded;
    private Queue<Page> windowPages = new ArrayDeque<>();
    private Iterator<FileRows> windowFiles;

    /**
     * @param deferredChannels the channels pass one leaves unread
     * @param outputChannels the channels of the merged rows, which pass two reads
     */
    WinningRows(boolean[] deferredChannels, int[] outputChannels, Settings settings, int outputPageRows, ReadMetrics metrics)
    {
        this.deferredChannels = deferredChannels.clone();
        this.outputChannels = outputChannels.clone();
        this.settings = requireNonNull(settings, "settings is null");
        this.outputPageRows = outputPageRows;
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    boolean[] deferredChannels()
    {
        return deferredChannels;
    }

    /** A file a run opened; its rows are noted under the returned handle. */
    FileRows fileOpened(DataFilePageReader reader)
    {
        ParquetRowRangeReader values = reader.rowRangeReader(outputChannels, deferredChannels)
                .orElseThrow(() -> new IllegalStateException("A two-pass merge reads only files whose columns can be read at chosen rows"));
        FileRows file = new FileRows(reader, values);
        files.add(file);
        return file;
    }

    /** A key page a run read from a file. */
    void pageRead(Page page, FileRows file, Block rowNumbers)
    {
        pages.put(page, new PageRows(file, rowNumbers));
        recordsRead += page.getPositionCount();
    }

    /**
     * Notes the rows the merge put into {@code output} as winners of their files and empties it. Pages not in
     * {@code currentPages} (the runs' current pages) are forgotten: the merge returns no more rows of them.
     */
    void collect(OutputPageBuilder output, Set<Page> currentPages)
    {
        // merged rows come in stretches of one page: look a page up once per stretch
        Page lastPage = null;
        PageRows rows = null;
        for (int row = 0; row < output.size(); row++) {
            Page page = output.recordPage(row);
            if (page != lastPage || rows == null) {
                rows = page == null ? null : pages.get(page);
                lastPage = page;
            }
            checkState(rows != null, "a merged row of a two-pass read is not a record of a page read");
            rows.file().add(BIGINT.getLong(rows.rowNumbers(), output.recordPosition(row)));
        }
        windowCount += output.size();
        recordsReturned += output.size();
        output.clear();
        pages.keySet().retainAll(currentPages);
    }

    boolean windowFull()
    {
        return windowCount >= settings.windowRows();
    }

    /** Ends the window: {@link #nextPage()} now returns the values of its winners. */
    void endWindow()
    {
        checkState(windowFiles == null, "a window is being read");
        windowFiles = new ArrayList<>(files).iterator();
        windowCount = 0;
    }

    /** The next page of the window's values, or null when they are all returned. */
    Page nextPage()
    {
        while (windowPages.isEmpty()) {
            if (windowFiles == null) {
                return null;
            }
            if (!windowFiles.hasNext()) {
                windowFiles = null;
                closeFinishedFiles();
                return null;
            }
            FileRows file = windowFiles.next();
            if (file.count > 0) {
                windowPages = new ArrayDeque<>(file.readValues(outputPageRows));
            }
        }
        return windowPages.poll();
    }

    /** Whether the window's values are being returned. */
    boolean readingWindow()
    {
        return windowFiles != null || !windowPages.isEmpty();
    }

    /** Bytes read so far from the files a run has finished with that are still open for their values. */
    long finishedFilesReadBytes()
    {
        long bytes = 0;
        for (FileRows file : files) {
            if (file.finished && !file.closed) {
                bytes += file.reader.readBytes();
            }
        }
        return bytes;
    }

    long memoryUsage()
    {
        long bytes = 0;
        for (FileRows file : files) {
            bytes += file.memoryUsage();
        }
        for (Page page : windowPages) {
            bytes += page.getRetainedSizeInBytes();
        }
        return bytes;
    }

    /** Closes every file and reports the records whose values were never read. */
    void close()
    {
        for (FileRows file : files) {
            file.close();
        }
        files.clear();
        pages.clear();
        windowPages.clear();
        windowFiles = null;
        metrics.valuesUnread(toIntExact(max(0, recordsRead - recordsReturned - gapRowsDecoded)));
        recordsRead = 0;
        recordsReturned = 0;
        gapRowsDecoded = 0;
    }

    private void closeFinishedFiles()
    {
        Iterator<FileRows> iterator = files.iterator();
        while (iterator.hasNext()) {
            FileRows file = iterator.next();
            file.count = 0;
            if (file.finished) {
                file.close();
                iterator.remove();
            }
        }
    }

    /** The rows a merge returned of one file, in the current window. */
    final class FileRows
    {
        private final DataFilePageReader reader;
        private final ParquetRowRangeReader values;
        private long[] rows = new long[1024];
        private int count;
        private boolean finished;
        private boolean closed;

        private FileRows(DataFilePageReader reader, ParquetRowRangeReader values)
        {
            this.reader = requireNonNull(reader, "reader is null");
            this.values = requireNonNull(values, "values is null");
        }

        private void add(long row)
        {
            if (count == rows.length) {
                rows = Arrays.copyOf(rows, count * 2);
            }
            rows[count++] = row;
        }

        /** The run read the whole file: it is closed once the merge returned its last rows' values. */
        void finished()
        {
            finished = true;
        }

        private List<Page> readValues(int pageRows)
        {
            try {
                // the merge returns a run's records in key order, which is the order of its files' rows
                return values.read(rows, count, pageRows, settings.maxGapRows());
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_BAD_DATA, "Failed to read the values of merged rows: " + e.getMessage(), e);
            }
        }

        private long memoryUsage()
        {
            return (closed ? 0 : reader.memoryUsage() + values.memoryUsage()) + (long) rows.length * Long.BYTES;
        }

        private void close()
        {
            if (!closed) {
                closed = true;
                gapRowsDecoded += values.gapRowsDecoded();
                metrics.valuePagesUnread(values.pagesUnread());
                metrics.add(reader.readBytes(), reader.readTimeNanos());
                reader.close();
            }
        }
    }

    private record PageRows(FileRows file, Block rowNumbers) {}

    /**
     * @param windowRows how many winners a window holds before pass two reads their values
     * @param maxGapRows winners of a file at most this many rows apart are read as one range of rows
     */
    record Settings(int windowRows, int maxGapRows)
    {
        Settings
        {
            checkArgument(windowRows > 0, "windowRows is not positive");
            checkArgument(maxGapRows >= 0, "maxGapRows is negative");
        }
    }
}
