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
package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.MergeFunction;
import io.trino.plugin.paimon.merge.OutputPageBuilder;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The records one bucket received since its last flush, as Paimon's write buffer holds them: each gets the next
 * sequence number of the bucket on arrival (a statement that deletes numbers its -D records in a range reserved below
 * the records it adds), and a flush hands them over sorted by (key, user sequence fields,
 * sequence number) with the records of each key folded into one by the table's merge function, so a written file
 * holds every key once (paimon-format.md §7.1). A key with a single record is written as it came (Paimon's reducer
 * rule); a folded key takes the sequence number of its last record and the row kind +I, or, when its records fold to a
 * removal, is written as its newest record (a -D), which hides the key's older rows in other files.
 * <p>
 * Records are kept in pages of the {@link KeyValueLayout}: key channels, sequence number, row kind, then every table
 * column as a value channel; the key channels share the blocks of the primary-key value channels.
 */
final class SortBuffer
{
    private static final int OUTPUT_PAGE_ROWS = 4096;
    private static final Block INSERT_KIND = kindBlock(KeyValueLayout.INSERT);
    private static final Block UPDATE_AFTER_KIND = kindBlock(KeyValueLayout.UPDATE_AFTER);
    private static final Block DELETE_KIND = kindBlock(KeyValueLayout.DELETE);

    private final KeyValueLayout layout;
    private final List<Type> valueTypes;
    private final int[] keyValueChannels;
    private final RecordComparator comparator;
    private final Supplier<MergeFunction> mergeFunctions;
    private final List<Page> pages = new ArrayList<>();
    private long retainedBytes;
    private int recordCount;
    private long nextSequenceNumber;
    private long nextDeleteSequenceNumber;
    private final long deleteSequenceLimit;
    private final boolean reservesDeletes;

    /**
     * @param keyValueChannels for each key channel, the index of its table column among the value channels
     * @param deleteRange how many sequence numbers from {@code firstSequenceNumber} on are reserved for -D records;
     * the other records are numbered after them
     */
    SortBuffer(KeyValueLayout layout, List<Type> valueTypes, int[] keyValueChannels, RecordComparator comparator, Supplier<MergeFunction> mergeFunctions, long firstSequenceNumber, long deleteRange)
    {
        this.layout = requireNonNull(layout, "layout is null");
        this.valueTypes = List.copyOf(valueTypes);
        this.keyValueChannels = keyValueChannels.clone();
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.mergeFunctions = requireNonNull(mergeFunctions, "mergeFunctions is null");
        this.nextDeleteSequenceNumber = firstSequenceNumber;
        this.deleteSequenceLimit = firstSequenceNumber + deleteRange;
        this.reservesDeletes = deleteRange > 0;
        this.nextSequenceNumber = firstSequenceNumber + deleteRange;
    }

    /** Adds the rows at the positions of a page of table columns, as records of one row kind (+I, +U or -D). */
    void add(Page rows, int[] positions, int length, byte kind)
    {
        Block kindBlock = switch (kind) {
            case KeyValueLayout.INSERT -> INSERT_KIND;
            case KeyValueLayout.UPDATE_AFTER -> UPDATE_AFTER_KIND;
            case KeyValueLayout.DELETE -> DELETE_KIND;
            default -> throw new TrinoException(PAIMON_INTERNAL_ERROR, "Row kind %s is not written by a statement".formatted(kind));
        };
        Page values = rows.copyPositions(positions, 0, length);
        long[] sequence = new long[length];
        if (kind == KeyValueLayout.DELETE && reservesDeletes) {
            if (deleteSequenceLimit - nextDeleteSequenceNumber < length) {
                throw new TrinoException(PAIMON_INTERNAL_ERROR, "More rows deleted in a bucket than its files hold: %s reserved sequence numbers left for %s deletes".formatted(deleteSequenceLimit - nextDeleteSequenceNumber, length));
            }
            for (int i = 0; i < length; i++) {
                sequence[i] = nextDeleteSequenceNumber++;
            }
        }
        else {
            for (int i = 0; i < length; i++) {
                sequence[i] = nextSequenceNumber++;
            }
        }
        Page page = keyValuePage(values, new LongArrayBlock(length, Optional.empty(), sequence), RunLengthEncodedBlock.create(kindBlock, length));
        pages.add(page);
        retainedBytes += page.getRetainedSizeInBytes();
        recordCount += length;
    }

