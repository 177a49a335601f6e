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
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.CharType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;
import static io.trino.plugin.paimon.merge.BlockValues.appendValue;

/**
 * {@code merge_map} and {@code merge_map_with_keytime} (merge-semantics §7.2). merge_map: the input's entries
 * overwrite the accumulator's, and a retraction removes the retracted keys. merge_map_with_keytime (Paimon 1.4,
 * values are rows with a timestamp field compared as strings): an input entry replaces the accumulator's when
 * the accumulator has none, or its value or timestamp is null, or the input's timestamp string is greater; an
 * input entry whose timestamp is null is ignored and one whose value is null removes the key. It cannot retract.
 *
 * <p>Entry order is unspecified in Paimon (a hash map); here a key stays where it first appeared.
 */
final class MergeMapAggregator
        extends CombiningAggregator
{
    private final MapType mapType;
    private final ValueEquality keyEquality;
    private final OptionalInt timestampField;
    private final Map<ValueKey, Value> entries = new LinkedHashMap<>();

    private record Value(Block block, int position)
    {
        boolean isNull()
        {
            return block.isNull(position);
        }
    }

    /**
     * @param timestampField for merge_map_with_keytime, the value row's timestamp field
     */
    MergeMapAggregator(MapType type, int channel, String context, OptionalInt timestampField)
    {
        super(type, channel, context);
        this.mapType = type;
        // Paimon hashes keys with Java's equals, by which two binary keys never match; a Trino map cannot hold
        // a key twice, so binary keys match by content here
        Type keyType = type.getKeyType();
        this.keyEquality = ValueEquality.of(keyType, keyType instanceof VarbinaryType ? ValueEquality.Mode.RECORD_EQUALISER : ValueEquality.Mode.JAVA_EQUALS);
        this.timestampField = timestampField;
    }

    @Override
    protected void combine(Page page, Block block, int position)
    {
        if (settledByNulls(page, block, position)) {
            return;
        }
        build();
        SqlMap input = (SqlMap) mapType.getObject(block, position);
        Block keys = input.getRawKeyBlock();
        Block values = input.getRawValueBlock();
        for (int i = input.getRawOffset(); i < input.getRawOffset() + input.getSize(); i++) {
            ValueKey key = new ValueKey(keys, i, keyEquality);
            Value value = new Value(values, i);
            if (timestampField.isEmpty()) {
                entries.put(key, value);
            }
            else if (value.isNull()) {
                entries.remove(key);
            }
            else if (!timestampIsNull(value)) {
                Value existing = entries.get(key);
                if (existing == null || existing.isNull() || timestampIsNull(existing) || timestamp(value).compareTo(timestamp(existing)) > 0) {
                    entries.put(key, value);
                }
            }
        }
    }

    @Override
    public void retract(Page page, int position)
    {
        if (timestampField.isPresent()) {
            throw FieldAggregator.retractUnsupported(context, "merge_map_with_keytime");
        }
        Block block = page.getBlock(channel);
        if (accumulatorIsNull() || block.isNull(position)) {
            return;
        }
        SqlMap retracted = (SqlMap) mapType.getObject(block, position);
        if (retracted.getSize() == 0) {
            return;
        }
        build();
        Block keys = retracted.getRawKeyBlock();
        for (int i = retracted.getRawOffset(); i < retracted.getRawOffset() + retracted.getSize(); i++) {
            entries.remove(new ValueKey(keys, i, keyEquality));
        }
    }

    private boolean timestampIsNull(Value value)
    {
        SqlRow row = (SqlRow) mapType.getValueType().getObject(value.block(), value.position());
        return row.getRawFieldBlock(timestampField.getAsInt()).isNull(row.getRawIndex());
    }

    // Paimon reads the field as a string whatever its type, and compares Java strings
    private String timestamp(Value value)
    {
        RowType rowType = (RowType) mapType.getValueType();
        Type fieldType = rowType.getFields().get(timestampField.getAsInt()).getType();
        if (!(fieldType instanceof VarcharType) && !(fieldType instanceof CharType)) {
            throw new TrinoException(PAIMON_MERGE_ERROR, "%s: merge_map_with_keytime compares timestamps as strings, but the timestamp field is %s".formatted(context, fieldType));
        }
        SqlRow row = (SqlRow) rowType.getObject(value.block(), value.position());
        return fieldType.getSlice(row.getRawFieldBlock(timestampField.getAsInt()), row.getRawIndex()).toStringUtf8();
    }

    private void build()
    {
        if (!isReference()) {
            return;
        }
        SqlMap map = (SqlMap) mapType.getObject(referencedBlock(), referencedPosition());
        markBuilt();
        entries.clear();
        Block keys = map.getRawKeyBlock();
        Block values = map.getRawValueBlock();
        for (int i = map.getRawOffset(); i < map.getRawOffset() + map.getSize(); i++) {
            entries.put(new ValueKey(keys, i, keyEquality), new Value(values, i));
        }
    }

    @Override
    protected void writeBuilt(BlockBuilder builder)
    {
        ((MapBlockBuilder) builder).buildEntry((keyBuilder, valueBuilder) -> {
            for (Map.Entry<ValueKey, Value> entry : entries.entrySet()) {
                appendValue(entry.getKey().block(), entry.getKey().position(), keyBuilder);
                appendValue(entry.getValue().block(), entry.getValue().position(), valueBuilder);
            }
        });
    }

    @Override
    protected void clearBuilt()
    {
        entries.clear();
    }
}
