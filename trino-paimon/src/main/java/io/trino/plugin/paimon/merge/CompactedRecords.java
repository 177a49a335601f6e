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
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The records a compaction writes, in key order, each with the sequence number and row kind Paimon's compaction gives
 * it (paimon-format.md §7.1): a key's lone record is kept as it is; a record the merge function picked whole keeps its
 * own sequence number and kind (deduplicate's newest, first-row's oldest); a row combined from several records takes
 * the sequence number of the key's last record in merge order and the kind +I (partial-update, aggregation). Pages
 * come out in the key-value layout of a data file: key channels, sequence number, row kind, every table column.
 * <p>
 * The merge function writes into the value builder, which holds every table column; the key channels of the output
 * are the value columns of the primary key, as in a file Paimon writes.
 */
public final class CompactedRecords
{
    private final KeyValueLayout layout;
    private final int[] keyValueColumns;
    private final OutputPageBuilder values;
    private final long[] sequences;
    private final byte[] kinds;

    /**
     * @param layout where keys, sequence, kind and values lie in the source pages; its output channels are every table
     * column in table order
     * @param keyValueColumns for each key channel, the index of its column among the table columns
     */
    public CompactedRecords(KeyValueLayout layout, List<Type> valueTypes, int[] keyValueColumns, int capacity)
    {
        this.layout = requireNonNull(layout, "layout is null");
        this.keyValueColumns = keyValueColumns.clone();
        this.values = OutputPageBuilder.ordered(valueTypes, layout.outputChannels(), capacity);
        this.sequences = new long[capacity];
        this.kinds = new byte[capacity];
    }

    void setComputedColumns(Supplier<Block[]> computedColumns)
    {
        values.setComputedColumns(computedColumns);
    }

    /** Where a merge function writes a key's merged row; {@link #completeMerged} then gives it its sequence and kind. */
    OutputPageBuilder values()
    {
        return values;
    }

    /** Adds a source record as it is. */
    void addRecord(Page page, int position)
    {
        int row = values.size();
        values.add(page, position);
        sequences[row] = BIGINT.getLong(page.getBlock(layout.sequenceChannel()), position);
        kinds[row] = TINYINT.getByte(page.getBlock(layout.kindChannel()), position);
    }

    /**
     * Called after the merge function of a key emitted its result into {@link #values()}.
     *
     * @param rowsBefore the number of rows before the merge function emitted
     * @param last the key's last record in merge order
     * @return whether the merge function emitted a row
     */
    boolean completeMerged(int rowsBefore, Page last, int lastPosition)
    {
        if (values.size() == rowsBefore) {
            return false;
        }
        Page record = values.recordPage(rowsBefore);
        if (record != null) {
            int position = values.recordPosition(rowsBefore);
            sequences[rowsBefore] = BIGINT.getLong(record.getBlock(layout.sequenceChannel()), position);
            kinds[rowsBefore] = TINYINT.getByte(record.getBlock(layout.kindChannel()), position);
        }
        else {
            sequences[rowsBefore] = BIGINT.getLong(last.getBlock(layout.sequenceChannel()), lastPosition);
            kinds[rowsBefore] = KeyValueLayout.INSERT;
        }
        return true;
    }

    public boolean isFull()
    {
        return values.isFull();
    }

    public boolean isEmpty()
    {
        return values.isEmpty();
    }

    /** The collected records as one key-value page, in the order they were added; the builder is empty afterwards. */
    public Page build()
    {
        int size = values.size();
        Page valuePage = values.build().getFirst();
        Block[] blocks = new Block[layout.firstValueChannel() + valuePage.getChannelCount()];
        for (int i = 0; i < keyValueColumns.length; i++) {
            blocks[i] = valuePage.getBlock(keyValueColumns[i]);
        }
        blocks[layout.sequenceChannel()] = new LongArrayBlock(size, Optional.empty(), Arrays.copyOf(sequences, size));
        blocks[layout.kindChannel()] = new ByteArrayBlock(size, Optional.empty(), Arrays.copyOf(kinds, size));
        for (int i = 0; i < valuePage.getChannelCount(); i++) {
            blocks[layout.firstValueChannel() + i] = valuePage.getBlock(i);
        }
        return new Page(size, blocks);
    }
}
