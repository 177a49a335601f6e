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
package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;
import static io.trino.plugin.paimon.merge.TypeValues.objectValue;
import static java.util.Objects.requireNonNull;

/**
 * Merges the sorted runs of one section: a loser tree yields records in (key, user sequence, sequence number)
 * order; the records of one key are gathered and folded into at most one row (merge-semantics §2.5 - §2.8):
 * <ul>
 * <li>a key with exactly one record skips the merge function (Paimon's rule);</li>
 * <li>in lookup-mode tables only the level-0 records and the record of the shallowest non-zero level take part,
 * since deeper levels hold values the shallower one already includes (§2.7);</li>
 * <li>a result of a retract kind (-U, -D) is dropped.</li>
 * </ul>
 * Memory is bounded by the runs' current pages plus the pages that the records of one key refer to. The tree compares
 * the runs' heads as {@link RunHeads} cached them when each run advanced, so a record's key is read once, not once per
 * match; a key whose only record is the winner is emitted from its run without being gathered.
 */
public final class SortMergeReader
{
    private final SortedRunCursor[] runs;
    private final RecordComparator comparator;
    private final RunHeads heads;
    private final MergeFunction mergeFunction;
    private final boolean lookupMode;
    private final LoserTree tree;

    // the records of the current key, oldest first
    private Page[] keyPages = new Page[8];
    private int[] keyPositions = new int[8];
    private int[] keyLevels = new int[8];
    private byte[] keyKinds = new byte[8];
    private int keyRecords;

    public SortMergeReader(List<SortedRunCursor> runs, RecordComparator comparator, KeyValueLayout layout, MergeFunction mergeFunction, boolean lookupMode)
    {
        this.runs = runs.toArray(SortedRunCursor[]::new);
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.mergeFunction = requireNonNull(mergeFunction, "mergeFunction is null");
        this.lookupMode = lookupMode;
        this.heads = new RunHeads(this.runs.length, comparator, layout);
        boolean[] exhausted = new boolean[this.runs.length];
        for (int i = 0; i < this.runs.length; i++) {
            exhausted[i] = !loadNext(i);
        }
        this.tree = new LoserTree(this.runs.length, exhausted, heads);
    }

    public boolean isFinished()
    {
        return tree.isEmpty();
    }

    /** Merges keys into the output until it is full or the runs are exhausted. */
    public void mergeInto(OutputPageBuilder output)
    {
        output.setComputedColumns(mergeFunction::buildComputedColumns);
        while (!tree.isEmpty() && !output.isFull()) {
            int winner = tree.winner();
            Page page = heads.page(winner);
            int position = heads.position(winner);
            int level = heads.level(winner);
            byte kind = heads.kind(winner);
            if (takeWinner()) {
                // the key's only record: taken straight from its run, nothing gathered
                if (!KeyValueLayout.isRetract(kind)) {
                    output.add(page, position);
                }
                continue;
            }
            gatherKey(page, position, level, kind);
            mergeKey(output);
            releaseKey();
        }
    }

    /**
     * Compaction: merges keys into records to write, until the output is full or the runs are exhausted. Unlike a
     * read, every key keeps a record with its sequence number and row kind (see {@link CompactedRecords}); a key whose
     * records fold to nothing, or whose only record retracts, keeps its newest record (a retraction that hides the
     * key's rows in older files) unless {@code dropRetracts}: Paimon drops them only when the output is the oldest data
     * of the bucket (its compaction to the highest non-empty level, merge-semantics §2.9).
     */
    public void compactInto(CompactedRecords output, boolean dropRetracts)
    {
        output.setComputedColumns(mergeFunction::buildComputedColumns);
        while (!tree.isEmpty() && !output.isFull()) {
            int winner = tree.winner();
            Page page = heads.page(winner);
            int position = heads.position(winner);
            int level = heads.level(winner);
            byte kind = heads.kind(winner);
            if (takeWinner()) {
                if (!dropRetracts || !KeyValueLayout.isRetract(kind)) {
                    output.addRecord(page, position);
                }
                continue;
            }
            gatherKey(page, position, level, kind);
            int newest = keyRecords - 1;
            int rowsBefore = output.values().size();
            mergeKey(output.values());
            if (!output.completeMerged(rowsBefore, keyPages[newest], keyPositions[newest]) && !dropRetracts) {
                output.addRecord(keyPages[newest], keyPositions[newest]);
            }
            releaseKey();
        }
    }

