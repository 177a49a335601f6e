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

import io.airlift.units.DataSize;
import io.trino.parquet.writer.ParquetWriter;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.lang.Math.min;
import static java.util.Objects.requireNonNull;

/**
 * A Parquet data file written by Trino's Parquet writer in the schema Paimon gives it ({@link ParquetFileSchema}),
 * with row groups and pages of the table's {@link ParquetLayout}, and, as Paimon's files have them, the column and
 * offset indexes that let a key lookup decode one page per column ({@link ParquetPageIndexes}).
 * <p>
 * Rows go to the writer in pieces of at most {@value #MAX_PIECE_ROWS} rows that never cross a multiple of the page
 * row limit within a row group: the writer ends pages only between pieces, so the bounds of each piece make the
 * bounds of each page. Files with a repeated column (array, map, multiset) get no page indexes: their pages' first
 * rows cannot be read from the page headers.
 */
final class ParquetFormatFileWriter
        implements FormatFileWriter
{
    private static final int MAX_PIECE_ROWS = 1024;

    private final List<DataFileColumn> columns;
    private final OutputStream output;
    private final ParquetWriter writer;
    private final int pageRowLimit;
    private final long maxPieceBytes;
    private final int leafColumns;
    // null when the file gets no page indexes
    private final ParquetPageLocator locator;
    private final Map<Integer, ColumnPageBounds> bounds = new HashMap<>();
    private long[] pieceStarts = new long[64];
    private int pieces;
    private long rows;
    private long rowGroupRows;
    private long rowGroupBytes;

    ParquetFormatFileWriter(OutputStream output, List<DataFileColumn> columns, CompressionCodec compression, ParquetLayout layout)
    {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.output = requireNonNull(output, "output is null");
        this.pageRowLimit = layout.pageRowLimit();
        // Trino's writer halves a piece above half a row group: pieces are cut that small first, so it takes them whole
        this.maxPieceBytes = Math.max(1, layout.rowGroupSize() / 2);
        ParquetFileSchema schema = new ParquetFileSchema(columns);
        MessageType messageType = schema.messageType();
        List<ColumnDescriptor> leaves = messageType.getColumns();
        this.leafColumns = leaves.size();
        boolean indexed = leaves.stream().allMatch(leaf -> leaf.getMaxRepetitionLevel() == 0);
        this.locator = indexed ? new ParquetPageLocator(output) : null;
        if (indexed) {
            for (int leaf = 0; leaf < leaves.size(); leaf++) {
                ColumnDescriptor descriptor = leaves.get(leaf);
                if (descriptor.getPath().length == 1) {
                    int channel = messageType.getFieldIndex(descriptor.getPath()[0]);
                    Optional<ColumnPageBounds> columnBounds = ColumnPageBounds.of(descriptor.getPrimitiveType(), schema.primitiveTypes().get(List.of(descriptor.getPath())), channel);
                    if (columnBounds.isPresent()) {
                        bounds.put(leaf, columnBounds.get());
                    }
                }
            }
        }
        this.writer = new ParquetWriter(
                indexed ? locator : output,
                messageType,
                schema.primitiveTypes(),
                ParquetWriters.options()
                        .setMaxBlockSize(DataSize.ofBytes(layout.rowGroupSize()))
                        .setMaxPageSize(DataSize.ofBytes(layout.pageSize()))
                        .setMaxPageValueCount(layout.pageRowLimit())
                        .setBatchSize(MAX_PIECE_ROWS)
                        .build(),
                compression,
                "trino-paimon",
                // int96 timestamps hold the wall clock (TIMESTAMP) or the instant (LTZ) as if in UTC
                Optional.of(DateTimeZone.UTC),
                Optional.empty());
    }

    @Override
    public void write(Page page)
            throws IOException
    {
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < blocks.length; i++) {
            DataFileColumn column = columns.get(i);
            blocks[i] = ParquetFileSchema.toStorage(column.type(), column.trinoType(), page.getBlock(i));
        }
        Page storage = new Page(page.getPositionCount(), blocks);
        if (locator == null) {
            writer.write(storage);
            return;
        }
        int position = 0;
        while (position < storage.getPositionCount()) {
            int length = min(storage.getPositionCount() - position, min(MAX_PIECE_ROWS, pageRowLimit - (int) (rowGroupRows % pageRowLimit)));
            Page piece = storage.getRegion(position, length);
            while (length > 1 && piece.getSizeInBytes() > maxPieceBytes) {
                length /= 2;
                piece = storage.getRegion(position, length);
            }
            if (pieces == pieceStarts.length) {
                pieceStarts = Arrays.copyOf(pieceStarts, pieces * 2);
            }
            pieceStarts[pieces++] = rows;
            for (ColumnPageBounds columnBounds : bounds.values()) {
                columnBounds.add(piece.getBlock(columnBounds.channel()));
            }
            writer.write(piece);
            rows += length;
            rowGroupRows += length;
            // the writer writes out a row group, and only then, while it takes a piece
            long written = ParquetWriters.rowGroupBytes(writer, locator);
            if (written != rowGroupBytes) {
                rowGroupBytes = written;
                rowGroupRows = 0;
            }
            position += length;
        }
    }

    @Override
    public long writtenBytes()
    {
        return ParquetWriters.writtenBytes(writer);
    }

    /** Row groups written plus the encoded rows buffered for the next one, as Paimon measures a Parquet file. */
    @Override
    public long estimatedSize()
    {
        return ParquetWriters.estimatedSize(writer);
    }

    @Override
    public long retainedBytes()
    {
        long retained = writer.getRetainedBytes() + (long) pieceStarts.length * Long.BYTES;
        for (ColumnPageBounds columnBounds : bounds.values()) {
            retained += columnBounds.retainedBytes();
        }
        return retained;
    }

    @Override
    public void close()
            throws IOException
    {
        if (locator == null) {
            writer.close();
            return;
        }
        try (output) {
            locator.expectValues(rows * leafColumns);
            writer.close();
            if (!ParquetPageIndexes.write(writer.getFileMetaData(), locator, Arrays.copyOf(pieceStarts, pieces), bounds)) {
                locator.releaseHeld();
            }
        }
    }
}
