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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.merge.CompactedRecords;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.MergeFunction;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.merge.Section;
import io.trino.plugin.paimon.merge.SortMergeReader;
import io.trino.plugin.paimon.merge.SortedRun;
import io.trino.plugin.paimon.merge.SortedRunCursor;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Reads the files a compaction rewrites and returns their records merged, in key order, in the key-value layout of
 * a data file (key channels, sequence number, row kind, every table column), ready to be written as one sorted run.
 * The files are cut into sections as a read cuts them ({@link PaimonPageSource#sections}); a section of one run is
 * passed through, and a section of several runs is merged by the reader's {@link SortMergeReader} with the table's
 * merge function, so a compacted bucket reads exactly as it did. Retractions are dropped only when asked (a
 * compaction whose output is the oldest data of its bucket).
 */
public final class BucketCompactionReader
        implements Closeable
{
    private static final int OUTPUT_PAGE_ROWS = 4096;

    private final KeyValueLayout layout;
    private final List<Type> valueTypes;
    private final int[] keyValueColumns;
    private final Function<PaimonDataFile, DataFilePageReader> openFile;
    private final RecordComparator comparator;
    private final Supplier<MergeFunction> mergeFunctions;
    private final boolean lookupMode;
    private final boolean dropRetracts;
    private final Iterator<Section<PaimonDataFile>> sections;
    private final ReadMetrics metrics = new ReadMetrics();

    private List<DataFileRunCursor> currentRuns = ImmutableList.of();
    private DataFileRunCursor passThrough;
    private SortMergeReader merger;
    private CompactedRecords output;

    BucketCompactionReader(
            List<PaimonDataFile> files,
            MergePlan plan,
            int[] keyValueColumns,
            boolean dropRetracts,
            Function<PaimonDataFile, DataFilePageReader> openFile)
    {
        this.layout = plan.layout();
        this.valueTypes = plan.valueColumns().stream().map(ReadColumn::type).collect(toImmutableList());
        this.keyValueColumns = keyValueColumns.clone();
        this.comparator = plan.comparator();
        this.mergeFunctions = plan.mergeFunctions()::create;
        this.lookupMode = plan.lookupMode();
        this.dropRetracts = dropRetracts;
        this.openFile = requireNonNull(openFile, "openFile is null");
        this.sections = PaimonPageSource.sections(files, plan.keyTypes()).iterator();
    }

    /** The next page of merged records, in key order after the previous one; null when all were returned. */
    public Page nextPage()
    {
        while (true) {
            if (passThrough == null && merger == null && !openNextSection()) {
                return null;
            }
            Page page = passThrough != null ? nextPassThroughPage() : nextMergedPage();
            if (page != null && page.getPositionCount() > 0) {
                return page;
            }
        }
    }

    private boolean openNextSection()
    {
        closeRuns();
        if (!sections.hasNext()) {
            return false;
        }
        Section<PaimonDataFile> section = sections.next();
        List<DataFileRunCursor> cursors = new ArrayList<>(section.runs().size());
        for (SortedRun<PaimonDataFile> run : section.runs()) {
            cursors.add(new DataFileRunCursor(run, openFile, metrics));
        }
        currentRuns = cursors;
        if (cursors.size() == 1) {
            passThrough = cursors.getFirst();
        }
        else {
            merger = new SortMergeReader(ImmutableList.copyOf(cursors.stream().map(SortedRunCursor.class::cast).toList()), comparator, layout, mergeFunctions.get(), lookupMode);
            output = new CompactedRecords(layout, valueTypes, keyValueColumns, OUTPUT_PAGE_ROWS);
        }
        return true;
    }

    private Page nextPassThroughPage()
    {
        Page page = passThrough.nextPage();
        if (page == null) {
            passThrough = null;
            return null;
        }
        if (dropRetracts) {
            Block kinds = page.getBlock(layout.kindChannel());
            int[] kept = new int[page.getPositionCount()];
            int keptCount = 0;
            for (int position = 0; position < page.getPositionCount(); position++) {
                if (!KeyValueLayout.isRetract(TINYINT.getByte(kinds, position))) {
                    kept[keptCount++] = position;
                }
            }
            if (keptCount < page.getPositionCount()) {
                page = page.getPositions(kept, 0, keptCount);
            }
        }
        return page;
    }

    private Page nextMergedPage()
    {
        merger.compactInto(output, dropRetracts);
        Page page = output.isEmpty() ? null : output.build();
        if (merger.isFinished()) {
            merger = null;
            output = null;
        }
        return page;
    }

    public long memoryUsage()
    {
        long bytes = 0;
        for (DataFileRunCursor run : currentRuns) {
            bytes += run.memoryUsage();
        }
        return bytes;
    }

    private void closeRuns()
    {
        for (DataFileRunCursor run : currentRuns) {
            run.close();
        }
        currentRuns = ImmutableList.of();
        passThrough = null;
        merger = null;
    }

    @Override
    public void close()
    {
        closeRuns();
    }
}
