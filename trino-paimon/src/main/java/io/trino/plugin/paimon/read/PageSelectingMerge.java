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

import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.LoserTree;
import io.trino.plugin.paimon.merge.PageKeys;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.merge.RunHeads;
import io.trino.plugin.paimon.merge.SortedRun;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The merge of a section whose merged row of a key is its newest record, unless that retracts (deduplicate without
 * {@code ignore-delete}, outside lookup mode). It compares the runs' keys, sequence numbers, row kinds and user
 * sequence fields only, and returns the runs' own pages with the records that lose deselected and every other column
 * unread: the engine reads a column when it needs it, its filter's columns first and the others at the rows the filter
 * keeps, as for a section read straight through. Nothing is copied record by record. The rows of a split carry no
 * order, so pages of the runs come out interleaved.
 * <p>
 * A page goes out once every record of its keys has been compared: the run whose current page ends at the smallest
 * key gives its page next, after the records of all runs up to that key are merged. Those records are all in the runs'
 * current pages, since each of them ends at that key or a larger one and a sorted run holds a key once (its files'
 * key ranges do not overlap, see {@link io.trino.plugin.paimon.merge.IntervalPartition}). A run moves to its next page
 * only when the next page is asked for: the columns of the page that went out are read from its file reader's current
 * batch.
 * <p>
 * Where the runs' sequence numbers lie apart and no user sequence field orders the records, every record of a newer run
 * is newer than every record of an older one: a record then wins unless a newer run holds its key or it retracts, and
 * the merge walks each run once per page against cursors into the newer runs' keys instead of through a loser tree.
 */
final class PageSelectingMerge
{
    private final DataFileRunCursor[] runs;
    private final RunHeads heads;
    private final int[] outputChannels;
    private final boolean[] mergeChannels;
    private final ReadMetrics metrics;
    private final int sequenceChannel;
    private final int kindChannel;
    // whether records compare by their file's first sequence number instead of their own
    private final boolean sequenceByFile;
    // the runs from the newest to the oldest where a record wins unless a newer run holds its key; null otherwise
    private final int[] newestFirst;
    // the slot of the heads that holds the last key of the page going out next: records up to it are merged
    private final int boundSlot;

    // per run: its current page, the merge's view of it (the compared channels read), the first record not merged
    // yet, the end of the page's records up to the current bound, and the records of the page that win
    private final ChannelsOfSourcePage[] pages;
    private final Page[] keyPages;
    private final PageKeys[] keys;
    private final int[] nextRecord;
    private final int[] roundEnd;
    private final int[][] winners;
    private final int[] winnerCounts;
    private final boolean[] exhausted;
    // the run whose page went out last, moved on when the next page is asked for; -1 for none
    private int leavingRun = -1;
    private boolean started;

    /**
     * @param runsByAge the runs from the newest to the oldest where their sequence numbers lie in ranges that do not
     * overlap (see {@link #runsByAge(List)}): the records of a key then order as their files do, by their first
     * sequence number, and the sequence number column is not read
     */
    PageSelectingMerge(List<DataFileRunCursor> runs, RecordComparator comparator, KeyValueLayout layout, Optional<int[]> runsByAge, ReadMetrics metrics)
    {
        this.runs = runs.toArray(DataFileRunCursor[]::new);
        requireNonNull(comparator, "comparator is null");
        this.outputChannels = layout.outputChannels();
        this.sequenceChannel = layout.sequenceChannel();
        this.kindChannel = layout.kindChannel();
        this.sequenceByFile = runsByAge.isPresent();
        this.newestFirst = layout.userSequenceChannels().length == 0 ? runsByAge.orElse(null) : null;
        this.metrics = requireNonNull(metrics, "metrics is null");
        int runCount = this.runs.length;
        // one slot more than the runs for the bound, then the heads' own slot for the key being merged
        this.heads = new RunHeads(runCount + 1, comparator, layout);
        this.boundSlot = runCount;
        this.mergeChannels = mergeChannels(layout);
        this.pages = new ChannelsOfSourcePage[runCount];
        this.keyPages = new Page[runCount];
        this.keys = new PageKeys[runCount];
        for (int run = 0; run < runCount; run++) {
            keys[run] = new PageKeys(comparator);
        }
        this.nextRecord = new int[runCount];
        this.roundEnd = new int[runCount];
        this.winners = new int[runCount][];
        this.winnerCounts = new int[runCount];
        this.exhausted = new boolean[runCount];
        Arrays.fill(winners, new int[0]);
    }

