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

import io.trino.plugin.paimon.merge.MergeEngineSpec.FieldAggregation;
import io.trino.plugin.paimon.merge.MergeEngineSpec.SequenceGroup;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The merge function a spec yields for a channel layout other than the reader's, as a page sink has: value fields
 * in any channel order, the merged row's columns picked by channel. Expected rows are worked out by hand from
 * merge-semantics §5 and §7.
 */
final class TestMergeFunctionFactory
{
    @Test
    void aggregationFoldsEachOutputColumnFromItsOwnChannel()
    {
        // table (k, a, b): a sum, b max; pages (key k, seq, kind, b, k, a), merged row (k, a, b)
        MergeEngineSpec spec = spec(MergeEngine.AGGREGATION, List.of("k", "a", "b"), List.of(),
                Map.of("a", function("sum"), "b", function("max")), false);
        List<ValueColumn> values = List.of(value("b", 3), value("k", 4), value("a", 5));
        MergeFunction function = new MergeFunctionFactory(spec, values, new int[] {4, 5, 3}).create();

        Page page = page(
                row(1, 1, KeyValueLayout.INSERT, 5L, 1L, 1L),
                row(1, 2, KeyValueLayout.INSERT, 3L, 1L, 2L),
                row(1, 3, KeyValueLayout.INSERT, 4L, 1L, 4L));
        // sum of a = 1 + 2 + 4 = 7, max of b = 5
        assertThat(merge(function, page, new int[] {4, 5, 3})).containsExactly(Arrays.asList(1L, 7L, 5L));
    }

    @Test
    void partialUpdateOrdersGroupMembersByTheirGroupSequence()
    {
        // table (k, a, g, b): g orders a, b is plain; pages (key k, seq, kind, b, g, a, k), merged row (k, a, b)
        MergeEngineSpec spec = spec(MergeEngine.PARTIAL_UPDATE, List.of("k", "a", "g", "b"),
                List.of(new SequenceGroup(List.of("g"), List.of("a"), false)), Map.of(), false);
        List<ValueColumn> values = List.of(value("b", 3), value("g", 4), value("a", 5), value("k", 6));
        MergeFunction function = new MergeFunctionFactory(spec, values, new int[] {6, 5, 3}).create();

        Page page = page(
                row(1, 1, KeyValueLayout.INSERT, 10L, 2L, 1L, 1L),
                row(1, 2, KeyValueLayout.INSERT, null, 1L, 9L, 1L));
        // the second record's group sequence (1) is behind the stored one (2): a stays 1; b takes its newest
        // non-null value, 10
        assertThat(merge(function, page, new int[] {6, 5, 3})).containsExactly(Arrays.asList(1L, 1L, 10L));
    }

    @Test
    void aggregationRejectsIgnoreRetractWithRemoveRecordOnDeleteForTheColumnsMerged()
    {
        MergeEngineSpec spec = spec(MergeEngine.AGGREGATION, List.of("k", "s", "t"), List.of(),
                Map.of("s", new FieldAggregation(Optional.of("sum"), true, ",", false, List.of(), Integer.MAX_VALUE, Optional.empty())), true);
        assertThatThrownBy(() -> new MergeFunctionFactory(spec, List.of(value("k", 3), value("s", 4)), new int[] {3, 4}))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_TABLE_OPTION.toErrorCode()))
                .hasMessage("Table db.t: Key: 'aggregation.remove-record-on-delete' , default: false (fallback keys: []) and fields.s.ignore-retract have conflicting behavior so should not be enabled at the same time.");
        // a layout without s merges no s: nothing to reject
        new MergeFunctionFactory(spec, List.of(value("k", 3), value("t", 4)), new int[] {3, 4}).create();
    }

    private static MergeEngineSpec spec(MergeEngine engine, List<String> fields, List<SequenceGroup> groups, Map<String, FieldAggregation> aggregations, boolean removeRecordOnDelete)
    {
        return new MergeEngineSpec("db.t", engine, false, fields, Set.of("k"), List.of(), groups, aggregations, Optional.empty(), removeRecordOnDelete);
    }

    private static FieldAggregation function(String name)
    {
        return new FieldAggregation(Optional.of(name), false, ",", false, List.of(), Integer.MAX_VALUE, Optional.empty());
    }

    private static ValueColumn value(String field, int channel)
    {
        return new ValueColumn(field, BIGINT, channel);
    }

    private static List<List<Long>> merge(MergeFunction function, Page page, int[] outputChannels)
    {
        List<Type> types = Arrays.stream(outputChannels).mapToObj(_ -> (Type) BIGINT).toList();
        OutputPageBuilder output = new OutputPageBuilder(types, outputChannels, 16);
        output.setComputedColumns(function::buildComputedColumns);
        function.reset();
        for (int position = 0; position < page.getPositionCount(); position++) {
            function.add(page, position, TINYINT.getByte(page.getBlock(2), position));
        }
        function.emitResult(output);
        List<List<Long>> rows = new ArrayList<>();
        for (Page result : output.build()) {
            for (int position = 0; position < result.getPositionCount(); position++) {
                List<Long> row = new ArrayList<>();
                for (int column = 0; column < result.getChannelCount(); column++) {
                    Block block = result.getBlock(column);
                    row.add(block.isNull(position) ? null : BIGINT.getLong(block, position));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Object[] row(long key, long sequence, byte kind, Long... values)
    {
        Object[] row = new Object[3 + values.length];
        row[0] = key;
        row[1] = sequence;
        row[2] = kind;
        System.arraycopy(values, 0, row, 3, values.length);
        return row;
    }

    private static Page page(Object[]... rows)
    {
        int channels = rows[0].length;
        Block[] blocks = new Block[channels];
        for (int channel = 0; channel < channels; channel++) {
            Type type = channel == 2 ? TINYINT : BIGINT;
            BlockBuilder builder = type.createBlockBuilder(null, rows.length);
            for (Object[] row : rows) {
                Object value = row[channel];
                if (value == null) {
                    builder.appendNull();
                }
                else if (channel == 2) {
                    TINYINT.writeLong(builder, (Byte) value);
                }
                else {
                    BIGINT.writeLong(builder, (Long) value);
                }
            }
            blocks[channel] = builder.build();
        }
        return new Page(blocks);
    }
}
