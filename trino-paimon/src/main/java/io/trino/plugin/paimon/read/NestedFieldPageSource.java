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

import static java.util.Objects.requireNonNull;

/**
 * The rows of a scan whose handles include fields nested in {@code ROW} columns: each output channel is a column of
 * the source's pages ({@link NestedProjections}) or a field taken out of one. A field of a null row is null in the
 * row's field blocks (an invariant of Trino's row blocks), so taking the field block out is the dereference.
 */
final class NestedFieldPageSource
        extends ForwardingPageSource
{
    private final NestedProjections projections;

    NestedFieldPageSource(ConnectorPageSource source, NestedProjections projections)
    {
        super(source);
        this.projections = requireNonNull(projections, "projections is null");
    }

    @Override
    protected SourcePage transform(SourcePage page)
    {
        Block[] blocks = new Block[projections.outputCount()];
        for (int i = 0; i < blocks.length; i++) {
            Block block = page.getBlock(projections.outputColumn(i));
            for (int field : projections.outputPath(i)) {
                block = RowBlock.getRowFieldsFromBlock(block).get(field);
            }
            blocks[i] = block;
        }
        return SourcePage.create(new Page(page.getPositionCount(), blocks));
    }
}
