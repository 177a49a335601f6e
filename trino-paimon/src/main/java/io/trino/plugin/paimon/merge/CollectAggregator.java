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
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.HashMap;
import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;

/**
 * {@code collect} (merge-semantics §7.2): concatenates arrays; with {@code distinct} keeps each element once. A
 * retraction removes one occurrence per retracted element.
 *
 * <p>Paimon compares primitive elements with Java's {@code equals} in a hash set, and nested elements (rows, arrays,
 * maps) with its record equaliser, against an accumulator it assumes distinct, so a value restored by a delete
 * record under remove-record-on-delete keeps its duplicates there. The order of distinct elements is unspecified in
 * Paimon; here it is the order of first appearance. Two comparisons fail in Paimon 1.4 and fail here too: a
 * distinct nested element checked against a null element of the accumulator (before any equal one), and the
 * retraction of a nested element without distinct (its columnar rows, arrays and maps cannot be compared).
 */
final class CollectAggregator
        extends CombiningAggregator
{
    private final ArrayType arrayType;
    private final Type elementType;
    private final boolean distinct;
    private final boolean nestedElements;
    private final ValueEquality equality;
    private final ValueList elements = new ValueList();
    // with distinct: the elements of the built value, to the index of their first occurrence, kept between records
    private final Map<ValueKey, Integer> seen = new HashMap<>();
    private boolean seenCurrent;
    // with distinct nested elements: the index of the first null element of the built value, or -1
    private int firstNull = -1;

    CollectAggregator(ArrayType type, int channel, String context, boolean distinct)
    {
        super(type, channel, context);
        this.arrayType = type;
        this.elementType = type.getElementType();
        this.distinct = distinct;
        this.nestedElements = elementType instanceof RowType || elementType instanceof ArrayType || elementType instanceof MapType;
        this.equality = ValueEquality.of(elementType, distinct && nestedElements ? ValueEquality.Mode.RECORD_EQUALISER : ValueEquality.Mode.JAVA_EQUALS);
    }

    @Override
    protected void combine(Page page, Block block, int position)
    {
        boolean inputIsNull = block.isNull(position);
        if (accumulatorIsNull() && inputIsNull) {
            return;
        }
        if (!distinct) {
            if (accumulatorIsNull()) {
                reference(page, block, position);
                return;
            }
            if (inputIsNull) {
                return;
            }
            build();
            elements.addAll(arrayType.getObject(block, position));
            return;
        }
        build();
        if (!seenCurrent) {
            seen.clear();
            firstNull = -1;
            for (int i = 0; i < elements.size(); i++) {
                see(elements.block(i), elements.position(i), i);
            }
            seenCurrent = true;
        }
        if (!inputIsNull) {
            Block input = arrayType.getObject(block, position);
            for (int i = 0; i < input.getPositionCount(); i++) {
                Integer first = seen.get(new ValueKey(input, i, equality));
                // Paimon scans the accumulator in order and its equaliser cannot take a null element
                if (nestedElements && firstNull >= 0 && !input.isNull(i) && (first == null || first > firstNull)) {
                    throw new TrinoException(PAIMON_MERGE_ERROR, "%s: collect with distinct cannot compare a nested element with a null element; Paimon Java 1.4 fails here with a NullPointerException".formatted(context));
                }
                if (first == null) {
                    see(input, i, elements.size());
                    elements.add(input, i);
                }
            }
        }
    }

    private boolean see(Block block, int position, int index)
    {
        if (firstNull < 0 && block.isNull(position)) {
            firstNull = index;
        }
        return seen.putIfAbsent(new ValueKey(block, position, equality), index) == null;
    }

    // Paimon does not swap the sides for collect: the accumulator is the one assumed distinct
    @Override
    public void addOlder(Page page, int position)
    {
        add(page, position);
    }

    @Override
    public void retract(Page page, int position)
    {
        Block block = page.getBlock(channel);
        if (accumulatorIsNull() || block.isNull(position)) {
            return;
        }
        Block retracted = arrayType.getObject(block, position);
        if (retracted.getPositionCount() == 0) {
            return;
        }
        build();
        // each retracted element takes away the first remaining accumulator element equal to it
        boolean[] used = new boolean[retracted.getPositionCount()];
        ValueList kept = new ValueList();
        for (int i = 0; i < elements.size(); i++) {
            if (!takeMatch(retracted, used, elements.block(i), elements.position(i))) {
                kept.add(elements.block(i), elements.position(i));
            }
        }
        elements.clear();
        for (int i = 0; i < kept.size(); i++) {
            elements.add(kept.block(i), kept.position(i));
        }
        seenCurrent = false;
    }

    private boolean takeMatch(Block retracted, boolean[] used, Block candidate, int candidatePosition)
    {
        for (int j = 0; j < used.length; j++) {
            if (used[j]) {
                continue;
            }
            if (nestedElements && !distinct && !retracted.isNull(j) && !candidate.isNull(candidatePosition)) {
                throw new TrinoException(PAIMON_MERGE_ERROR, "%s: collect without distinct cannot retract nested elements; Paimon Java 1.4 fails here (its columnar rows, arrays and maps do not support equals)".formatted(context));
            }
            if (equality.equal(retracted, j, candidate, candidatePosition)) {
                used[j] = true;
                return true;
            }
        }
        return false;
    }

    // turns the accumulator into a list of elements; a referenced value is deduplicated when distinct asks for
    // it, except for nested elements, whose accumulator Paimon takes as already distinct
    private void build()
    {
        if (!isReference() && !accumulatorIsNull()) {
            return;
        }
        Block value = isReference() ? arrayType.getObject(referencedBlock(), referencedPosition()) : null;
        markBuilt();
        elements.clear();
        seen.clear();
        firstNull = -1;
        seenCurrent = distinct;
        if (value == null) {
            return;
        }
        for (int i = 0; i < value.getPositionCount(); i++) {
            if (!distinct) {
                elements.add(value, i);
                continue;
            }
            boolean added = see(value, i, elements.size());
            if (added || nestedElements) {
                elements.add(value, i);
            }
        }
    }

    @Override
    protected void writeBuilt(BlockBuilder builder)
    {
        ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> elements.appendTo(elementType, elementBuilder));
    }

    @Override
    protected void clearBuilt()
    {
        elements.clear();
        seen.clear();
        firstNull = -1;
        seenCurrent = false;
    }
}
