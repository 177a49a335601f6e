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
package io.trino.plugin.paimon.read;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ObjLongConsumer;

import static com.google.common.base.Preconditions.checkState;
import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A file read straight through reaches the engine with its columns unread: the engine's filter reads its own columns,
 * selects the rows, and the other columns are read at those rows only, as Trino's Parquet reader allows. Checked with a
 * reader that records which columns were read: channel c of row r holds 100 × c + r.
 */
final class TestPassThroughPages
{
    private static final List<Type> TYPES = List.of(BIGINT, BIGINT, BIGINT);

    @Test
    void columnsAreReadOnlyWhenAskedForAtTheSelectedRows()
    {
        RecordingReader reader = new RecordingReader(5, 5);
        try (PaimonPageSource source = PaimonPageSource.ofAppendFiles(List.of(file()), TYPES, Long.MAX_VALUE, _ -> reader)) {
            SourcePage page = source.getNextSourcePage();
            assertThat(page.getPositionCount()).isEqualTo(5);
            assertThat(reader.channelsRead).isEmpty();

            // the engine's filter kept rows 1 and 3, then reads the projected column
            page.selectPositions(new int[] {1, 3}, 0, 2);
            assertThat(values(page.getBlock(2))).containsExactly(201L, 203L);
            assertThat(reader.channelsRead).containsExactly(2);
            assertThat(reader.rowsRead).isEqualTo(2);

            SourcePage second = source.getNextSourcePage();
            assertThat(values(second.getBlock(0))).containsExactly(5L, 6L, 7L, 8L, 9L);
            assertThat(source.getNextSourcePage()).isNull();
            assertThat(reader.channelsRead).containsExactly(0, 2);
        }
    }

    @Test
    void pageCutByTheLimitIsReadBeforeTheFileCloses()
    {
        RecordingReader reader = new RecordingReader(5, 5);
        try (PaimonPageSource source = PaimonPageSource.ofAppendFiles(List.of(file()), TYPES, 3, _ -> reader)) {
            SourcePage page = source.getNextSourcePage();
            assertThat(reader.closed).isTrue();
            assertThat(page.getPositionCount()).isEqualTo(3);
            assertThat(values(page.getBlock(1))).containsExactly(100L, 101L, 102L);
            assertThat(source.getNextSourcePage()).isNull();
        }
    }

    private static PaimonDataFile file()
    {
        return new PaimonDataFile("local:///bucket-0/data-0.parquet", 1, 10, 0, 0, new byte[0], new byte[0], 0, 0, OptionalLong.of(0), Optional.empty());
    }

    private static List<Long> values(Block block)
    {
        List<Long> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            values.add(BIGINT.getLong(block, position));
        }
        return values;
    }

    // a file of pages of these sizes; its pages are readable until it moves on or closes
    private static final class RecordingReader
            extends InMemoryPageReader
    {
        private final int[] pageSizes;
        private final Set<Integer> channelsRead = new TreeSet<>();
        private int rowsRead;
        private int nextPage;
        private int firstRow;
        private boolean closed;

        RecordingReader(int... pageSizes)
        {
            this.pageSizes = pageSizes;
        }

        @Override
        public Page nextPage()
        {
            throw new AssertionError("a file read straight through is read with its columns unread");
        }

        @Override
        public ChannelsOfSourcePage nextSourcePage()
        {
            if (nextPage == pageSizes.length) {
                return null;
            }
            int size = pageSizes[nextPage++];
            int[] rows = new int[size];
            for (int i = 0; i < size; i++) {
                rows[i] = firstRow + i;
            }
            firstRow += size;
            int[] channels = {0, 1, 2};
            return new ChannelsOfSourcePage(new RecordingPage(this, nextPage, rows), channels, new Block[3]);
        }

        @Override
        public void close()
        {
            closed = true;
        }
    }

    private static final class RecordingPage
            implements SourcePage
    {
        private final RecordingReader reader;
        private final int pageNumber;
        private int[] rows;

        RecordingPage(RecordingReader reader, int pageNumber, int[] rows)
        {
            this.reader = reader;
            this.pageNumber = pageNumber;
            this.rows = rows;
        }

        @Override
        public int getPositionCount()
        {
            return rows.length;
        }

        @Override
        public long getSizeInBytes()
        {
            return 0;
        }

        @Override
        public long getRetainedSizeInBytes()
        {
            return 0;
        }

        @Override
        public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer) {}

        @Override
        public int getChannelCount()
        {
            return TYPES.size();
        }

        @Override
        public Block getBlock(int channel)
        {
            checkState(!reader.closed && reader.nextPage == pageNumber, "the reader has moved on");
            reader.channelsRead.add(channel);
            reader.rowsRead += rows.length;
            BlockBuilder builder = BIGINT.createBlockBuilder(null, rows.length);
            for (int row : rows) {
                BIGINT.writeLong(builder, 100L * channel + row);
            }
            return builder.build();
        }

        @Override
        public Page getPage()
        {
            Block[] blocks = new Block[TYPES.size()];
            for (int channel = 0; channel < blocks.length; channel++) {
                blocks[channel] = getBlock(channel);
            }
            return new Page(rows.length, blocks);
        }

        @Override
        public void selectPositions(int[] positions, int offset, int size)
        {
            int[] selected = new int[size];
            for (int i = 0; i < size; i++) {
                selected[i] = rows[positions[offset + i]];
            }
            rows = selected;
        }
    }
}
