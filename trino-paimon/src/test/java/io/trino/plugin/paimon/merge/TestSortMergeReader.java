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
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The merge of sorted runs on its own, on hand-built pages: layout (key BIGINT, sequence, kind, value BIGINT).
 */
final class TestSortMergeReader
{
    private static final KeyValueLayout LAYOUT = new KeyValueLayout(1, new int[0], false, new int[] {3});
    private static final RecordComparator COMPARATOR = new RecordComparator(LAYOUT, List.of(BIGINT), List.of());

    @Test
    void newestRecordOfEachKeyWins()
    {
        // run 0 (level 0): keys 1, 2, 3; run 1 (level 0): keys 2, 3 newer, 3 deleted
        SortedRunCursor run0 = run(0, record(1, 1, KeyValueLayout.INSERT, 10), record(2, 2, KeyValueLayout.INSERT, 20), record(3, 3, KeyValueLayout.INSERT, 30));
        SortedRunCursor run1 = run(0, record(2, 4, KeyValueLayout.UPDATE_AFTER, 21), record(3, 5, KeyValueLayout.DELETE, 30));
        assertThat(merge(List.of(run0, run1), false)).containsExactly(10L, 21L);
    }

    @Test
    void lookupModeUsesOnlyTheShallowestNonZeroLevel()
    {
        // merge-semantics §2.7: a key in levels 4 and 5 only. In lookup mode level 4 already holds the merged value,
        // so level 5 takes no part even though its record has the higher sequence number here
        SortedRunCursor level5 = run(5, record(1, 9, KeyValueLayout.INSERT, 100));
        SortedRunCursor level4 = run(4, record(1, 8, KeyValueLayout.INSERT, 150));
        assertThat(merge(List.of(level5, level4), true)).containsExactly(150L);
        // a plain merge takes the newest record
        assertThat(merge(List.of(run(5, record(1, 9, KeyValueLayout.INSERT, 100)), run(4, record(1, 8, KeyValueLayout.INSERT, 150))), false)).containsExactly(100L);
        // level-0 records always take part
        SortedRunCursor level0 = run(0, record(1, 10, KeyValueLayout.INSERT, 175));
        assertThat(merge(List.of(run(5, record(1, 9, KeyValueLayout.INSERT, 100)), run(4, record(1, 8, KeyValueLayout.INSERT, 150)), level0), true)).containsExactly(175L);
    }

    @Test
    void aLoneRetractIsDroppedAndALoneAddPassesThrough()
    {
        SortedRunCursor run0 = run(0, record(1, 1, KeyValueLayout.DELETE, 10), record(2, 2, KeyValueLayout.UPDATE_AFTER, 20));
        SortedRunCursor run1 = run(0, record(3, 3, KeyValueLayout.INSERT, 30));
        assertThat(merge(List.of(run0, run1), false)).containsExactly(20L, 30L);
    }

    @Test
    void runsOfSeveralRecordsPerPageMerge()
    {
        // older run: pages [1 2] [3 4] [5 6]; newer run: pages [3 4] [6 deleted]. Returned: 1 and 2 of the first
        // page, 5 of the third, 3 and 4 of the newer run's first page; the older run's second page loses whole, and
        // the newer run's last page holds only a deletion, which returns nothing
        PagedRun older = new PagedRun(List.of(
                page(record(1, 1, KeyValueLayout.INSERT, 10), record(2, 2, KeyValueLayout.INSERT, 20)),
                page(record(3, 3, KeyValueLayout.INSERT, 30), record(4, 4, KeyValueLayout.INSERT, 40)),
                page(record(5, 5, KeyValueLayout.INSERT, 50), record(6, 6, KeyValueLayout.INSERT, 60))));
        PagedRun newer = new PagedRun(List.of(
                page(record(3, 7, KeyValueLayout.UPDATE_AFTER, 31), record(4, 8, KeyValueLayout.INSERT, 41)),
                page(record(6, 9, KeyValueLayout.DELETE, 60))));
        SortMergeReader reader = new SortMergeReader(List.of(older, newer), COMPARATOR, LAYOUT, new DeduplicateMergeFunction(false), false);
        // an output of one row: the merge stops after every key
        OutputPageBuilder output = new OutputPageBuilder(List.of(BIGINT), LAYOUT.outputChannels(), 1);
        List<Long> values = new ArrayList<>();
        while (!reader.isFinished()) {
            reader.mergeInto(output);
            for (Page page : output.build()) {
                values.add(BIGINT.getLong(page.getBlock(0), 0));
            }
        }
        assertThat(values).containsExactly(10L, 20L, 31L, 41L, 50L);
    }

