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
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.SourcePage;

import java.util.function.ObjLongConsumer;

import static java.util.Objects.requireNonNull;

/**
 * Some channels of a page a file reader returned, in another order, without reading any: a channel is read when the
 * engine asks for its block, after its filter has selected the rows, as Trino's own connectors leave it. A channel
 * the file lacks reads as its one value (a null) on every row.
 */
final class ChannelsOfSourcePage
        implements SourcePage
{
    private final SourcePage source;
    private final int[] sourceChannels;
    private final Block[] constants;

    /**
     * @param sourceChannels for each channel of this page, the channel of {@code source} it is, or -1 where it is the
     * value of {@code constants} at that channel (a block of one position)
     */
    ChannelsOfSourcePage(SourcePage source, int[] sourceChannels, Block[] constants)
    {
        this.source = requireNonNull(source, "source is null");
        this.sourceChannels = requireNonNull(sourceChannels, "sourceChannels is null");
        this.constants = requireNonNull(constants, "constants is null");
    }

    /** A page read already, as such a view. */
    static ChannelsOfSourcePage of(Page page)
    {
        int[] channels = new int[page.getChannelCount()];
        for (int channel = 0; channel < channels.length; channel++) {
            channels[channel] = channel;
        }
        return new ChannelsOfSourcePage(SourcePage.create(page), channels, new Block[channels.length]);
    }

    @Override
    public int getPositionCount()
    {
        return source.getPositionCount();
    }

    @Override
    public long getSizeInBytes()
    {
        return source.getSizeInBytes();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return source.getRetainedSizeInBytes();
    }

    @Override
    public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer)
    {
        source.retainedBytesForEachPart(consumer);
    }

    @Override
    public int getChannelCount()
    {
        return sourceChannels.length;
    }

    @Override
    public Block getBlock(int channel)
    {
        int sourceChannel = sourceChannels[channel];
        if (sourceChannel < 0) {
            return RunLengthEncodedBlock.create(constants[channel], source.getPositionCount());
        }
        return source.getBlock(sourceChannel);
    }

    @Override
    public Page getPage()
    {
        Block[] blocks = new Block[sourceChannels.length];
        for (int channel = 0; channel < blocks.length; channel++) {
            blocks[channel] = getBlock(channel);
        }
        return new Page(source.getPositionCount(), blocks);
    }

    @Override
    public void selectPositions(int[] positions, int offset, int size)
    {
        source.selectPositions(positions, offset, size);
    }

    /** These channels of this page, still unread. */
    ChannelsOfSourcePage channels(int[] channels)
    {
        int[] selected = new int[channels.length];
        Block[] selectedConstants = new Block[channels.length];
        for (int i = 0; i < channels.length; i++) {
            selected[i] = sourceChannels[channels[i]];
            selectedConstants[i] = constants[channels[i]];
        }
        return new ChannelsOfSourcePage(source, selected, selectedConstants);
    }
}
