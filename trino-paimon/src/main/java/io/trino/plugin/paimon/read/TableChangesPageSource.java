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

import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * The rows of a {@code table_changes} split: the requested table columns of each change, its kind in
 * {@code _change_type} ({@code insert}, {@code update_preimage}, {@code update_postimage}, {@code delete}: Paimon's
 * {@code +I}, {@code -U}, {@code +U}, {@code -D}, named as Trino's Delta Lake connector names them), and the snapshot
 * that committed it with that snapshot's time.
 */
public final class TableChangesPageSource
        implements ConnectorPageSource
{
    public static final String CHANGE_TYPE_COLUMN = "_change_type";
    public static final String CHANGE_VERSION_COLUMN = "_change_version_id";
    public static final String CHANGE_TIMESTAMP_COLUMN = "_change_timestamp";
    // the field ids of their column handles: no table field has a negative id (-1 and -2 are the row id and rowkind)
    public static final int CHANGE_TYPE_FIELD_ID = -3;
    public static final int CHANGE_VERSION_FIELD_ID = -4;
    public static final int CHANGE_TIMESTAMP_FIELD_ID = -5;

    // by row kind: 0 +I, 1 -U, 2 +U, 3 -D
    static final Slice[] KIND_NAMES = {utf8Slice("insert"), utf8Slice("update_preimage"), utf8Slice("update_postimage"), utf8Slice("delete")};

    private final RecordPages records;
    private final int kindChannel;
    private final int[] outputChannels;
    private final long snapshotId;
    private final long commitTime;
    private long completedPositions;
    private boolean finished;

    /**
     * @param kindChannel the channel of the row kind (TINYINT) in the record pages, or -1 when every record is an insert
     * @param outputChannels for each output column its channel in the record pages, or the field id of a change column
     */
    TableChangesPageSource(RecordPages records, int kindChannel, int[] outputChannels, long snapshotId, long commitMillis)
    {
        this.records = requireNonNull(records, "records is null");
        this.kindChannel = kindChannel;
        this.outputChannels = outputChannels.clone();
        this.snapshotId = snapshotId;
        this.commitTime = packDateTimeWithZone(commitMillis, UTC_KEY);
    }

    /** The records of files one after the other, as they were written. */
    static RecordPages filesAsWritten(List<PaimonDataFile> files, Function<PaimonDataFile, DataFilePageReader> openFile)
    {
        Iterator<PaimonDataFile> remaining = files.iterator();
        return new RecordPages()
        {
            private DataFilePageReader current;
            private long closedBytes;

            @Override
            public Page nextPage()
            {
                while (true) {
                    if (current == null) {
                        if (!remaining.hasNext()) {
                            return null;
                        }
                        current = openFile.apply(remaining.next());
                    }
                    Page page = current.nextPage();
                    if (page == null) {
                        closedBytes += current.readBytes();
                        current.close();
                        current = null;
                    }
                    else if (page.getPositionCount() > 0) {
                        return page;
                    }
                }
            }

            @Override
            public long memoryUsage()
            {
                return current == null ? 0 : current.memoryUsage();
            }

            @Override
            public long readBytes()
            {
                return closedBytes + (current == null ? 0 : current.readBytes());
            }

            @Override
            public void close()
            {
                if (current != null) {
                    current.close();
                    current = null;
                }
            }
        };
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        Page page = records.nextPage();
        if (page == null) {
            finished = true;
            return null;
        }
        int positions = page.getPositionCount();
        Block[] blocks = new Block[outputChannels.length];
        for (int i = 0; i < outputChannels.length; i++) {
            blocks[i] = switch (outputChannels[i]) {
                case CHANGE_TYPE_FIELD_ID -> kinds(page);
                case CHANGE_VERSION_FIELD_ID -> RunLengthEncodedBlock.create(BIGINT, snapshotId, positions);
                case CHANGE_TIMESTAMP_FIELD_ID -> RunLengthEncodedBlock.create(TIMESTAMP_TZ_MILLIS, commitTime, positions);
                default -> page.getBlock(outputChannels[i]);
            };
        }
        completedPositions += positions;
        return SourcePage.create(new Page(positions, blocks));
    }

    private Block kinds(Page page)
    {
        if (kindChannel < 0) {
            return RunLengthEncodedBlock.create(VARCHAR, KIND_NAMES[KeyValueLayout.INSERT], page.getPositionCount());
        }
        return RecordPages.kindNames(page.getBlock(kindChannel), page.getPositionCount(), KIND_NAMES);
    }

    @Override
    public long getCompletedBytes()
    {
        return records.readBytes();
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
        return records.memoryUsage();
    }

    @Override
    public void close()
    {
        finished = true;
        records.close();
    }
}