    private static List<Long> merge(List<SortedRunCursor> runs, boolean lookupMode)
    {
        SortMergeReader reader = new SortMergeReader(runs, COMPARATOR, LAYOUT, new DeduplicateMergeFunction(false), lookupMode);
        OutputPageBuilder output = new OutputPageBuilder(List.of(BIGINT), LAYOUT.outputChannels(), 2);
        List<Long> values = new ArrayList<>();
        while (!reader.isFinished() || !output.isEmpty()) {
            reader.mergeInto(output);
            if (output.isEmpty()) {
                continue;
            }
            for (Page page : output.build()) {
                for (int position = 0; position < page.getPositionCount(); position++) {
                    values.add(BIGINT.getLong(page.getBlock(0), position));
                }
            }
        }
        return values;
    }

    private static long[] record(long key, long sequence, byte kind, long value)
    {
        return new long[] {key, sequence, kind, value};
    }

    // one page per record, so the merge also crosses page boundaries
    private static SortedRunCursor run(int level, long[]... records)
    {
        List<Page> pages = new ArrayList<>();
        for (long[] record : records) {
            pages.add(new Page(block(BIGINT, record[0]), block(BIGINT, record[1]), block(TINYINT, record[2]), block(BIGINT, record[3])));
        }
        return new SortedRunCursor()
        {
            private int page = -1;

            @Override
            public boolean advance()
            {
                page++;
                return page < pages.size();
            }

            @Override
            public Page page()
            {
                return pages.get(page);
            }

            @Override
            public int position()
            {
                return 0;
            }

            @Override
            public int level()
            {
                return level;
            }

            @Override
            public long memoryUsage()
            {
                return 0;
            }

            @Override
            public void close() {}
        };
    }

    private static Page page(long[]... records)
    {
        BlockBuilder[] builders = {BIGINT.createBlockBuilder(null, records.length), BIGINT.createBlockBuilder(null, records.length), TINYINT.createBlockBuilder(null, records.length), BIGINT.createBlockBuilder(null, records.length)};
        Type[] types = {BIGINT, BIGINT, TINYINT, BIGINT};
        for (long[] record : records) {
            for (int channel = 0; channel < 4; channel++) {
                types[channel].writeLong(builders[channel], record[channel]);
            }
        }
        return new Page(records.length, Arrays.stream(builders).map(BlockBuilder::build).toArray(Block[]::new));
    }

    /** A run of several records per page. */
    private static final class PagedRun
            implements SortedRunCursor
    {
        private final List<Page> pages;
        private int page = -1;
        private int position;

        PagedRun(List<Page> pages)
        {
            this.pages = pages;
        }

        @Override
        public boolean advance()
        {
            position++;
            while (page < 0 || (page < pages.size() && position >= pages.get(page).getPositionCount())) {
                page++;
                position = 0;
            }
            return page < pages.size();
        }

        @Override
        public Page page()
        {
            return page < pages.size() ? pages.get(page) : null;
        }

        @Override
        public int position()
        {
            return position;
        }

        @Override
        public int level()
        {
            return 0;
        }

        @Override
        public long memoryUsage()
        {
            return 0;
        }

        @Override
        public void close() {}
    }

    private static Block block(Type type, long value)
    {
        BlockBuilder builder = type.createBlockBuilder(null, 1);
        type.writeLong(builder, value);
        return builder.build();
    }
}
