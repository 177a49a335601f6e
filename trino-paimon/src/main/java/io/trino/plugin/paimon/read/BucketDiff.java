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
import io.trino.plugin.paimon.merge.ValueEquality;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.type.Type;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.merge.KeyValueLayout.isRetract;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The keys of a bucket whose merged records differ between two states, for a {@code table_changes} diff, as Paimon's
 * incremental diff finds them with retractions kept: both states are read merged (a key whose merged record retracts
 * keeps that record), in key order, and walked side by side. A key with a record at the end only, or whose records
 * differ in kind (adding or retracting) or in any value (compared as serialized, floating point by its bits), gives
 * its record at the end, with its kind; a key whose record at the start only adds gives that record as a delete; a
 * key whose records are equal, or which has a retraction at the start only, gives nothing. Records come out in the
 * key-value layout of the merged pages, the kind channel holding the change's kind.
 */
final class BucketDiff
        implements RecordPages
{
    private final Side start;
    private final Side end;
    private final RecordComparator comparator;
    private final int kindChannel;
    private final int firstValueChannel;
    private final ValueEquality[] valueEqualities;
    private final ArrayDeque<Page> ready = new ArrayDeque<>();

    BucketDiff(BucketCompactionReader start, BucketCompactionReader end, RecordComparator comparator, KeyValueLayout layout, List<Type> valueTypes)
    {
        this.start = new Side(start);
        this.end = new Side(end);
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.kindChannel = layout.kindChannel();
        this.firstValueChannel = layout.firstValueChannel();
        this.valueEqualities = valueTypes.stream()
                .map(type -> ValueEquality.of(type, ValueEquality.Mode.BINARY_ROW))
                .toArray(ValueEquality[]::new);
    }

    @Override
    public Page nextPage()
    {
        while (ready.isEmpty()) {
            start.advanceIfExhausted(ready);
            end.advanceIfExhausted(ready);
            if (start.page == null && end.page == null) {
                break;
            }
            if (start.page == null) {
                end.select(end.kind());
                end.position++;
                continue;
            }
            if (end.page == null) {
                start.selectRemoved();
                start.position++;
                continue;
            }
            int order = comparator.compareKeys(start.page, start.position, end.page, end.position);
            if (order < 0) {
                start.selectRemoved();
                start.position++;
            }
            else if (order > 0) {
                end.select(end.kind());
                end.position++;
            }
            else {
                if (isRetract(start.kind()) != isRetract(end.kind()) || !valuesEqual()) {
                    end.select(end.kind());
                }
                start.position++;
                end.position++;
            }
        }
        return ready.poll();
    }

    private boolean valuesEqual()
    {
        for (int i = 0; i < valueEqualities.length; i++) {
            int channel = firstValueChannel + i;
            if (!valueEqualities[i].equal(start.page.getBlock(channel), start.position, end.page.getBlock(channel), end.position)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long memoryUsage()
    {
        long bytes = start.reader.memoryUsage() + end.reader.memoryUsage();
        for (Page page : ready) {
            bytes += page.getRetainedSizeInBytes();
        }
        return bytes;
    }

    @Override
    public void close()
    {
        try (BucketCompactionReader _ = start.reader) {
            end.reader.close();
        }
    }

    // one state's merged records: the current page, the position reached, and the positions chosen from the page
    private final class Side
    {
        private final BucketCompactionReader reader;
        private Page page;
        private int position;
        private int[] selected = new int[0];
        private byte[] kinds = new byte[0];
        private int count;
        private boolean finished;

        private Side(BucketCompactionReader reader)
        {
            this.reader = requireNonNull(reader, "reader is null");
        }

        private byte kind()
        {
            return TINYINT.getByte(page.getBlock(kindChannel), position);
        }

        // a key with a record at the start only was removed, unless that record is a retraction kept by the merge
        private void selectRemoved()
        {
            if (!isRetract(kind())) {
                select(KeyValueLayout.DELETE);
            }
        }

        private void select(byte changeKind)
        {
            if (count == selected.length) {
                selected = Arrays.copyOf(selected, Math.max(16, count * 2));
                kinds = Arrays.copyOf(kinds, selected.length);
            }
            selected[count] = position;
            kinds[count] = changeKind;
            count++;
        }

        // at the end of a page, its chosen records become an output page, and the next page is read
        private void advanceIfExhausted(ArrayDeque<Page> output)
        {
            if (finished || (page != null && position < page.getPositionCount())) {
                return;
            }
            if (page != null && count > 0) {
                Page chosen = page.getPositions(selected, 0, count);
                Block[] blocks = new Block[chosen.getChannelCount()];
                for (int channel = 0; channel < blocks.length; channel++) {
                    blocks[channel] = chosen.getBlock(channel);
                }
                blocks[kindChannel] = new ByteArrayBlock(count, Optional.empty(), Arrays.copyOf(kinds, count));
                output.add(new Page(count, blocks));
            }
            count = 0;
            position = 0;
            page = reader.nextPage();
            finished = page == null;
        }
    }
}