    boolean isEmpty()
    {
        return recordCount == 0;
    }

    long retainedBytes()
    {
        return retainedBytes;
    }

    long nextSequenceNumber()
    {
        return nextSequenceNumber;
    }

    /** Hands the records over sorted and folded, in pages of the key-value layout, and empties the buffer. */
    void flush(Consumer<Page> output)
    {
        flush(Optional.empty(), output);
    }

    /**
     * Hands the records over sorted and folded, and to {@code raw}, when present, also every record as it was received,
     * sorted the same way (Paimon's input changelog); empties the buffer.
     */
    void flush(Optional<Consumer<Page>> raw, Consumer<Page> output)
    {
        int[] pageOf = new int[recordCount];
        int[] positionOf = new int[recordCount];
        int record = 0;
        for (int page = 0; page < pages.size(); page++) {
            for (int position = 0; position < pages.get(page).getPositionCount(); position++) {
                pageOf[record] = page;
                positionOf[record] = position;
                record++;
            }
        }
        int[] order = sortedRecords(pageOf, positionOf);

        MergeFunction mergeFunction = mergeFunctions.get();
        int[] valueChannels = new int[valueTypes.size()];
        for (int i = 0; i < valueChannels.length; i++) {
            valueChannels[i] = layout.firstValueChannel() + i;
        }
        OutputPageBuilder merged = new OutputPageBuilder(valueTypes, valueChannels, 1);
        merged.setComputedColumns(mergeFunction::buildComputedColumns);

        RowCopier copier = new RowCopier(output);
        RowCopier rawCopier = raw.map(RowCopier::new).orElse(null);
        int start = 0;
        while (start < order.length) {
            Page keyPage = pages.get(pageOf[order[start]]);
            int keyPosition = positionOf[order[start]];
            int end = start + 1;
            while (end < order.length && comparator.compareKeys(pages.get(pageOf[order[end]]), positionOf[order[end]], keyPage, keyPosition) == 0) {
                end++;
            }
            if (rawCopier != null) {
                for (int i = start; i < end; i++) {
                    rawCopier.add(pages.get(pageOf[order[i]]), positionOf[order[i]]);
                }
            }
            if (end - start == 1) {
                copier.add(keyPage, keyPosition);
            }
            else {
                mergeFunction.reset();
                for (int i = start; i < end; i++) {
                    Page page = pages.get(pageOf[order[i]]);
                    int position = positionOf[order[i]];
                    mergeFunction.add(page, position, TINYINT.getByte(page.getBlock(layout.kindChannel()), position));
                }
                mergeFunction.emitResult(merged);
                if (!merged.isEmpty()) {
                    Page last = pages.get(pageOf[order[end - 1]]);
                    long sequence = BIGINT.getLong(last.getBlock(layout.sequenceChannel()), positionOf[order[end - 1]]);
                    Page result = merged.build().getFirst();
                    copier.add(keyValuePage(result, new LongArrayBlock(1, Optional.empty(), new long[] {sequence}), INSERT_KIND), 0);
                }
                else {
                    // the key's records fold to a removal: the newest record, a retract, must still be written, or the
                    // rows older files hold for the key would be read again
                    copier.add(pages.get(pageOf[order[end - 1]]), positionOf[order[end - 1]]);
                }
            }
            start = end;
        }
        copier.finish();
        if (rawCopier != null) {
            rawCopier.finish();
        }
        pages.clear();
        retainedBytes = 0;
        recordCount = 0;
    }

    private static Block kindBlock(byte kind)
    {
        BlockBuilder builder = TINYINT.createFixedSizeBlockBuilder(1);
        TINYINT.writeLong(builder, kind);
        return builder.build();
    }

