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

import io.airlift.slice.Slice;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * The rows of {@code "<table>$audit_log"}: the table's columns preceded by {@code rowkind}, the text of each row's
 * kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}). A primary-key bucket is merged as Paimon's audit log reads
 * it, keeping a key whose merged record retracts as that record ({@code -D} or {@code -U}) instead of dropping it;
 * the rows of an append table are all {@code +I}.
 */
public final class AuditLogPageSource
        implements ConnectorPageSource
{
    public static final String ROW_KIND_COLUMN = "rowkind";
    /** The field id of the {@code rowkind} column's handle: no table field has a negative id. */
    public static final int ROW_KIND_FIELD_ID = -2;

    private static final Slice[] KIND_TEXT = {utf8Slice("+I"), utf8Slice("-U"), utf8Slice("+U"), utf8Slice("-D")};

    private final RecordPages source;
    private final int kindChannel;
    private final int[] outputChannels;
    private long completedPositions;
    private boolean finished;

    /**
     * @param kindChannel the channel of the row kind (TINYINT) in the source pages, or -1 when every row is an insert
     * @param outputChannels for each output column, its channel in the source pages, or -1 for {@code rowkind}
     */
    AuditLogPageSource(RecordPages source, int kindChannel, int[] outputChannels)
    {
        this.source = requireNonNull(source, "source is null");
        this.kindChannel = kindChannel;
        this.outputChannels = outputChannels.clone();
    }

    /** The merged records of a primary-key bucket, in a data file's key-value layout, kept retractions included. */
    static AuditLogPageSource ofMergedRecords(BucketCompactionReader reader, int kindChannel, int[] outputChannels)
    {
        return new AuditLogPageSource(new RecordPages()
        {
            @Override
            public Page nextPage()
            {
                return reader.nextPage();
            }

            @Override
            public long memoryUsage()
            {
                return reader.memoryUsage();
            }

            @Override
            public void close()
            {
                reader.close();
            }
        }, kindChannel, outputChannels);
    }

    /** The rows of an append table's page source, each an insert. */
    static AuditLogPageSource ofInserts(ConnectorPageSource rows, int[] outputChannels)
    {
        return new AuditLogPageSource(new RecordPages()
        {
            @Override
            public Page nextPage()
            {
                while (!rows.isFinished()) {
                    SourcePage page = rows.getNextSourcePage();
                    if (page != null) {
                        return page.getPage();
                    }
                }
                return null;
            }

            @Override
            public long memoryUsage()
            {
                return rows.getMemoryUsage();
            }

            @Override
            public void close()
            {
                try {
                    rows.close();
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }, -1, outputChannels);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        Page page = source.nextPage();
        if (page == null) {
            finished = true;
            return null;
        }
        Block[] blocks = new Block[outputChannels.length];
        for (int i = 0; i < outputChannels.length; i++) {
            blocks[i] = outputChannels[i] >= 0 ? page.getBlock(outputChannels[i]) : kinds(page);
        }
        completedPositions += page.getPositionCount();
        return SourcePage.create(new Page(page.getPositionCount(), blocks));
    }

    private Block kinds(Page page)
    {
        if (kindChannel < 0) {
            return RunLengthEncodedBlock.create(VARCHAR, KIND_TEXT[KeyValueLayout.INSERT], page.getPositionCount());
        }
        return RecordPages.kindNames(page.getBlock(kindChannel), page.getPositionCount(), KIND_TEXT);
    }

    @Override
    public long getCompletedBytes()
    {
        return 0;
    }

    @Override
    public long getReadTimeNanos()
    {
        return 0;
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(completedPositions);
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        return source.memoryUsage();
    }

    @Override
    public void close()
    {
        finished = true;
        source.close();
    }
}
