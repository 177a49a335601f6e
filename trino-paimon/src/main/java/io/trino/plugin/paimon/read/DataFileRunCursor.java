package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.merge.SortedRun;
import io.trino.plugin.paimon.merge.SortedRunCursor;
import io.trino.spi.Page;

import java.util.List;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * A sorted run read file after file; each file is opened only when the run reaches it.
 */
final class DataFileRunCursor
        implements SortedRunCursor
{
    private final List<PaimonDataFile> files;
    private final Function<PaimonDataFile, DataFilePageReader> openFile;
    private final ReadMetrics metrics;
    private int nextFile;
    private DataFilePageReader reader;
    private int level;
    private Page page;
    private int position;

    DataFileRunCursor(SortedRun<PaimonDataFile> run, Function<PaimonDataFile, DataFilePageReader> openFile, ReadMetrics metrics)
    {
        this.files = run.files();
        this.openFile = requireNonNull(openFile, "openFile is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public boolean advance()
    {
        position++;
        while (page == null || position >= page.getPositionCount()) {
            Page next = nextPage();
            if (next == null) {
                page = null;
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
        while (true) {
            if (reader == null) {
                if (nextFile >= files.size()) {
                    return null;
                }
                PaimonDataFile file = files.get(nextFile++);
                reader = openFile.apply(file);
                metrics.fileOpened();
                metrics.rowGroups(reader.rowGroupCount(), reader.rowGroupsRead());
                level = file.level();
            }
            Page next = reader.nextPage();
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
        if (reader != null) {
            metrics.add(reader.readBytes(), reader.readTimeNanos());
            reader.close();
            reader = null;
        }
    }
}
