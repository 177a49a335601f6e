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
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.type.Type;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The keys of one page of a sorted run, comparable position by position with the keys of another run's page in
 * {@link RecordComparator#compareKeys}'s order. Keys of integer-like columns ({@link RunHeads.KeyShape#LONG} and
 * {@link RunHeads.KeyShape#LONGS}) are read out of their blocks once per page into arrays, so that a merge comparing
 * each record with a few others reads no block per comparison; other keys compare on the page. One instance serves a
 * run's pages one after the other: {@link #load} reuses its arrays.
 */
public final class PageKeys
{
    private final RecordComparator comparator;
    private final Type[] keyTypes;
    private final boolean cached;
    private Page page;
    // per key column: the values by position, and the nulls (null where the block has none)
    private final long[][] values;
    private final boolean[][] nulls;
    // the first two key columns' values, for the comparison of keys without nulls; whether this page's keys have none
    private long[] firstValues;
    private long[] secondValues;
    private boolean nullFree;

    public PageKeys(RecordComparator comparator)
    {
        this.comparator = requireNonNull(comparator, "comparator is null");
        List<Type> types = comparator.keyTypes();
        this.keyTypes = types.toArray(Type[]::new);
        RunHeads.KeyShape shape = RunHeads.KeyShape.of(types);
        this.cached = shape == RunHeads.KeyShape.LONG || shape == RunHeads.KeyShape.LONGS;
        this.values = new long[cached ? keyTypes.length : 0][0];
        this.nulls = new boolean[cached ? keyTypes.length : 0][];
    }

    /** Takes the keys of a page whose first channels are the key columns. */
    public void load(Page page)
    {
        this.page = requireNonNull(page, "page is null");
        if (!cached) {
            return;
        }
        boolean anyNull = false;
        int positions = page.getPositionCount();
        for (int column = 0; column < keyTypes.length; column++) {
            Block block = page.getBlock(column);
            if (values[column].length < positions) {
                values[column] = new long[positions];
            }
            long[] columnValues = values[column];
            switch (block) {
                case LongArrayBlock longs -> {
                    for (int position = 0; position < positions; position++) {
                        columnValues[position] = longs.getLong(position);
                    }
                }
                case IntArrayBlock ints -> {
                    for (int position = 0; position < positions; position++) {
                        columnValues[position] = ints.getInt(position);
                    }
                }
                default -> {
                    Type type = keyTypes[column];
                    for (int position = 0; position < positions; position++) {
                        columnValues[position] = block.isNull(position) ? 0 : type.getLong(block, position);
                    }
                }
            }
            nulls[column] = block.mayHaveNull() ? readNulls(block, positions, nulls[column]) : null;
            anyNull |= nulls[column] != null;
        }
        nullFree = !anyNull;
        firstValues = values[0];
        secondValues = values.length > 1 ? values[1] : null;
    }

    private static boolean[] readNulls(Block block, int positions, boolean[] reused)
    {
        boolean[] result = reused != null && reused.length >= positions ? reused : new boolean[positions];
        for (int position = 0; position < positions; position++) {
            result[position] = block.isNull(position);
        }
        return result;
    }

    public Page page()
    {
        return page;
    }

    /** Key order of this page's record at {@code position} and {@code other}'s at {@code otherPosition}: nulls first. */
    public int compare(int position, PageKeys other, int otherPosition)
    {
        // small enough to be inlined where a merge compares keys in a loop: one or two columns, no nulls
        if (nullFree && other.nullFree && values.length <= 2) {
            long value = firstValues[position];
            long otherValue = other.firstValues[otherPosition];
            if (value != otherValue || secondValues == null) {
                return Long.compare(value, otherValue);
            }
            return Long.compare(secondValues[position], other.secondValues[otherPosition]);
        }
        return compareColumns(position, other, otherPosition);
    }

    private int compareColumns(int position, PageKeys other, int otherPosition)
    {
        if (!cached) {
            return comparator.compareKeys(page, position, other.page, otherPosition);
        }
        for (int column = 0; column < values.length; column++) {
            boolean[] columnNulls = nulls[column];
            boolean[] otherNulls = other.nulls[column];
            boolean isNull = columnNulls != null && columnNulls[position];
            boolean otherNull = otherNulls != null && otherNulls[otherPosition];
            if (isNull || otherNull) {
                if (isNull != otherNull) {
                    return isNull ? -1 : 1;
                }
                continue;
            }
            int result = Long.compare(values[column][position], other.values[column][otherPosition]);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    /**
     * The first position from {@code from} to {@code to} whose key is not below the key of {@code other} at
     * {@code otherPosition}, or {@code to}; the keys of this page ascend. A gallop from {@code from}, then a binary
     * search, so that a position near {@code from} costs a few comparisons.
     */
    public int firstNotBelow(int from, int to, PageKeys other, int otherPosition)
    {
        if (from >= to || compare(from, other, otherPosition) >= 0) {
            return from;
        }
        // the key at below is below the other's; the first one that is not lies after below, up to above
        int below = from;
        int above = to;
        for (int step = 1; below + step < to; step <<= 1) {
            int probe = below + step;
            if (compare(probe, other, otherPosition) >= 0) {
                above = probe;
                break;
            }
            below = probe;
        }
        int low = below + 1;
        int high = above;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (compare(middle, other, otherPosition) < 0) {
                low = middle + 1;
            }
            else {
                high = middle;
            }
        }
        return low;
    }

    /** Lets go of the page. */
    public void clear()
    {
        page = null;
    }

    /** Bytes of the arrays the keys are read into. */
    public long retainedBytes()
    {
        long bytes = 0;
        for (int column = 0; column < values.length; column++) {
            bytes += (long) values[column].length * Long.BYTES + (nulls[column] == null ? 0 : nulls[column].length);
        }
        return bytes;
    }
}
