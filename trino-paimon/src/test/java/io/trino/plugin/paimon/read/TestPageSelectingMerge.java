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

import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.merge.SortedRun;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ObjLongConsumer;

import static com.google.common.base.Preconditions.checkState;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The merge that hands the runs' own pages over with the losing records deselected returns, for random sections, exactly
 * the newest record of each key unless it retracts, computed here from the records themselves; every page it returns
 * is readable at once, before its file reader moves on, as Trino's Parquet reader requires. The sections cover keys of
 * one and of two integer columns (nullable, as the user's tables may have them) and of one string column, runs whose
 * sequence numbers lie apart and runs whose sequence numbers interleave, with and without a user sequence field.
 */
final class TestPageSelectingMerge
{
    private static final byte[] KINDS = {KeyValueLayout.INSERT, KeyValueLayout.UPDATE_AFTER, KeyValueLayout.UPDATE_BEFORE, KeyValueLayout.DELETE};

    @Test
    void runsWhoseSequenceNumbersLieApartAreOrderedByAge()
    {
        assertThat(PageSelectingMerge.runsByAge(List.of(run(file(10, 19), file(0, 5)), run(file(20, 30))))).hasValueSatisfying(order -> assertThat(order).containsExactly(1, 0));
        assertThat(PageSelectingMerge.runsByAge(List.of(run(file(20, 30)), run(file(0, 19))))).hasValueSatisfying(order -> assertThat(order).containsExactly(0, 1));
        assertThat(PageSelectingMerge.runsByAge(List.of(run(file(40, 45)), run(file(0, 19)), run(file(20, 39))))).hasValueSatisfying(order -> assertThat(order).containsExactly(0, 2, 1));
        assertThat(PageSelectingMerge.runsByAge(List.of(run(file(0, 20)), run(file(20, 30))))).isEmpty();
        // the files of each run lie apart from the other run's, but the runs' ranges interleave
        assertThat(PageSelectingMerge.runsByAge(List.of(run(file(0, 9), file(20, 29)), run(file(10, 19))))).isEmpty();
    }

    @Test
    void randomSectionsReturnTheNewestRecordOfEachKey()
    {
        Random random = new Random(48);
        int apart = 0;
        for (int section = 0; section < 600; section++) {
            List<Type> keyTypes = switch (section % 3) {
                case 0 -> List.of(BIGINT);
                case 1 -> List.of(BIGINT, INTEGER);
                default -> List.of(VARCHAR);
            };
            apart += checkRandomSection(random, keyTypes, section % 4 == 0, section % 5 == 0) ? 1 : 0;
        }
        // both ways of comparing sequence numbers were taken
        assertThat(apart).isBetween(1, 599);
    }

    // one random section; true when its runs' sequence numbers lay apart
    private static boolean checkRandomSection(Random random, List<Type> keyTypes, boolean interleavedSequences, boolean userSequence)
    {
        boolean compositeKey = keyTypes.size() > 1;
        int keyCount = keyTypes.size();
        int valueChannel = KeyValueLayout.firstValueChannel(keyCount);
        int userSequenceChannel = valueChannel + 1;
        KeyValueLayout layout = new KeyValueLayout(keyCount, userSequence ? new int[] {userSequenceChannel} : new int[0], false, new int[] {valueChannel});
        RecordComparator comparator = new RecordComparator(layout, keyTypes, userSequence ? List.of(BIGINT) : List.of());
        // keys order nulls first; records of a key by the user sequence field (nulls oldest), then the sequence number
        Comparator<Long> nullsFirst = Comparator.nullsFirst(Comparator.naturalOrder());
        Comparator<long[]> recordOrder = Comparator.<long[], Long>comparing(record -> record[4] == 1 ? null : record[3], nullsFirst)
                .thenComparingLong(record -> record[0]);

        int runCount = 2 + random.nextInt(3);
        List<SortedRun<PaimonDataFile>> runs = new ArrayList<>();
        Map<PaimonDataFile, Page> contents = new IdentityHashMap<>();
        // per key, the newest record so far: its sequence number, kind, value, user sequence field and whether that is null
        Map<List<Long>, long[]> newest = new HashMap<>();
        long nextValue = 0;
        long nextSequence = 0;
        for (int run = 0; run < runCount; run++) {
            TreeSet<List<Long>> keys = new TreeSet<>((left, right) -> {
                for (int i = 0; i < left.size(); i++) {
                    int result = nullsFirst.compare(left.get(i), right.get(i));
                    if (result != 0) {
                        return result;
                    }
                }
                return 0;
            });
            int records = 1 + random.nextInt(40);
            while (keys.size() < records) {
                // the second key column of the composite keys is null in one record of five
                keys.add(compositeKey
                        ? Arrays.asList((long) random.nextInt(15), random.nextInt(5) == 0 ? null : (long) random.nextInt(4))
                        : List.of((long) random.nextInt(60)));
            }
            // the run's keys split into one to three files of consecutive key ranges
            List<List<List<Long>>> fileKeys = split(new ArrayList<>(keys), 1 + random.nextInt(3), random);
            List<PaimonDataFile> files = new ArrayList<>();
            for (List<List<Long>> keysOfFile : fileKeys) {
                BlockBuilder[] builders = new BlockBuilder[valueChannel + 2];
                for (int channel = 0; channel < keyCount; channel++) {
                    builders[channel] = keyTypes.get(channel).createBlockBuilder(null, keysOfFile.size());
                }
                builders[keyCount] = BIGINT.createBlockBuilder(null, keysOfFile.size());
                builders[keyCount + 1] = TINYINT.createBlockBuilder(null, keysOfFile.size());
                builders[valueChannel] = BIGINT.createBlockBuilder(null, keysOfFile.size());
                builders[userSequenceChannel] = BIGINT.createBlockBuilder(null, keysOfFile.size());
                long minSequence = Long.MAX_VALUE;
                long maxSequence = Long.MIN_VALUE;
                long retracts = 0;
                // a third of the files retract nothing, so that their kinds are not read
                boolean onlyAdds = random.nextInt(3) == 0;
                for (List<Long> key : keysOfFile) {
                    // sequence numbers unique over the section; in the interleaved case in random order across runs
                    long sequence = interleavedSequences ? random.nextLong(1_000_000) * 16 + run : nextSequence++;
                    byte kind = onlyAdds ? KINDS[random.nextInt(2)] : KINDS[random.nextInt(KINDS.length)];
                    long value = nextValue++;
                    // few distinct user sequence values, so that they tie and the sequence numbers decide
                    boolean userSequenceNull = random.nextInt(5) == 0;
                    long userSequenceValue = random.nextInt(3);
                    for (int channel = 0; channel < keyCount; channel++) {
                        Long keyValue = key.get(channel);
                        if (keyValue == null) {
                            builders[channel].appendNull();
                        }
                        else if (keyTypes.get(channel) == VARCHAR) {
                            VARCHAR.writeString(builders[channel], "%04d".formatted(keyValue));
                        }
                        else {
                            keyTypes.get(channel).writeLong(builders[channel], keyValue);
                        }
                    }
                    BIGINT.writeLong(builders[keyCount], sequence);
                    TINYINT.writeLong(builders[keyCount + 1], kind);
                    BIGINT.writeLong(builders[valueChannel], value);
                    if (userSequenceNull) {
                        builders[userSequenceChannel].appendNull();
                    }
                    else {
                        BIGINT.writeLong(builders[userSequenceChannel], userSequenceValue);
                    }
                    minSequence = Math.min(minSequence, sequence);
                    maxSequence = Math.max(maxSequence, sequence);
                    retracts += KeyValueLayout.isRetract(kind) ? 1 : 0;
                    long[] record = {sequence, kind, value, userSequenceValue, userSequence && userSequenceNull ? 1 : 0};
                    if (!userSequence) {
                        record[3] = 0;
                    }
                    long[] known = newest.get(key);
                    if (known == null || recordOrder.compare(known, record) < 0) {
                        newest.put(key, record);
                    }
                }
                Block[] blocks = new Block[builders.length];
                for (int channel = 0; channel < blocks.length; channel++) {
                    blocks[channel] = builders[channel].build();
                }
                PaimonDataFile file = new PaimonDataFile(
                        "local:///bucket-0/data-%s.parquet".formatted(contents.size()), 1, keysOfFile.size(), runCount - run, 0, new byte[0], new byte[0],
                        minSequence, maxSequence, OptionalLong.of(retracts), Optional.empty());
                contents.put(file, new Page(blocks));
                files.add(file);
            }
            runs.add(new SortedRun<>(files));
        }

        Optional<int[]> runsByAge = PageSelectingMerge.runsByAge(runs);
        ReadMetrics metrics = new ReadMetrics();
        List<DataFileRunCursor> cursors = runs.stream()
                .map(run -> new DataFileRunCursor(run, file -> new BatchReader(contents.get(file), random), metrics))
                .toList();
        PageSelectingMerge merge = new PageSelectingMerge(cursors, comparator, layout, runsByAge, metrics);
        List<Long> returned = new ArrayList<>();
        for (ChannelsOfSourcePage page = merge.nextPage(); page != null; page = merge.nextPage()) {
            assertThat(page.getChannelCount()).isEqualTo(1);
            // read at once, as the engine does before it asks for the next page
            Block values = page.getBlock(0);
            for (int position = 0; position < values.getPositionCount(); position++) {
                returned.add(BIGINT.getLong(values, position));
            }
        }
        Set<Long> expected = new HashSet<>();
        for (long[] record : newest.values()) {
            if (!KeyValueLayout.isRetract((byte) record[1])) {
                expected.add(record[2]);
            }
        }
        assertThat(returned).doesNotHaveDuplicates();
        assertThat(new HashSet<>(returned)).isEqualTo(expected);
        return runsByAge.isPresent();
    }

    private static <T> List<List<T>> split(List<T> items, int parts, Random random)
    {
        List<List<T>> result = new ArrayList<>();
        int start = 0;
        for (int part = 0; part < parts && start < items.size(); part++) {
            int end = part == parts - 1 ? items.size() : start + 1 + random.nextInt(items.size() - start);
            result.add(items.subList(start, end));
            start = end;
        }
        return result;
    }

    private static SortedRun<PaimonDataFile> run(PaimonDataFile... files)
    {
        return new SortedRun<>(List.of(files));
    }

    private static PaimonDataFile file(long minSequence, long maxSequence)
    {
        return new PaimonDataFile("local:///bucket-0/data.parquet", 1, 1, 1, 0, new byte[0], new byte[0], minSequence, maxSequence, OptionalLong.empty(), Optional.empty());
    }

    // a file's records in pages of random sizes, each readable only while the reader is on it, as a batch of Trino's
    // Parquet reader
    private static final class BatchReader
            extends InMemoryPageReader
    {
        private final Page content;
        private final Random random;
        private int nextPosition;
        private int batch;

        BatchReader(Page content, Random random)
        {
            this.content = content;
            this.random = random;
        }

        @Override
        public Page nextPage()
        {
            throw new AssertionError("the merge reads pages with their columns unread");
        }

        @Override
        public ChannelsOfSourcePage nextSourcePage()
        {
            batch++;
            if (nextPosition == content.getPositionCount()) {
                return null;
            }
            int size = Math.min(1 + random.nextInt(7), content.getPositionCount() - nextPosition);
            Page page = content.getRegion(nextPosition, size);
            nextPosition += size;
            int[] channels = new int[page.getChannelCount()];
            for (int channel = 0; channel < channels.length; channel++) {
                channels[channel] = channel;
            }
            return new ChannelsOfSourcePage(new BatchPage(this, batch, page), channels, new Block[channels.length]);
        }

        @Override
        public void close()
        {
            batch = -1;
        }
    }

    private static final class BatchPage
            implements SourcePage
    {
        private final BatchReader reader;
        private final int batch;
        private Page page;

        BatchPage(BatchReader reader, int batch, Page page)
        {
            this.reader = reader;
            this.batch = batch;
            this.page = page;
        }

        @Override
        public int getPositionCount()
        {
            return page.getPositionCount();
        }

        @Override
        public long getSizeInBytes()
        {
            return page.getSizeInBytes();
        }

        @Override
        public long getRetainedSizeInBytes()
        {
            return page.getRetainedSizeInBytes();
        }

        @Override
        public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer)
        {
            consumer.accept(this, getRetainedSizeInBytes());
        }

        @Override
        public int getChannelCount()
        {
            return page.getChannelCount();
        }

        @Override
        public Block getBlock(int channel)
        {
            checkState(reader.batch == batch, "a column of a page read after its reader moved on");
            return page.getBlock(channel);
        }

        @Override
        public Page getPage()
        {
            checkState(reader.batch == batch, "a page read after its reader moved on");
            return page;
        }

        @Override
        public void selectPositions(int[] positions, int offset, int size)
        {
            page = page.getPositions(positions, offset, size);
        }
    }
}
