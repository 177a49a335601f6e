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
import com.google.common.collect.ImmutableMap;
import io.trino.filesystem.Location;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.StatsValueComparator;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.merge.IntervalPartition;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.OutputPageBuilder;
import io.trino.plugin.paimon.merge.Section;
import io.trino.plugin.paimon.merge.SortMergeReader;
import io.trino.plugin.paimon.merge.SortedRun;
import io.trino.plugin.paimon.merge.SortedRunCursor;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.type.Type;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * Reads one bucket and returns its merged rows (merge-on-read). The bucket's files are cut into sections of
 * overlapping key ranges and each section into sorted runs; a section of one run is passed through page by page,
 * only dropping retract rows (-U, -D) and projecting columns; a section of several runs goes through a
 * {@link PageSelectingMerge} where a key's newest record wins and values are read late, else through a
 * {@link SortMergeReader}. For append tables (no primary key) the files are read as they are.
 */
public final class PaimonPageSource
        implements ConnectorPageSource
{
    public static final String FILES_OPENED_METRIC = "paimon.filesOpened";
    public static final String ROW_GROUPS_READ_METRIC = "paimon.rowGroupsRead";
    public static final String ROW_GROUPS_SKIPPED_METRIC = "paimon.rowGroupsSkipped";
    public static final String RECORDS_READ_METRIC = "paimon.recordsRead";
    public static final String RECORDS_VALUES_UNREAD_METRIC = "paimon.recordsValuesUnread";
    public static final String VALUE_PAGES_UNREAD_METRIC = "paimon.valuePagesUnread";
    public static final String ROWS_RETURNED_METRIC = "paimon.rowsReturned";
    public static final String SORTED_RUNS_METRIC = "paimon.sortedRuns";
    public static final String SECTIONS_PASSED_THROUGH_METRIC = "paimon.sectionsPassedThrough";
    public static final String SECTIONS_MERGED_METRIC = "paimon.sectionsMerged";

    private static final int OUTPUT_PAGE_ROWS = 8192;

    private final KeyValueLayout layout;
    private final List<Type> outputTypes;
    private final Function<PaimonDataFile, DataFilePageReader> openFile;
    // how the records of a primary-key bucket merge; empty for an append table's files
    private final Optional<MergePlan> merge;
    // the channels a two-pass merge reads in its second pass, or null for no two-pass merge
    private final boolean[] lateValueChannels;
    // whether merged sections outside a two-pass merge compare keys only and return the runs' pages unread
    private final boolean readValuesLate;
    // how a two-pass merge reads; empty for no two-pass merge
    private final Optional<WinningRows.Settings> twoPass;
    private WinningRows winningRows;
    private final Iterator<Section<PaimonDataFile>> sections;
    private final ReadMetrics metrics = new ReadMetrics();

    private List<DataFileRunCursor> currentRuns = ImmutableList.of();
    private DataFileRunCursor passThrough;
    private SortMergeReader merger;
    private OutputPageBuilder output;
    private PageSelectingMerge selectingMerge;
    // pages of the merge not yet returned: a batch of merged rows comes out as a page per source page
    private final Queue<Page> mergedPages = new ArrayDeque<>();
    private final long rowLimit;
    private long completedPositions;
    private boolean finished;

    /** The rows of an append table's files, read as they are, one file after another. */
    static PaimonPageSource ofAppendFiles(List<PaimonDataFile> files, List<Type> outputTypes, long rowLimit, Function<PaimonDataFile, DataFilePageReader> openFile)
    {
        int[] outputChannels = new int[outputTypes.size()];
        for (int i = 0; i < outputChannels.length; i++) {
            outputChannels[i] = i;
        }
        KeyValueLayout layout = new KeyValueLayout(0, new int[0], false, outputChannels);
        Iterator<Section<PaimonDataFile>> sections = files.stream().map(file -> Section.of(SortedRun.of(file))).iterator();
        return new PaimonPageSource(sections, layout, outputTypes, Optional.empty(), false, Optional.empty(), rowLimit, openFile);
    }

    /**
     * The merged rows of the files of one bucket of a primary-key table.
     *
     * @param filesHoldEachKeyOnce the bucket's files hold each key once and no retraction (raw-convertible): every
     * file is read as it is, without a merge
     * @param readValuesLate merged sections compare keys only and return the runs' pages with their losing records
     * deselected and their value columns unread (see {@link PageSelectingMerge}); only where the plan's newest record
     * wins
     * @param twoPass merged sections whose files are all Parquet are read in two passes, keys first, then the values
     * of the merged rows only, as these settings say (see {@link WinningRows}); only where the plan picks one record of
     * a key by its kind and order alone; empty, or other sections, are read as {@code readValuesLate} says
     * @param rowLimit the most rows the query needs from this split (a pushed-down LIMIT); any rows of the split
     * will do, so reading stops there, merged or not
     */
    static PaimonPageSource ofKeyValueFiles(
            List<PaimonDataFile> files,
            MergePlan plan,
            List<Type> outputTypes,
            boolean filesHoldEachKeyOnce,
            boolean readValuesLate,
            Optional<WinningRows.Settings> twoPass,
            long rowLimit,
            Function<PaimonDataFile, DataFilePageReader> openFile)
    {
        checkArgument(!readValuesLate || plan.newestRecordWins(), "values are read late only where the newest record of a key wins");
        checkArgument(twoPass.isEmpty() || plan.oneRecordWins(), "a two-pass merge reads values only where the merge picks one record of a key");
        Iterator<Section<PaimonDataFile>> sections = filesHoldEachKeyOnce
                ? files.stream().map(file -> Section.of(SortedRun.of(file))).iterator()
                : sections(files, plan.keyTypes()).iterator();
        return new PaimonPageSource(sections, plan.layout(), outputTypes, Optional.of(plan), readValuesLate, twoPass, rowLimit, openFile);
    }

    private PaimonPageSource(
            Iterator<Section<PaimonDataFile>> sections,
            KeyValueLayout layout,
            List<Type> outputTypes,
            Optional<MergePlan> merge,
            boolean readValuesLate,
            Optional<WinningRows.Settings> twoPass,
            long rowLimit,
            Function<PaimonDataFile, DataFilePageReader> openFile)
    {
        this.sections = requireNonNull(sections, "sections is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.outputTypes = ImmutableList.copyOf(outputTypes);
        this.merge = requireNonNull(merge, "merge is null");
        this.lateValueChannels = twoPass.isPresent() ? lateValueChannels(layout) : null;
        this.readValuesLate = readValuesLate;
        this.twoPass = lateValueChannels == null ? Optional.empty() : requireNonNull(twoPass, "twoPass is null");
        this.rowLimit = rowLimit;
        this.openFile = requireNonNull(openFile, "openFile is null");
    }

    // the output columns, but for user sequence fields, which the merge compares; null when that leaves none
    private static boolean[] lateValueChannels(KeyValueLayout layout)
    {
        // value channels past these (fields only the merge reads) are read at once: the readers take a shorter array
        int channels = layout.firstValueChannel();
        for (int channel : layout.outputChannels()) {
            channels = Math.max(channels, channel + 1);
        }
        for (int channel : layout.userSequenceChannels()) {
            channels = Math.max(channels, channel + 1);
        }
        boolean[] late = new boolean[channels];
        for (int channel : layout.outputChannels()) {
            late[channel] = true;
        }
        for (int channel : layout.userSequenceChannels()) {
            late[channel] = false;
        }
        for (boolean channel : late) {
            if (channel) {
                return late;
            }
        }
        return null;
    }

    /** A bucket's files cut into sections of overlapping key ranges, in key order, each made of sorted runs. */
    static List<Section<PaimonDataFile>> sections(List<PaimonDataFile> files, List<DataType> keyTypes)
    {
        Function<PaimonDataFile, List<Object>> minKey = file -> BinaryRow.deserialize(file.minKey()).values(keyTypes);
        Function<PaimonDataFile, List<Object>> maxKey = file -> BinaryRow.deserialize(file.maxKey()).values(keyTypes);
        Comparator<List<Object>> keyOrder = (left, right) -> {
            for (int i = 0; i < keyTypes.size(); i++) {
                int result = StatsValueComparator.compare(keyTypes.get(i), left.get(i), right.get(i));
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
        return IntervalPartition.partition(files, minKey, maxKey, keyOrder);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        while (!finished) {
            if (passThrough == null && merger == null && selectingMerge == null && !openNextSection()) {
                finished = true;
                break;
            }
            SourcePage page = passThrough != null ? nextPassThroughPage() : selectingMerge != null ? nextSelectedPage() : sourcePage(nextMergedPage());
            if (page != null && page.getPositionCount() > 0) {
                if (page.getPositionCount() >= rowLimit - completedPositions) {
                    int positions = toIntExact(rowLimit - completedPositions);
                    page.selectPositions(IntStream.range(0, positions).toArray(), 0, positions);
                    // read now: the files close with the runs
                    page = SourcePage.create(page.getPage());
                    finished = true;
                    closeRuns();
                }
                completedPositions += page.getPositionCount();
                return page;
            }
        }
        return null;
    }

    private boolean openNextSection()
    {
        closeRuns();
        if (!sections.hasNext()) {
            return false;
        }
        Section<PaimonDataFile> section = sections.next();
        List<DataFileRunCursor> cursors = new ArrayList<>(section.runs().size());
        boolean merged = section.runs().size() > 1;
        winningRows = merged && twoPass.isPresent() && allParquet(section)
                ? new WinningRows(lateValueChannels, layout.outputChannels(), twoPass.get(), OUTPUT_PAGE_ROWS, metrics)
                : null;
        for (SortedRun<PaimonDataFile> run : section.runs()) {
            cursors.add(winningRows != null
                    ? new DataFileRunCursor(run, openFile, metrics, winningRows)
                    : new DataFileRunCursor(run, openFile, metrics));
        }
        currentRuns = cursors;
        metrics.section(cursors.size());
        if (cursors.size() == 1) {
            passThrough = cursors.getFirst();
        }
        else if (readValuesLate && winningRows == null) {
            selectingMerge = new PageSelectingMerge(cursors, merge.orElseThrow().comparator(), layout, PageSelectingMerge.runsByAge(section.runs()), metrics);
        }
        else {
            // an append table's files never overlap: each is a section of its own
            MergePlan plan = merge.orElseThrow();
            List<SortedRunCursor> runs = ImmutableList.copyOf(cursors);
            merger = new SortMergeReader(runs, plan.comparator(), layout, plan.mergeFunctions().create(), plan.lookupMode());
            output = new OutputPageBuilder(outputTypes, layout.outputChannels(), OUTPUT_PAGE_ROWS);
        }
        return true;
    }

    private SourcePage nextSelectedPage()
    {
        ChannelsOfSourcePage page = selectingMerge.nextPage();
        if (page == null) {
            selectingMerge = null;
        }
        return page;
    }

    private static SourcePage sourcePage(Page page)
    {
        return page == null ? null : SourcePage.create(page);
    }

    // the page goes to the engine unread but for the row kinds, so that a filter reads its columns first and the
    // others only at the rows it keeps
    private SourcePage nextPassThroughPage()
    {
        ChannelsOfSourcePage page = passThrough.nextSourcePage();
        if (page == null) {
            passThrough = null;
            return null;
        }
        if (merge.isPresent()) {
            // a sorted run holds each key once: only its retract rows are dropped
            Block kinds = page.getBlock(layout.kindChannel());
            int[] kept = new int[page.getPositionCount()];
            int keptCount = 0;
            for (int position = 0; position < page.getPositionCount(); position++) {
                if (!KeyValueLayout.isRetract(TINYINT.getByte(kinds, position))) {
                    kept[keptCount++] = position;
                }
            }
            if (keptCount < page.getPositionCount()) {
                page.selectPositions(kept, 0, keptCount);
            }
        }
        return page.channels(layout.outputChannels());
    }

    private static boolean allParquet(Section<PaimonDataFile> section)
    {
        for (SortedRun<PaimonDataFile> run : section.runs()) {
            for (PaimonDataFile file : run.files()) {
                if (DataFileFormat.of(Location.of(file.path())) != DataFileFormat.PARQUET) {
                    return false;
                }
            }
        }
        return true;
    }

    // a two-pass merge: the merge notes its rows, and the pages are the values pass two reads for a window of them
    private Page nextTwoPassPage()
    {
        if (winningRows.readingWindow()) {
            Page page = winningRows.nextPage();
            if (page != null) {
                return page;
            }
        }
        if (merger.isFinished()) {
            merger = null;
            output = null;
            return null;
        }
        merger.mergeInto(output);
        Set<Page> currentPages = Collections.newSetFromMap(new IdentityHashMap<>());
        for (DataFileRunCursor run : currentRuns) {
            if (run.page() != null) {
                currentPages.add(run.page());
            }
        }
        winningRows.collect(output, currentPages);
        if (winningRows.windowFull() || merger.isFinished()) {
            winningRows.endWindow();
        }
        return null;
    }

    private Page nextMergedPage()
    {
        if (winningRows != null) {
            return nextTwoPassPage();
        }
        if (!mergedPages.isEmpty()) {
            return mergedPages.poll();
        }
        merger.mergeInto(output);
        if ((output.isFull() || merger.isFinished()) && !output.isEmpty()) {
            mergedPages.addAll(output.build());
        }
        if (merger.isFinished() && output.isEmpty() && mergedPages.isEmpty()) {
            merger = null;
            output = null;
        }
        return mergedPages.poll();
    }

    private void closeRuns()
    {
        for (DataFileRunCursor run : currentRuns) {
            run.close();
        }
        if (winningRows != null) {
            winningRows.close();
            winningRows = null;
        }
        currentRuns = ImmutableList.of();
        passThrough = null;
        merger = null;
        selectingMerge = null;
    }

    @Override
    public long getCompletedBytes()
    {
        // the open files count too: Trino records this only after pages it receives, and the last page of a
        // section read straight through comes before its file is closed
        long bytes = metrics.bytes();
        for (DataFileRunCursor run : currentRuns) {
            bytes += run.openFileReadBytes();
        }
        if (winningRows != null) {
            bytes += winningRows.finishedFilesReadBytes();
        }
        return bytes;
    }

    @Override
    public long getReadTimeNanos()
    {
        return metrics.nanos();
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(completedPositions);
    }

    /**
     * {@value #FILES_OPENED_METRIC}: data files this split opened, after the split manager's pruning;
     * {@value #ROW_GROUPS_READ_METRIC} and {@value #ROW_GROUPS_SKIPPED_METRIC}: row groups (Parquet) or stripes
     * (ORC) of those files read, and skipped by their statistics (an Avro file counts as one);
     * {@value #RECORDS_READ_METRIC}: physical records decoded from them, {@value #RECORDS_VALUES_UNREAD_METRIC}: those
     * of them whose value columns were never read, since the merge returned no record of their page,
     * {@value #VALUE_PAGES_UNREAD_METRIC}: Parquet data pages the second pass of a two-pass merge read left unread
     * (not decompressed either) in a window of merged rows, since they hold none of them, summed over windows, and
     * {@value #ROWS_RETURNED_METRIC}: rows this split returned after the merge; {@value #SORTED_RUNS_METRIC}: sorted
     * runs over all sections, {@value #SECTIONS_PASSED_THROUGH_METRIC} and {@value #SECTIONS_MERGED_METRIC}: sections
     * of one run read straight through, and of several runs merged.
     */
    @Override
    public Metrics getMetrics()
    {
        return new Metrics(ImmutableMap.<String, Metric<?>>builder()
                .put(FILES_OPENED_METRIC, new LongCount(metrics.filesOpened()))
                .put(ROW_GROUPS_READ_METRIC, new LongCount(metrics.rowGroupsRead()))
                .put(ROW_GROUPS_SKIPPED_METRIC, new LongCount(metrics.rowGroupsSkipped()))
                .put(RECORDS_READ_METRIC, new LongCount(metrics.records()))
                .put(RECORDS_VALUES_UNREAD_METRIC, new LongCount(metrics.recordsValuesUnread()))
                .put(VALUE_PAGES_UNREAD_METRIC, new LongCount(metrics.valuePagesUnread()))
                .put(ROWS_RETURNED_METRIC, new LongCount(completedPositions))
                .put(SORTED_RUNS_METRIC, new LongCount(metrics.sortedRuns()))
                .put(SECTIONS_PASSED_THROUGH_METRIC, new LongCount(metrics.sectionsPassedThrough()))
                .put(SECTIONS_MERGED_METRIC, new LongCount(metrics.sectionsMerged()))
                .buildOrThrow());
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        long bytes = 0;
        for (DataFileRunCursor run : currentRuns) {
            bytes += run.memoryUsage();
        }
        if (winningRows != null) {
            bytes += winningRows.memoryUsage();
        }
        if (selectingMerge != null) {
            bytes += selectingMerge.memoryUsage();
        }
        if (output != null) {
            bytes += output.retainedSizeInBytes();
        }
        for (Page page : mergedPages) {
            bytes += page.getRetainedSizeInBytes();
        }
        return bytes;
    }

    @Override
    public void close()
    {
        closeRuns();
        finished = true;
    }
}