    private Page keyValuePage(Page values, Block sequence, Block kind)
    {
        Block[] blocks = new Block[layout.firstValueChannel() + values.getChannelCount()];
        for (int i = 0; i < keyValueChannels.length; i++) {
            blocks[i] = values.getBlock(keyValueChannels[i]);
        }
        blocks[layout.sequenceChannel()] = sequence;
        blocks[layout.kindChannel()] = kind;
        for (int i = 0; i < values.getChannelCount(); i++) {
            blocks[layout.firstValueChannel() + i] = values.getBlock(i);
        }
        return new Page(values.getPositionCount(), blocks);
    }

    // record ids in merge order: a merge sort, stable, with the record comparator
    private int[] sortedRecords(int[] pageOf, int[] positionOf)
    {
        int[] order = new int[recordCount];
        for (int i = 0; i < recordCount; i++) {
            order[i] = i;
        }
        int[] scratch = new int[recordCount];
        for (int width = 1; width < recordCount; width *= 2) {
            for (int low = 0; low < recordCount; low += 2 * width) {
                int middle = Math.min(low + width, recordCount);
                int high = Math.min(low + 2 * width, recordCount);
                int left = low;
                int right = middle;
                int target = low;
                while (left < middle && right < high) {
                    if (compare(order[right], order[left], pageOf, positionOf) < 0) {
                        scratch[target++] = order[right++];
                    }
                    else {
                        scratch[target++] = order[left++];
                    }
                }
                while (left < middle) {
                    scratch[target++] = order[left++];
                }
                while (right < high) {
                    scratch[target++] = order[right++];
                }
            }
            int[] swap = order;
            order = scratch;
            scratch = swap;
        }
        return order;
    }

    private int compare(int left, int right, int[] pageOf, int[] positionOf)
    {
        return comparator.compare(pages.get(pageOf[left]), positionOf[left], pages.get(pageOf[right]), positionOf[right]);
    }

    /**
     * Copies rows given one by one into output pages of the value, sequence and kind channels (the key channels
     * share the value blocks), appending runs of rows from one source page together.
     */
    private final class RowCopier
    {
        private final Consumer<Page> output;
        private final Page[] rowPages = new Page[OUTPUT_PAGE_ROWS];
        private final int[] rowPositions = new int[OUTPUT_PAGE_ROWS];
        private final int[] scratch = new int[OUTPUT_PAGE_ROWS];
        private int size;

        RowCopier(Consumer<Page> output)
        {
            this.output = output;
        }

        void add(Page page, int position)
        {
            rowPages[size] = page;
            rowPositions[size] = position;
            size++;
            if (size == OUTPUT_PAGE_ROWS) {
                finish();
            }
        }

        void finish()
        {
            if (size == 0) {
                return;
            }
            Block[] values = new Block[valueTypes.size()];
            for (int column = 0; column < values.length; column++) {
                values[column] = copy(valueTypes.get(column), layout.firstValueChannel() + column);
            }
            Block sequence = copy(BIGINT, layout.sequenceChannel());
            Block kind = copy(TINYINT, layout.kindChannel());
            output.accept(keyValuePage(new Page(size, values), sequence, kind));
            Arrays.fill(rowPages, 0, size, null);
            size = 0;
        }

        private Block copy(Type type, int channel)
        {
            BlockBuilder builder = type.createBlockBuilder(null, size);
            int start = 0;
            while (start < size) {
                Page page = rowPages[start];
                int end = start + 1;
                while (end < size && rowPages[end] == page) {
                    end++;
                }
                Block block = page.getBlock(channel);
                ValueBlock underlying = block.getUnderlyingValueBlock();
                for (int i = start; i < end; i++) {
                    scratch[i - start] = block.getUnderlyingValuePosition(rowPositions[i]);
                }
                builder.appendPositions(underlying, scratch, 0, end - start);
                start = end;
            }
            return builder.build();
        }
    }
}
