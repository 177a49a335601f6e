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
import io.trino.spi.block.RowBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

/**
 * The rows an UPDATE, DELETE or MERGE reads, with their row id: the merged rows of a page source that reads the
 * requested columns and the row id's fields, each output channel either one of those channels or the row id built
 * from its field channels.
 */
final class MergeRowIdPageSource
        extends ForwardingPageSource
{
    private final int[] outputChannels;
    private final int rowIdChannel;
    private final int[] rowIdFieldChannels;

    /**
     * @param outputChannels for each output channel, the source channel it is, or -1 for the row id
     * @param rowIdFieldChannels the source channel of each field of the row id
     */
    MergeRowIdPageSource(ConnectorPageSource source, int[] outputChannels, int[] rowIdFieldChannels)
    {
        super(source);
        this.outputChannels = outputChannels.clone();
        this.rowIdFieldChannels = rowIdFieldChannels.clone();
        int rowId = -1;
        for (int i = 0; i < outputChannels.length; i++) {
            if (outputChannels[i] < 0) {
                rowId = i;
            }
        }
        this.rowIdChannel = rowId;
    }

    @Override
    protected SourcePage transform(SourcePage page)
    {
        int positions = page.getPositionCount();
        Block[] blocks = new Block[outputChannels.length];
        for (int i = 0; i < blocks.length; i++) {
            if (i != rowIdChannel) {
                blocks[i] = page.getBlock(outputChannels[i]);
            }
        }
        Block[] fields = new Block[rowIdFieldChannels.length];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = page.getBlock(rowIdFieldChannels[i]);
        }
        blocks[rowIdChannel] = RowBlock.fromFieldBlocks(positions, fields);
        return SourcePage.create(new Page(positions, blocks));
    }
}
