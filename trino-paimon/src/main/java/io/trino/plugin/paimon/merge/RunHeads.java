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

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The head record of each sorted run of a merge, in slots, with what the merge compares read once when a run
 * advances rather than once per comparison: the sequence number, the row kind, and, for a key of common types, the
 * key's raw values (a {@code long} per column of integers, dates, short decimals or timestamps, or the bytes of a
 * single string column as a view of its page). Heads then compare in {@link RecordComparator}'s order without reading
 * blocks; other keys and user sequence fields still compare on the pages. One extra slot, {@link #keySlot()}, remembers the key the merge is gathering records for.
 */
public final class RunHeads
        implements LoserTree.HeadComparator
{
    /** How a key compares once cached. */
    enum KeyShape
    {
        /** One column whose values order as signed longs (merge-semantics §2.3, paimon-format.md §10). */
        LONG,
        /** Several columns whose values each order as signed longs, compared column by column, nulls first in each. */
        LONGS,
        /** One column of strings or binaries: unsigned bytewise, then the shorter first, as Paimon's BinaryString. */
        BYTES,
        /** Anything else: compared on the pages by {@link RecordComparator#compareKeys}. */
        GENERIC;

        static KeyShape of(List<Type> keyTypes)
        {
            if (keyTypes.size() > 1) {
                return keyTypes.stream().allMatch(KeyShape::ordersAsLong) ? LONGS : GENERIC;
            }
            if (keyTypes.isEmpty()) {
                return GENERIC;
            }
            Type type = keyTypes.getFirst();
            if (ordersAsLong(type)) {
                return LONG;
            }
            return type instanceof VarcharType || type instanceof VarbinaryType ? BYTES : GENERIC;
        }

        // CHAR values order as padded (see BlockValueComparator), not bytewise, and take the generic path
        private static boolean ordersAsLong(Type type)
        {
            return switch (type) {
                case BigintType _, IntegerType _, SmallintType _, TinyintType _, DateType _ -> true;
                case DecimalType decimal -> decimal.isShort();
                case TimestampType timestamp -> timestamp.isShort();
                default -> false;
            };
        }
    }

    private final RecordComparator comparator;
    private final KeyShape shape;
    private final Type keyType;
    private final boolean userSequence;
    private final int sequenceChannel;
    private final int kindChannel;

    private final Page[] pages;
    private final int[] positions;
    private final int[] levels;
    private final long[] sequences;
    private final byte[] kinds;
    private final boolean[] nullKeys;
    private final long[] longKeys;
    // LONGS: the key columns' types, and each slot's values and nulls, one run of the width of a key per slot
    private final Type[] keyTypes;
    private final long[] compositeKeys;
    private final boolean[] compositeNulls;
    private final Slice[] byteKeys;
    private final int[] byteKeyOffsets;
    private final int[] byteKeyLengths;

    public RunHeads(int runs, RecordComparator comparator, KeyValueLayout layout)
    {
        checkArgument(runs > 0, "a merge needs at least one run");
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.shape = KeyShape.of(comparator.keyTypes());
        this.keyType = comparator.keyTypes().isEmpty() ? null : comparator.keyTypes().getFirst();
        this.userSequence = layout.userSequenceChannels().length > 0;
        this.sequenceChannel = layout.sequenceChannel();
        this.kindChannel = layout.kindChannel();
        int slots = runs + 1;
        this.pages = new Page[slots];
        this.positions = new int[slots];
        this.levels = new int[slots];
        this.sequences = new long[slots];
        this.kinds = new byte[slots];
        this.nullKeys = new boolean[slots];
        this.longKeys = shape == KeyShape.LONG ? new long[slots] : null;
        this.keyTypes = comparator.keyTypes().toArray(Type[]::new);
        this.compositeKeys = shape == KeyShape.LONGS ? new long[slots * keyTypes.length] : null;
        this.compositeNulls = shape == KeyShape.LONGS ? new boolean[slots * keyTypes.length] : null;
        this.byteKeys = shape == KeyShape.BYTES ? new Slice[slots] : null;
        this.byteKeyOffsets = shape == KeyShape.BYTES ? new int[slots] : null;
        this.byteKeyLengths = shape == KeyShape.BYTES ? new int[slots] : null;
    }

    KeyShape shape()
    {
        return shape;
    }

    /** The slot that {@link #rememberKey} fills: one past the runs' slots. */
    public int keySlot()
    {
        return pages.length - 1;
    }

    /** Reads the record at {@code position} of {@code page} into a run's slot. */
    public void load(int slot, Page page, int position, int level)
    {
        pages[slot] = page;
        positions[slot] = position;
        levels[slot] = level;
        sequences[slot] = BIGINT.getLong(page.getBlock(sequenceChannel), position);
        kinds[slot] = TINYINT.getByte(page.getBlock(kindChannel), position);
        if (shape == KeyShape.GENERIC) {
            return;
        }
        if (shape == KeyShape.LONGS) {
            int offset = slot * keyTypes.length;
            for (int column = 0; column < keyTypes.length; column++) {
                Block block = page.getBlock(column);
                boolean isNull = block.isNull(position);
                compositeNulls[offset + column] = isNull;
                compositeKeys[offset + column] = isNull ? 0 : keyTypes[column].getLong(block, position);
            }
            return;
        }
        Block keyBlock = page.getBlock(0);
        boolean isNull = keyBlock.isNull(position);
        nullKeys[slot] = isNull;
        if (shape == KeyShape.LONG) {
            longKeys[slot] = isNull ? 0 : keyType.getLong(keyBlock, position);
        }
        else if (isNull) {
            byteKeys[slot] = null;
        }
        else {
            VariableWidthBlock values = (VariableWidthBlock) keyBlock.getUnderlyingValueBlock();
            int valuePosition = keyBlock.getUnderlyingValuePosition(position);
            byteKeys[slot] = values.getRawSlice();
            byteKeyOffsets[slot] = values.getRawSliceOffset(valuePosition);
            byteKeyLengths[slot] = values.getSliceLength(valuePosition);
        }
    }

    /** Lets go of the page a slot refers to (its run is exhausted, or its key is merged). */
    public void clear(int slot)
    {
        pages[slot] = null;
        if (byteKeys != null) {
            byteKeys[slot] = null;
        }
    }

    /** Copies the key of a run's head into {@link #keySlot()}; a view, no bytes are copied. */
    public void rememberKey(int slot)
    {
        int keySlot = keySlot();
        pages[keySlot] = pages[slot];
        positions[keySlot] = positions[slot];
        nullKeys[keySlot] = nullKeys[slot];
        if (longKeys != null) {
            longKeys[keySlot] = longKeys[slot];
        }
        if (compositeKeys != null) {
            System.arraycopy(compositeKeys, slot * keyTypes.length, compositeKeys, keySlot * keyTypes.length, keyTypes.length);
            System.arraycopy(compositeNulls, slot * keyTypes.length, compositeNulls, keySlot * keyTypes.length, keyTypes.length);
        }
        if (byteKeys != null) {
            byteKeys[keySlot] = byteKeys[slot];
            byteKeyOffsets[keySlot] = byteKeyOffsets[slot];
            byteKeyLengths[keySlot] = byteKeyLengths[slot];
        }
    }

    public Page page(int slot)
    {
        return pages[slot];
    }

    public int position(int slot)
    {
        return positions[slot];
    }

    public int level(int slot)
    {
        return levels[slot];
    }

    public byte kind(int slot)
    {
        return kinds[slot];
    }

    /** Full record order of two slots: key, user sequence fields, sequence number. */
    @Override
    public int compare(int left, int right)
    {
        int result = compareKeys(left, right);
        if (result != 0) {
            return result;
        }
        if (userSequence) {
            result = comparator.compareUserSequence(pages[left], positions[left], pages[right], positions[right]);
            if (result != 0) {
                return result;
            }
        }
        return Long.compare(sequences[left], sequences[right]);
    }

    /** Key order of two slots, the same as {@link RecordComparator#compareKeys} on their records: nulls first. */
    public int compareKeys(int left, int right)
    {
        if (shape == KeyShape.GENERIC) {
            return comparator.compareKeys(pages[left], positions[left], pages[right], positions[right]);
        }
        if (shape == KeyShape.LONGS) {
            return compareComposite(left, right);
        }
        boolean leftNull = nullKeys[left];
        boolean rightNull = nullKeys[right];
        if (leftNull || rightNull) {
            if (leftNull == rightNull) {
                return 0;
            }
            return leftNull ? -1 : 1;
        }
        if (shape == KeyShape.LONG) {
            return Long.compare(longKeys[left], longKeys[right]);
        }
        return byteKeys[left].compareTo(byteKeyOffsets[left], byteKeyLengths[left], byteKeys[right], byteKeyOffsets[right], byteKeyLengths[right]);
    }

    private int compareComposite(int left, int right)
    {
        int width = keyTypes.length;
        int leftOffset = left * width;
        int rightOffset = right * width;
        for (int column = 0; column < width; column++) {
            boolean leftNull = compositeNulls[leftOffset + column];
            boolean rightNull = compositeNulls[rightOffset + column];
            if (leftNull || rightNull) {
                if (leftNull != rightNull) {
                    return leftNull ? -1 : 1;
                }
                continue;
            }
            int result = Long.compare(compositeKeys[leftOffset + column], compositeKeys[rightOffset + column]);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }
}
