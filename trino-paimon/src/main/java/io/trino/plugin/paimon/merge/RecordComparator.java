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
import io.trino.spi.type.BigintType;
import io.trino.spi.type.Type;

import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static java.util.Objects.requireNonNull;

/**
 * Orders the records of a bucket as Paimon merges them (merge-semantics §2.3): by key, then by the user sequence
 * fields (nulls oldest in both orders; descending flips only non-null comparisons), then by sequence number. Keys
 * compare with {@link #compareKeys}; a single BIGINT key, the most common shape, has its own loop-free path.
 */
public final class RecordComparator
{
    private final KeyValueLayout layout;
    private final BlockValueComparator[] keyComparators;
    private final BlockValueComparator[] sequenceComparators;
    private final boolean singleBigintKey;
    private final List<Type> keyTypes;

    public RecordComparator(KeyValueLayout layout, List<Type> keyTypes, List<Type> userSequenceTypes)
    {
        this.layout = requireNonNull(layout, "layout is null");
        this.keyComparators = keyTypes.stream().map(BlockValueComparator::forType).toArray(BlockValueComparator[]::new);
        this.sequenceComparators = userSequenceTypes.stream().map(BlockValueComparator::forType).toArray(BlockValueComparator[]::new);
        this.singleBigintKey = keyTypes.size() == 1 && keyTypes.getFirst() instanceof BigintType;
        this.keyTypes = List.copyOf(keyTypes);
    }

    public List<Type> keyTypes()
    {
        return keyTypes;
    }

    public int compareKeys(Page left, int leftPosition, Page right, int rightPosition)
    {
        if (singleBigintKey) {
            Block leftBlock = left.getBlock(0);
            Block rightBlock = right.getBlock(0);
            // keys of a table with nullable primary keys take the general path
            if (!leftBlock.mayHaveNull() && !rightBlock.mayHaveNull()) {
                return Long.compare(BIGINT.getLong(leftBlock, leftPosition), BIGINT.getLong(rightBlock, rightPosition));
            }
        }
        for (int channel = 0; channel < keyComparators.length; channel++) {
            Block leftBlock = left.getBlock(channel);
            Block rightBlock = right.getBlock(channel);
            // keys are NOT NULL in Paimon 1.x tables; nullable keys order nulls first
            boolean leftNull = leftBlock.isNull(leftPosition);
            boolean rightNull = rightBlock.isNull(rightPosition);
            if (leftNull || rightNull) {
                if (leftNull != rightNull) {
                    return leftNull ? -1 : 1;
                }
                continue;
            }
            int result = keyComparators[channel].compare(leftBlock, leftPosition, rightBlock, rightPosition);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    /** Full record order: key, user sequence fields, sequence number. */
    public int compare(Page left, int leftPosition, Page right, int rightPosition)
    {
        int result = compareKeys(left, leftPosition, right, rightPosition);
        if (result != 0) {
            return result;
        }
        result = compareUserSequence(left, leftPosition, right, rightPosition);
        if (result != 0) {
            return result;
        }
        int sequenceChannel = layout.sequenceChannel();
        return Long.compare(BIGINT.getLong(left.getBlock(sequenceChannel), leftPosition), BIGINT.getLong(right.getBlock(sequenceChannel), rightPosition));
    }

    /** Order of two records of one key by the user sequence fields alone; 0 when the table has none. */
    public int compareUserSequence(Page left, int leftPosition, Page right, int rightPosition)
    {
        int[] sequenceChannels = layout.userSequenceChannels();
        for (int i = 0; i < sequenceChannels.length; i++) {
            Block leftBlock = left.getBlock(sequenceChannels[i]);
            Block rightBlock = right.getBlock(sequenceChannels[i]);
            boolean leftNull = leftBlock.isNull(leftPosition);
            boolean rightNull = rightBlock.isNull(rightPosition);
            if (leftNull || rightNull) {
                if (leftNull != rightNull) {
                    return leftNull ? -1 : 1;
                }
                continue;
            }
            int result = sequenceComparators[i].compare(leftBlock, leftPosition, rightBlock, rightPosition);
            if (result != 0) {
                return layout.userSequenceDescending() ? -result : result;
            }
        }
        return 0;
    }
}