    /**
     * The indexes of the runs from the newest to the oldest where no two hold sequence numbers in overlapping ranges,
     * so that every record of one run is older than every record of the other: as a bucket's runs are when each write
     * and each compaction took its own. Empty where two ranges overlap.
     */
    static Optional<int[]> runsByAge(List<SortedRun<PaimonDataFile>> runs)
    {
        long[][] ranges = new long[runs.size()][];
        for (int run = 0; run < ranges.length; run++) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (PaimonDataFile file : runs.get(run).files()) {
                min = Math.min(min, file.minSequenceNumber());
                max = Math.max(max, file.maxSequenceNumber());
            }
            ranges[run] = new long[] {min, max, run};
        }
        Arrays.sort(ranges, (left, right) -> Long.compare(right[0], left[0]));
        int[] newestFirst = new int[ranges.length];
        for (int run = 0; run < ranges.length; run++) {
            if (run > 0 && ranges[run - 1][0] <= ranges[run][1]) {
                return Optional.empty();
            }
            newestFirst[run] = (int) ranges[run][2];
        }
        return Optional.of(newestFirst);
    }

    // the channels the merge compares: keys, sequence number, row kind and user sequence fields
    private static boolean[] mergeChannels(KeyValueLayout layout)
    {
        int count = layout.firstValueChannel();
        for (int channel : layout.userSequenceChannels()) {
            count = Math.max(count, channel + 1);
        }
        boolean[] channels = new boolean[count];
        Arrays.fill(channels, 0, layout.firstValueChannel(), true);
        for (int channel : layout.userSequenceChannels()) {
            channels[channel] = true;
        }
        return channels;
    }

    /**
     * The next page of the section's merged rows, the output channels of a run's page with the winning records
     * selected, readable until the next call; null when the section is read.
     */
    ChannelsOfSourcePage nextPage()
    {
        if (!started) {
            started = true;
            for (int run = 0; run < runs.length; run++) {
                moveToNextPage(run);
            }
        }
        while (true) {
            if (leavingRun >= 0) {
                moveToNextPage(leavingRun);
                leavingRun = -1;
            }
            int run = runEndingFirst();
            if (run < 0) {
                return null;
            }
            if (newestFirst != null) {
                mergeNewestFirst(run);
            }
            else {
                mergeUpTo(run);
            }
            leavingRun = run;
            ChannelsOfSourcePage page = pages[run];
            int kept = winnerCounts[run];
            if (kept == 0) {
                // the engine never sees the page: no column but the compared ones is read
                if (outputChannels.length > 0) {
                    metrics.valuesUnread(page.getPositionCount());
                }
                continue;
            }
            if (kept < page.getPositionCount()) {
                page.selectPositions(winners[run], 0, kept);
            }
            return page.channels(outputChannels);
        }
    }

    private void moveToNextPage(int run)
    {
        ChannelsOfSourcePage page = exhausted[run] ? null : runs[run].nextSourcePage();
        pages[run] = page;
        nextRecord[run] = 0;
        winnerCounts[run] = 0;
        if (page == null) {
            exhausted[run] = true;
            keyPages[run] = null;
            keys[run].clear();
            return;
        }
        int positions = page.getPositionCount();
        PaimonDataFile file = runs[run].currentFile();
        Block[] blocks = new Block[mergeChannels.length];
        for (int channel = 0; channel < blocks.length; channel++) {
            if (channel == sequenceChannel && sequenceByFile) {
                blocks[channel] = RunLengthEncodedBlock.create(BIGINT, file.minSequenceNumber(), positions);
            }
            else if (channel == kindChannel && file.deleteRowCount().orElse(-1) == 0) {
                // no record of the file retracts, and only retractions are told apart
                blocks[channel] = RunLengthEncodedBlock.create(TINYINT, (long) KeyValueLayout.INSERT, positions);
            }
            else {
                // channels the merge does not compare stand in as nulls: the merge's view never reads them
                blocks[channel] = mergeChannels[channel] ? page.getBlock(channel) : RunLengthEncodedBlock.create(BIGINT, null, positions);
            }
        }
        keyPages[run] = new Page(positions, blocks);
        keys[run].load(keyPages[run]);
        if (winners[run].length < positions) {
            winners[run] = new int[positions];
        }
    }

    // the run whose current page ends at the smallest key, or -1 when every run is read
    private int runEndingFirst()
    {
        int first = -1;
        for (int run = 0; run < runs.length; run++) {
            if (exhausted[run]) {
                continue;
            }
            if (first < 0 || keys[run].compare(lastPosition(run), keys[first], lastPosition(first)) < 0) {
                first = run;
            }
        }
        return first;
    }

    private int lastPosition(int run)
    {
        return keyPages[run].getPositionCount() - 1;
    }

    // sets the end of each run's records whose keys are at most the last key of the bound run's page
    private void endRound(int boundRun)
    {
        int boundPosition = lastPosition(boundRun);
        for (int run = 0; run < runs.length; run++) {
            roundEnd[run] = exhausted[run] ? 0 : run == boundRun ? boundPosition + 1 : firstAfter(run, boundRun, boundPosition);
        }
    }

    // as mergeUpTo, where a record of a run wins unless a newer run holds its key or it retracts: each run's records
    // are walked once against a cursor into each newer run's records. A plain walk: with keys updated all over their
    // range, stretches between the newer runs' keys are short and a gallop costs more comparisons than it saves
    private void mergeNewestFirst(int boundRun)
    {
        endRound(boundRun);
        int[] newer = new int[runs.length];
        int[] cursors = new int[runs.length];
        for (int age = 0; age < newestFirst.length; age++) {
            int run = newestFirst[age];
            int first = nextRecord[run];
            int end = roundEnd[run];
            if (first >= end) {
                continue;
            }
            int newerCount = 0;
            for (int younger = 0; younger < age; younger++) {
                int other = newestFirst[younger];
                if (nextRecord[other] < roundEnd[other]) {
                    newer[newerCount] = other;
                    cursors[newerCount] = nextRecord[other];
                    newerCount++;
                }
            }
            PageKeys runKeys = keys[run];
            Block kinds = keyPages[run].getBlock(kindChannel);
            boolean mayRetract = !(kinds instanceof RunLengthEncodedBlock constant) || KeyValueLayout.isRetract(TINYINT.getByte(constant.getValue(), 0));
            if (newerCount == 0) {
                addWinners(run, kinds, mayRetract, first, end);
                continue;
            }
            int[] runWinners = winners[run];
            int count = winnerCounts[run];
            for (int position = first; position < end; position++) {
                if (!heldByNewer(runKeys, position, newer, cursors, newerCount) && !(mayRetract && KeyValueLayout.isRetract(TINYINT.getByte(kinds, position)))) {
                    runWinners[count++] = position;
                }
            }
            winnerCounts[run] = count;
        }
        for (int run = 0; run < runs.length; run++) {
            nextRecord[run] = Math.max(nextRecord[run], roundEnd[run]);
        }
    }

    // whether one of the newer runs holds the key at this position; moves their cursors up to it
    private boolean heldByNewer(PageKeys runKeys, int position, int[] newer, int[] cursors, int newerCount)
    {
        for (int index = 0; index < newerCount; index++) {
            PageKeys otherKeys = keys[newer[index]];
            int end = roundEnd[newer[index]];
            int cursor = cursors[index];
            int order = 1;
            while (cursor < end && (order = otherKeys.compare(cursor, runKeys, position)) < 0) {
                cursor++;
            }
            cursors[index] = cursor;
            if (order == 0) {
                return true;
            }
        }
        return false;
    }

    // takes the records from first to end of a run's page that do not retract as winners
    private void addWinners(int run, Block kinds, boolean mayRetract, int first, int end)
    {
        int[] runWinners = winners[run];
        int count = winnerCounts[run];
        for (int position = first; position < end; position++) {
            if (!mayRetract || !KeyValueLayout.isRetract(TINYINT.getByte(kinds, position))) {
                runWinners[count++] = position;
            }
        }
        winnerCounts[run] = count;
    }

    // merges the records of every run whose key is at most the last key of this run's page, which then is whole
    private void mergeUpTo(int boundRun)
    {
        Page boundPage = keyPages[boundRun];
        int boundPosition = lastPosition(boundRun);
        heads.load(boundSlot, boundPage, boundPosition, 0);
        endRound(boundRun);
        boolean[] done = new boolean[runs.length];
        for (int run = 0; run < runs.length; run++) {
            done[run] = !loadHead(run);
        }
        LoserTree tree = new LoserTree(runs.length, done, heads);
        int keySlot = heads.keySlot();
        while (!tree.isEmpty()) {
            int winner = tree.winner();
            int stretchEnd = soleRecordsEnd(winner);
            if (stretchEnd > nextRecord[winner]) {
                // records no other run's head reaches: each is the only record of its key, taken without the tree
                addWinners(winner, keyPages[winner].getBlock(kindChannel), true, nextRecord[winner], stretchEnd);
                nextRecord[winner] = stretchEnd;
                tree.winnerAdvanced(!loadHead(winner));
                continue;
            }
            // the records of one key come out oldest first: the last one is the newest
            int newestRun = tree.winner();
            int newestPosition = nextRecord[newestRun];
            byte newestKind = heads.kind(newestRun);
            heads.rememberKey(newestRun);
            nextRecord[newestRun]++;
            tree.winnerAdvanced(!loadHead(newestRun));
            while (!tree.isEmpty() && heads.compareKeys(tree.winner(), keySlot) == 0) {
                newestRun = tree.winner();
                newestPosition = nextRecord[newestRun];
                newestKind = heads.kind(newestRun);
                nextRecord[newestRun]++;
                tree.winnerAdvanced(!loadHead(newestRun));
            }
            if (!KeyValueLayout.isRetract(newestKind)) {
                winners[newestRun][winnerCounts[newestRun]++] = newestPosition;
            }
        }
        heads.clear(keySlot);
        heads.clear(boundSlot);
    }

    // the end of the records of the tree's winner, from its head on, whose keys are below the keys of every other
    // run's head; its head when the next head has the head's key. A gallop, then a binary search: the stretches are
    // long where few keys have records in several runs
    private int soleRecordsEnd(int winner)
    {
        int nearest = -1;
        for (int run = 0; run < runs.length; run++) {
            if (run != winner && nextRecord[run] < roundEnd[run] && (nearest < 0 || heads.compareKeys(run, nearest) < 0)) {
                nearest = run;
            }
        }
        if (nearest < 0) {
            return roundEnd[winner];
        }
        return keys[winner].firstNotBelow(nextRecord[winner], roundEnd[winner], keys[nearest], nextRecord[nearest]);
    }

    // reads a run's next record into its head; false when the run has no more records up to the bound
    private boolean loadHead(int run)
    {
        if (nextRecord[run] >= roundEnd[run]) {
            heads.clear(run);
            return false;
        }
        heads.load(run, keyPages[run], nextRecord[run], 0);
        return true;
    }

    // the first record of a run's current page, from the first not merged yet, whose key is past the bound
    private int firstAfter(int run, int boundRun, int boundPosition)
    {
        PageKeys runKeys = keys[run];
        PageKeys boundKeys = keys[boundRun];
        int low = nextRecord[run];
        int high = keyPages[run].getPositionCount();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (runKeys.compare(middle, boundKeys, boundPosition) <= 0) {
                low = middle + 1;
            }
            else {
                high = middle;
            }
        }
        return low;
    }

    /** Bytes of the runs' current pages the merge holds and of their keys read out; the runs' file readers count their own. */
    long memoryUsage()
    {
        long bytes = 0;
        for (int run = 0; run < runs.length; run++) {
            if (pages[run] != null) {
                bytes += pages[run].getRetainedSizeInBytes();
            }
            bytes += keys[run].retainedBytes();
        }
        return bytes;
    }
}