    public long memoryUsage()
    {
        long bytes = 0;
        for (SortedRunCursor run : runs) {
            bytes += run.memoryUsage();
        }
        return bytes;
    }

    /**
     * Takes the winning record as the first of its key and moves its run on; true when it is the key's only record
     * (the next winner has another key, or the runs are exhausted).
     */
    private boolean takeWinner()
    {
        int winner = tree.winner();
        heads.rememberKey(winner);
        tree.winnerAdvanced(!loadNext(winner));
        return tree.isEmpty() || heads.compareKeys(tree.winner(), heads.keySlot()) != 0;
    }

    // the records of a key with several: the first one (already taken by takeWinner), then the rest from the tree
    private void gatherKey(Page firstPage, int firstPosition, int firstLevel, byte firstKind)
    {
        keyRecords = 0;
        addRecord(firstPage, firstPosition, firstLevel, firstKind);
        do {
            int winner = tree.winner();
            addRecord(heads.page(winner), heads.position(winner), heads.level(winner), heads.kind(winner));
            tree.winnerAdvanced(!loadNext(winner));
        }
        while (!tree.isEmpty() && heads.compareKeys(tree.winner(), heads.keySlot()) == 0);
    }

    // lets go of the pages the key referred to
    private void releaseKey()
    {
        Arrays.fill(keyPages, 0, keyRecords, null);
        heads.clear(heads.keySlot());
    }

    // moves a run to its next record and reads it into the run's head slot; false when the run is exhausted
    private boolean loadNext(int run)
    {
        SortedRunCursor cursor = runs[run];
        if (!cursor.advance()) {
            heads.clear(run);
            return false;
        }
        heads.load(run, cursor.page(), cursor.position(), cursor.level());
        return true;
    }

    private void mergeKey(OutputPageBuilder output)
    {
        mergeFunction.reset();
        int shallowest = -1;
        if (lookupMode) {
            for (int i = 0; i < keyRecords; i++) {
                if (keyLevels[i] > 0 && (shallowest < 0 || keyLevels[i] < keyLevels[shallowest])) {
                    shallowest = i;
                }
            }
        }
        try {
            for (int i = 0; i < keyRecords; i++) {
                if (lookupMode && keyLevels[i] > 0 && i != shallowest) {
                    continue;
                }
                mergeFunction.add(keyPages[i], keyPositions[i], keyKinds[i]);
            }
        }
        catch (TrinoException e) {
            if (!e.getErrorCode().equals(PAIMON_MERGE_ERROR.toErrorCode())) {
                throw e;
            }
            throw new TrinoException(PAIMON_MERGE_ERROR, "%s (primary key %s)".formatted(e.getMessage(), describeKey(keyPages[0], keyPositions[0])), e);
        }
        mergeFunction.emitResult(output);
    }

    // the key as a user would write it, for errors
    private String describeKey(Page page, int position)
    {
        List<Type> keyTypes = comparator.keyTypes();
        StringJoiner key = new StringJoiner(", ", "(", ")");
        for (int channel = 0; channel < keyTypes.size(); channel++) {
            Block block = page.getBlock(channel);
            key.add(block.isNull(position) ? "NULL" : String.valueOf(objectValue(keyTypes.get(channel), block, position)));
        }
        return key.toString();
    }

    private void addRecord(Page page, int position, int level, byte kind)
    {
        if (keyRecords == keyPages.length) {
            int capacity = keyRecords * 2;
            keyPages = Arrays.copyOf(keyPages, capacity);
            keyPositions = Arrays.copyOf(keyPositions, capacity);
            keyLevels = Arrays.copyOf(keyLevels, capacity);
            keyKinds = Arrays.copyOf(keyKinds, capacity);
        }
        keyPages[keyRecords] = page;
        keyPositions[keyRecords] = position;
        keyLevels[keyRecords] = level;
        keyKinds[keyRecords] = kind;
        keyRecords++;
    }
}
