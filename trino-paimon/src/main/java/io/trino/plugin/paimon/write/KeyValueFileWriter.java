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
package io.trino.plugin.paimon.write;

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.SimpleStats;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Writes one data file in the format of its level ({@link FileWriteFormat}) and describes it as Paimon's writer would
 * ({@link DataFileMeta}).
 * Primary-key tables use the key-value layout (paimon-format.md §7.1): the trimmed primary key as {@code _KEY_<k>}
 * (left out of thin files, see {@link DataFileLayout}), {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then every
 * table column; the caller hands over pages in that layout with the key channels, sorted by key, each key once.
 * Append tables (§7.4) hold the table columns only.
 * <p>
 * The description: row count and size; first and last key; key statistics (truncate(128), in thin files those of the
 * key fields' table columns) and value statistics per the table's stats modes; sequence range; delete rows (-U and
 * -D); level 0, written by a writer (file source APPEND).
 */
public final class KeyValueFileWriter
{
    private static final String KEY_PREFIX = "_KEY_";
    // Paimon's field ids of the key copies and system columns (Integer.MAX_VALUE / 2 + id, MAX_VALUE - 1, MAX_VALUE - 2)
    private static final int KEY_FIELD_ID_BASE = Integer.MAX_VALUE / 2;
    private static final int SEQUENCE_NUMBER_FIELD_ID = Integer.MAX_VALUE - 1;
    private static final int VALUE_KIND_FIELD_ID = Integer.MAX_VALUE - 2;

    private final DataFileLayout layout;
    private final List<DataFileColumn> fileColumns;
    private final int[] pageChannels;
    private final Location location;
    private final String fileName;
    private final long schemaId;
    private final CountingOutputStream output;
    private final FormatFileWriter writer;
    private final List<ColumnStatsCollector> keyStats;
    private final List<ColumnStatsCollector> valueStats;
    private final CharPadding charPadding;
    private long rowCount;
    private long deleteRowCount;
    private long minSequenceNumber = Long.MAX_VALUE;
    private long maxSequenceNumber = Long.MIN_VALUE;
    private BinaryRow minKey;
    private Page lastPage;
    private int lastPosition;
    private boolean closed;

    public KeyValueFileWriter(TrinoFileSystem fileSystem, Location location, DataFileLayout layout, long schemaId, FileWriteFormat format)
    {
        this.layout = requireNonNull(layout, "layout is null");
        this.fileColumns = layout.fileColumns();
        this.pageChannels = layout.pageChannels();
        this.location = requireNonNull(location, "location is null");
        this.fileName = location.fileName();
        this.schemaId = schemaId;
        try {
            this.output = new CountingOutputStream(fileSystem.newOutputFile(location).create());
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to create data file " + location, e);
        }
        try {
            this.writer = format.create(output, fileColumns);
        }
        catch (IOException | RuntimeException e) {
            try {
                output.close();
            }
            catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to start data file " + location, e);
        }
        ImmutableList.Builder<ColumnStatsCollector> keyStats = ImmutableList.builder();
        for (int i = 0; i < layout.keyColumns().size(); i++) {
            DataFileColumn column = layout.keyColumns().get(i);
            keyStats.add(new ColumnStatsCollector(column.type(), column.trinoType(), layout.keyStatsModes().get(i)));
        }
        this.keyStats = keyStats.build();
        ImmutableList.Builder<ColumnStatsCollector> valueStats = ImmutableList.builder();
        for (int i = 0; i < layout.valueColumns().size(); i++) {
            DataFileColumn column = layout.valueColumns().get(i);
            valueStats.add(new ColumnStatsCollector(column.type(), column.trinoType(), layout.valueStatsModes().get(i)));
        }
        this.valueStats = valueStats.build();
        this.charPadding = new CharPadding(pageTypes(layout));
    }

    // the Trino types of the channels of the pages written: the key channels are there even in thin files
    private static List<Type> pageTypes(DataFileLayout layout)
    {
        ImmutableList.Builder<Type> types = ImmutableList.builder();
        if (layout.keyValue()) {
            layout.keyColumns().forEach(column -> types.add(column.trinoType()));
            types.add(BIGINT, TINYINT);
        }
        layout.valueColumns().forEach(column -> types.add(column.trinoType()));
        return types.build();
    }

    /** Path of the file being written. */
    public Location location()
    {
        return location;
    }

    /**
     * Appends rows: for key-value files a page in {@link KeyValueLayout} with every table column as a value channel,
     * sorted by key after the rows already written; for append files the table columns. CHAR values are written
     * padded ({@link CharPadding}).
     */
    public void write(Page rows)
    {
        checkState(!closed, "file %s is closed", location);
        int positions = rows.getPositionCount();
        if (positions == 0) {
            return;
        }
        // files, key ranges and statistics hold CHAR values as Paimon stores them
        Page page = charPadding.pad(rows);
        int keyCount = layout.keyColumns().size();
        int firstValue = layout.keyValue() ? KeyValueLayout.firstValueChannel(keyCount) : 0;
        if (layout.keyValue()) {
            for (int i = 0; i < keyCount; i++) {
                keyStats.get(i).add(page.getBlock(i));
            }
            Block sequence = page.getBlock(keyCount);
            Block kinds = page.getBlock(keyCount + 1);
            for (int position = 0; position < positions; position++) {
                long value = BIGINT.getLong(sequence, position);
                minSequenceNumber = Math.min(minSequenceNumber, value);
                maxSequenceNumber = Math.max(maxSequenceNumber, value);
                if (KeyValueLayout.isRetract(TINYINT.getByte(kinds, position))) {
                    deleteRowCount++;
                }
            }
            if (minKey == null) {
                minKey = key(page, 0);
            }
            lastPage = page;
            lastPosition = positions - 1;
        }
        for (int i = 0; i < valueStats.size(); i++) {
            valueStats.get(i).add(page.getBlock(firstValue + i));
        }
        try {
            // the file's columns are a selection of the page's (thin files leave the key channels out)
            writer.write(page.getColumns(pageChannels));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write data file " + location, e);
        }
        rowCount += positions;
    }

    /** Records the sequence numbers of rows of an append file (which has no sequence column). */
    public void addSequenceRange(long min, long max)
    {
        checkArgument(!layout.keyValue(), "key-value files carry their sequence numbers");
        minSequenceNumber = Math.min(minSequenceNumber, min);
        maxSequenceNumber = Math.max(maxSequenceNumber, max);
    }

    public long rowCount()
    {
        return rowCount;
    }

    public long writtenBytes()
    {
        return writer.writtenBytes();
    }

    /** The size the file has reached, as Paimon measures a file of the format it is writing when deciding to roll. */
    public long estimatedSize()
    {
        return writer.estimatedSize();
    }

    public long memoryUsage()
    {
        return writer.retainedBytes();
    }

    /** Finishes the file and describes it. */
    public DataFileMeta close()
    {
        checkState(!closed, "file %s is closed", location);
        checkState(rowCount > 0, "no rows written to %s", location);
        closed = true;
        try {
            writer.close();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write data file " + location, e);
        }
        BinaryRow maxKey = layout.keyValue() ? key(lastPage, lastPosition) : BinaryRow.EMPTY;
        lastPage = null;
        // Paimon stores value statistics densely: a column whose statistics are all unknown (mode none, nested types)
        // is left out, and the names of the columns kept are listed unless all are kept
        List<Object[]> valueResults = valueStats.stream().map(ColumnStatsCollector::result).toList();
        List<Integer> denseColumns = new ArrayList<>();
        List<String> statsColumns = new ArrayList<>();
        for (int i = 0; i < valueResults.size(); i++) {
            Object[] result = valueResults.get(i);
            if (!layout.denseValueStats() || result[0] != null || result[1] != null || result[2] != null) {
                denseColumns.add(i);
                statsColumns.add(layout.valueColumns().get(i).name());
            }
        }
        boolean allValueStats = denseColumns.size() == valueResults.size();
        // Paimon's creation time is the local wall clock, stored as if it were UTC
        long creationTime = LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli();
        return new DataFileMeta(
                fileName,
                output.count(),
                rowCount,
                layout.keyValue() ? minKey : BinaryRow.EMPTY,
                maxKey,
                layout.keyValue() ? stats(layout.keyColumns(), keyStats.stream().map(ColumnStatsCollector::result).toList(), denseAll(keyStats.size())) : SimpleStats.EMPTY,
                stats(layout.valueColumns(), valueResults, denseColumns),
                minSequenceNumber,
                maxSequenceNumber,
                schemaId,
                0,
                ImmutableList.of(),
                OptionalLong.of(creationTime),
                OptionalLong.of(deleteRowCount),
                Optional.empty(),
                OptionalInt.of(DataFileMeta.FILE_SOURCE_APPEND),
                allValueStats ? Optional.empty() : Optional.of(statsColumns),
                Optional.empty(),
                OptionalLong.empty(),
                Optional.empty());
    }

    /** Stops writing and leaves the file to the caller to delete. */
    public void abort()
    {
        if (closed) {
            return;
        }
        closed = true;
        try {
            output.close();
        }
        catch (IOException _) {
            // the file is deleted by the caller; a failing close changes nothing about that
        }
    }

    private BinaryRow key(Page page, int position)
    {
        List<DataFileColumn> keyColumns = layout.keyColumns();
        BinaryRowWriter row = new BinaryRowWriter(keyColumns.size());
        for (int i = 0; i < keyColumns.size(); i++) {
            DataFileColumn column = keyColumns.get(i);
            row.write(i, column.type(), BinaryRowValues.value(column.type(), column.trinoType(), page.getBlock(i), position));
        }
        return row.complete();
    }

    private static List<Integer> denseAll(int count)
    {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return all;
    }

    private static SimpleStats stats(List<DataFileColumn> columns, List<Object[]> results, List<Integer> included)
    {
        List<DataType> types = new ArrayList<>();
        Object[] mins = new Object[included.size()];
        Object[] maxes = new Object[included.size()];
        List<Long> nullCounts = new ArrayList<>();
        for (int i = 0; i < included.size(); i++) {
            int column = included.get(i);
            types.add(columns.get(column).type().withNullable(true));
            Object[] result = results.get(column);
            mins[i] = result[0];
            maxes[i] = result[1];
            nullCounts.add((Long) result[2]);
        }
        return new SimpleStats(
                BinaryRowWriter.toBinaryRow(types, Arrays.asList(mins)),
                BinaryRowWriter.toBinaryRow(types, Arrays.asList(maxes)),
                Optional.of(nullCounts));
    }

    /** Names and ids of the key-value layout's system columns. */
    static DataFileColumn keyColumn(String name, int fieldId, DataType type, Type trinoType)
    {
        return new DataFileColumn(KEY_PREFIX + name, KEY_FIELD_ID_BASE + fieldId, type, trinoType);
    }

    static DataFileColumn sequenceNumberColumn()
    {
        return new DataFileColumn("_SEQUENCE_NUMBER", SEQUENCE_NUMBER_FIELD_ID, new DataType.BigIntType(false), BIGINT);
    }

    static DataFileColumn valueKindColumn()
    {
        return new DataFileColumn("_VALUE_KIND", VALUE_KIND_FIELD_ID, new DataType.TinyIntType(false), TINYINT);
    }
}
