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

import io.trino.spi.Page;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.block.VariableWidthBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.List;

import static io.trino.plugin.paimon.merge.BlockValues.appendValue;
import static io.trino.spi.type.Chars.padSpaces;

/**
 * CHAR(n) values as Paimon stores them: padded with spaces to n characters. Flink and Spark hand Paimon padded
 * values, so its files, statistics, partition values and bucket hashes hold them padded, and Paimon Java returns what
 * is stored. Trino keeps CHAR values without trailing spaces, so every CHAR value is padded on its way into a data
 * file or a binary row, at the top level and nested in arrays, maps and rows alike; readers trim them again.
 * Padding a value that is already padded changes nothing.
 */
final class CharPadding
{
    private final List<Type> types;
    private final boolean[] padded;
    private final boolean any;

    /** Pads the channels of pages whose channel types are these. */
    CharPadding(List<Type> types)
    {
        this.types = List.copyOf(types);
        this.padded = new boolean[types.size()];
        boolean any = false;
        for (int channel = 0; channel < padded.length; channel++) {
            padded[channel] = holdsChar(types.get(channel));
            any |= padded[channel];
        }
        this.any = any;
    }

    /** The page with every CHAR value padded; the page itself when no channel holds a CHAR. */
    Page pad(Page page)
    {
        if (!any) {
            return page;
        }
        Block[] blocks = new Block[page.getChannelCount()];
        for (int channel = 0; channel < blocks.length; channel++) {
            Block block = page.getBlock(channel);
            blocks[channel] = padded[channel] ? pad(types.get(channel), block) : block;
        }
        return new Page(page.getPositionCount(), blocks);
    }

    static boolean holdsChar(Type type)
    {
        return switch (type) {
            case CharType _ -> true;
            case ArrayType array -> holdsChar(array.getElementType());
            case MapType map -> holdsChar(map.getKeyType()) || holdsChar(map.getValueType());
            case RowType row -> row.getTypeParameters().stream().anyMatch(CharPadding::holdsChar);
            default -> false;
        };
    }

    static Block pad(Type type, Block block)
    {
        int positions = block.getPositionCount();
        BlockBuilder builder = type.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            append(type, block, position, builder);
        }
        return builder.build();
    }

    private static void append(Type type, Block block, int position, BlockBuilder builder)
    {
        if (block.isNull(position)) {
            builder.appendNull();
            return;
        }
        switch (type) {
            // CharType.writeSlice refuses trailing spaces, which are the point here
            case CharType charType -> ((VariableWidthBlockBuilder) builder).writeEntry(padSpaces(charType.getSlice(block, position), charType));
            case ArrayType array when holdsChar(array) -> {
                Block elements = array.getObject(block, position);
                ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> {
                    for (int i = 0; i < elements.getPositionCount(); i++) {
                        append(array.getElementType(), elements, i, elementBuilder);
                    }
                });
            }
            case MapType map when holdsChar(map) -> {
                SqlMap entries = map.getObject(block, position);
                int offset = entries.getRawOffset();
                Block keys = entries.getRawKeyBlock();
                Block values = entries.getRawValueBlock();
                ((MapBlockBuilder) builder).buildEntry((keyBuilder, valueBuilder) -> {
                    for (int i = 0; i < entries.getSize(); i++) {
                        append(map.getKeyType(), keys, offset + i, keyBuilder);
                        append(map.getValueType(), values, offset + i, valueBuilder);
                    }
                });
            }
            case RowType row when holdsChar(row) -> {
                SqlRow fields = row.getObject(block, position);
                int index = fields.getRawIndex();
                ((RowBlockBuilder) builder).buildEntry(fieldBuilders -> {
                    for (int i = 0; i < fields.getFieldCount(); i++) {
                        append(row.getTypeParameters().get(i), fields.getRawFieldBlock(i), index, fieldBuilders.get(i));
                    }
                });
            }
            default -> appendValue(block, position, builder);
        }
    }
}
