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

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * listagg as in Paimon 1.4: strings joined with the delimiter; nulls and empty inputs add nothing (an empty
 * accumulator gives way to the next input). With {@code fields.<f>.distinct} the input is split at the
 * delimiter and only tokens not yet in the accumulator are appended. Cannot retract.
 */
final class ListaggAggregator
        implements FieldAggregator
{
    private final int channel;
    private final Slice delimiter;
    private final boolean distinct;
    private final String context;
    private Slice value;

    ListaggAggregator(int channel, Slice delimiter, boolean distinct, String context)
    {
        this.channel = channel;
        this.delimiter = requireNonNull(delimiter, "delimiter is null");
        this.distinct = distinct;
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public void reset()
    {
        value = null;
    }

    @Override
    public void add(Page page, int position)
    {
        value = concat(value, input(page, position));
    }

    @Override
    public void addOlder(Page page, int position)
    {
        value = concat(input(page, position), value);
    }

    @Override
    public void retract(Page page, int position)
    {
        throw FieldAggregator.retractUnsupported(context, "listagg");
    }

    @Override
    public void set(Page page, int position)
    {
        value = input(page, position);
    }

    @Override
    public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
    {
        if (value == null) {
            rowPages[column] = null;
            return;
        }
        rowPages[column] = OutputPageBuilder.COMPUTED;
        rowPositions[column] = computed.getPositionCount();
        VARCHAR.writeSlice(computed, value);
    }

    private Slice input(Page page, int position)
    {
        Block block = page.getBlock(channel);
        return block.isNull(position) ? null : VARCHAR.getSlice(block, position);
    }

    private Slice concat(Slice accumulator, Slice input)
    {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        if (input.length() == 0) {
            return accumulator;
        }
        if (accumulator.length() == 0) {
            return input;
        }
        DynamicSliceOutput output = new DynamicSliceOutput(accumulator.length() + delimiter.length() + input.length());
        output.writeBytes(accumulator);
        if (!distinct) {
            output.writeBytes(delimiter);
            output.writeBytes(input);
            return output.slice();
        }
        Set<Slice> tokens = new HashSet<>(tokens(accumulator));
        for (Slice token : tokens(input)) {
            if (token.length() > 0 && tokens.add(token)) {
                output.writeBytes(delimiter);
                output.writeBytes(token);
            }
        }
        return output.slice();
    }

    // the pieces between delimiters, empty ones included
    private List<Slice> tokens(Slice text)
    {
        if (delimiter.length() == 0) {
            return List.of(text);
        }
        List<Slice> tokens = new ArrayList<>();
        int start = 0;
        while (true) {
            int found = text.indexOf(delimiter, start);
            if (found < 0) {
                tokens.add(text.slice(start, text.length() - start));
                return tokens;
            }
            tokens.add(text.slice(start, found - start));
            start = found + delimiter.length();
        }
    }
}
