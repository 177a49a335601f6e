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

import com.google.common.collect.ImmutableList;
import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.airlift.slice.BasicSliceInput;
import io.airlift.slice.Slice;
import io.trino.filesystem.Location;
import io.trino.parquet.ParquetDataSource;
import io.trino.spi.TrinoException;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * The column chunks of a Parquet file compressed with {@code LZ4_RAW} (Paimon's {@code file.compression = lz4_raw}),
 * which Trino 476's Parquet reader cannot decompress, shown to it as uncompressed chunks. Each such chunk gets an
 * address past the end of the file (a gap wider than any read Trino merges), where {@link ParquetFileDataSource}
 * serves its pages decompressed, under headers that say so. Only the chunks of the columns a read needs are moved;
 * their page indexes are dropped (their page offsets would point into the file), so those columns skip pages by
 * row-group statistics and dictionaries only.
 */
final class Lz4RawColumnChunks
{
    // far beyond any distance at which Trino merges two reads into one
    private static final long GAP = 1L << 32;

    private final Location location;
    private final List<MovedChunk> chunks;
    private final Lz4Decompressor decompressor = Lz4Decompressor.create();
    // the last chunk served, decompressed: a chunk is usually read in one go, or in a few consecutive parts
    private int cachedChunk = -1;
    private byte[] cachedBytes;

    private Lz4RawColumnChunks(Location location, List<MovedChunk> chunks)
    {
        this.location = requireNonNull(location, "location is null");
        this.chunks = ImmutableList.copyOf(chunks);
    }

    /**
     * The footer as Trino should read it when some chunk of the given top-level columns (lower case, as Trino's
     * Parquet reader names them) is compressed with
     * {@code LZ4_RAW}, with the chunks that the data source must then serve; empty when no chunk needs it.
     * The footer passed in is not changed. Reads the moved chunks' page headers.
     */
    static Optional<Moved> move(ParquetDataSource dataSource, Location location, FileMetaData footer, Set<String> columns)
            throws IOException
    {
        FileMetaData moved = null;
        ImmutableList.Builder<MovedChunk> chunks = ImmutableList.builder();
        long next = dataSource.getEstimatedSize() + GAP;
        List<RowGroup> rowGroups = footer.getRow_groups();
        for (int group = 0; group < rowGroups.size(); group++) {
            List<ColumnChunk> columnChunks = rowGroups.get(group).getColumns();
            for (int column = 0; column < columnChunks.size(); column++) {
                ColumnMetaData metadata = columnChunks.get(column).getMeta_data();
                if (metadata == null || metadata.getCodec() != CompressionCodec.LZ4_RAW || !columns.contains(metadata.getPath_in_schema().getFirst().toLowerCase(ENGLISH))) {
                    continue;
                }
                if (moved == null) {
                    moved = footer.deepCopy();
                }
                long start = startOf(metadata);
                int length = toIntExact(location, metadata.getTotal_compressed_size());
                Slice bytes = dataSource.readFully(start, length);
                Layout layout = layout(location, bytes);
                ColumnChunk chunk = moved.getRow_groups().get(group).getColumns().get(column);
                ColumnMetaData movedMetadata = chunk.getMeta_data();
                movedMetadata.setCodec(CompressionCodec.UNCOMPRESSED);
                movedMetadata.setTotal_compressed_size(layout.length());
                movedMetadata.setTotal_uncompressed_size(layout.length());
                movedMetadata.setData_page_offset(next + layout.firstDataPage());
                if (layout.firstDataPage() > 0) {
                    movedMetadata.setDictionary_page_offset(next);
                }
                else {
                    movedMetadata.unsetDictionary_page_offset();
                }
                movedMetadata.unsetIndex_page_offset();
                chunk.unsetOffset_index_offset();
                chunk.unsetOffset_index_length();
                chunk.unsetColumn_index_offset();
                chunk.unsetColumn_index_length();
                chunks.add(new MovedChunk(start, length, next, layout.length()));
                next += layout.length();
            }
        }
        if (moved == null) {
            return Optional.empty();
        }
        return Optional.of(new Moved(moved, new Lz4RawColumnChunks(location, chunks.build())));
    }

    /** The footer Trino reads, and the chunks it moved. */
    record Moved(FileMetaData footer, Lz4RawColumnChunks chunks)
    {
        Moved
        {
            requireNonNull(footer, "footer is null");
            requireNonNull(chunks, "chunks is null");
        }
    }

    /**
     * Copies the bytes at {@code position} of the moved chunks into the buffer, reading and decompressing a chunk
     * from the file when it is not the last one served; bytes between chunks read as zeros (Trino never asks for
     * them, but may read across them when it merges two reads).
     */
    void read(ParquetDataSource dataSource, long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        while (length > 0) {
            int index = chunkAt(position);
            if (index < 0) {
                int zeros = (int) Math.min(length, nextChunkStart(position) - position);
                Arrays.fill(buffer, offset, offset + zeros, (byte) 0);
                position += zeros;
                offset += zeros;
                length -= zeros;
                continue;
            }
            MovedChunk chunk = chunks.get(index);
            byte[] bytes = decompressed(dataSource, index);
            int from = (int) (position - chunk.movedStart());
            int count = Math.min(length, bytes.length - from);
            System.arraycopy(bytes, from, buffer, offset, count);
            position += count;
            offset += count;
            length -= count;
        }
    }

    private int chunkAt(long position)
    {
        for (int index = 0; index < chunks.size(); index++) {
            MovedChunk chunk = chunks.get(index);
            if (position >= chunk.movedStart() && position < chunk.movedStart() + chunk.movedLength()) {
                return index;
            }
        }
        return -1;
    }

    private long nextChunkStart(long position)
    {
        for (MovedChunk chunk : chunks) {
            if (chunk.movedStart() > position) {
                return chunk.movedStart();
            }
        }
        return Long.MAX_VALUE;
    }

    private byte[] decompressed(ParquetDataSource dataSource, int index)
            throws IOException
    {
        if (cachedChunk == index) {
            return cachedBytes;
        }
        MovedChunk chunk = chunks.get(index);
        Slice compressed = dataSource.readFully(chunk.start(), chunk.length());
        byte[] result = new byte[toIntExact(location, chunk.movedLength())];
        BasicSliceInput input = compressed.getInput();
        int written = 0;
        while (input.isReadable()) {
            PageHeader header = Util.readPageHeader(input);
            int dataStart = (int) input.position();
            int compressedSize = header.getCompressed_page_size();
            checkPage(dataStart + (long) compressedSize <= compressed.length(), "page runs past the end of its column chunk");
            PageHeader served = servedHeader(header);
            byte[] headerBytes = serialize(served);
            checkPage(written + headerBytes.length + (long) served.getCompressed_page_size() <= result.length, "column chunk decompresses to more bytes than its page headers say");
            System.arraycopy(headerBytes, 0, result, written, headerBytes.length);
            written += headerBytes.length;
            int levels = uncompressedPrefix(header);
            checkPage(levels <= compressedSize && levels <= header.getUncompressed_page_size(), "page levels longer than the page");
            // levels of a v2 data page are never compressed
            System.arraycopy(compressed.byteArray(), compressed.byteArrayOffset() + dataStart, result, written, levels);
            written += levels;
            int dataLength = compressedSize - levels;
            if (!isCompressed(header)) {
                System.arraycopy(compressed.byteArray(), compressed.byteArrayOffset() + dataStart + levels, result, written, dataLength);
                written += dataLength;
            }
            else {
                int expected = header.getUncompressed_page_size() - levels;
                if (expected > 0) {
                    int actual;
                    try {
                        actual = decompressor.decompress(compressed.byteArray(), compressed.byteArrayOffset() + dataStart + levels, dataLength, result, written, expected);
                    }
                    catch (MalformedInputException e) {
                        throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: LZ4_RAW page at offset %s does not decompress: %s".formatted(location, chunk.start() + dataStart, e.getMessage()), e);
                    }
                    checkPage(actual == expected, "LZ4_RAW page decompresses to %s bytes, its header says %s".formatted(actual, expected));
                }
                written += expected;
            }
            input.setPosition(dataStart + compressedSize);
        }
        checkPage(written == result.length, "column chunk decompresses to fewer bytes than its page headers say");
        cachedChunk = index;
        cachedBytes = result;
        return result;
    }

    private static Layout layout(Location location, Slice chunk)
            throws IOException
    {
        BasicSliceInput input = chunk.getInput();
        long length = 0;
        long firstDataPage = -1;
        while (input.isReadable()) {
            PageHeader header = Util.readPageHeader(input);
            if (firstDataPage < 0 && header.getType() != PageType.DICTIONARY_PAGE) {
                firstDataPage = length;
            }
            PageHeader served = servedHeader(header);
            length += serialize(served).length + (long) served.getCompressed_page_size();
            long next = input.position() + header.getCompressed_page_size();
            if (next > chunk.length() || header.getCompressed_page_size() < 0) {
                throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: LZ4_RAW page runs past the end of its column chunk".formatted(location));
            }
            input.setPosition(next);
        }
        return new Layout(toIntExact(location, length), Math.max(firstDataPage, 0));
    }

    private record Layout(int length, long firstDataPage) {}

    // the header of a page as served: its data uncompressed, no checksum (it was over the compressed bytes)
    private static PageHeader servedHeader(PageHeader header)
    {
        PageHeader served = header.deepCopy();
        served.unsetCrc();
        if (isCompressed(header)) {
            served.setCompressed_page_size(header.getUncompressed_page_size());
        }
        if (served.isSetData_page_header_v2()) {
            served.getData_page_header_v2().setIs_compressed(false);
        }
        return served;
    }

    private static boolean isCompressed(PageHeader header)
    {
        return switch (header.getType()) {
            case DATA_PAGE, DICTIONARY_PAGE -> true;
            case DATA_PAGE_V2 -> {
                DataPageHeaderV2 v2 = header.getData_page_header_v2();
                yield !v2.isSetIs_compressed() || v2.isIs_compressed();
            }
            // index pages are not read
            default -> false;
        };
    }

    private static int uncompressedPrefix(PageHeader header)
    {
        if (header.getType() != PageType.DATA_PAGE_V2) {
            return 0;
        }
        DataPageHeaderV2 v2 = header.getData_page_header_v2();
        return v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
    }

    private static byte[] serialize(PageHeader header)
            throws IOException
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        Util.writePageHeader(header, out);
        return out.toByteArray();
    }

    private static long startOf(ColumnMetaData metadata)
    {
        // the dictionary page, when there is one, comes before the first data page
        if (metadata.isSetDictionary_page_offset() && metadata.getDictionary_page_offset() > 0 && metadata.getDictionary_page_offset() < metadata.getData_page_offset()) {
            return metadata.getDictionary_page_offset();
        }
        return metadata.getData_page_offset();
    }

    private static int toIntExact(Location location, long value)
    {
        if (value < 0 || value > Integer.MAX_VALUE - 16) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: LZ4_RAW column chunk of %s bytes is too large to read".formatted(location, value));
        }
        return (int) value;
    }

    private void checkPage(boolean condition, String message)
    {
        if (!condition) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: %s".formatted(location, message));
        }
    }

    // a chunk at [start, start + length) of the file, served decompressed at [movedStart, movedStart + movedLength)
    private record MovedChunk(long start, int length, long movedStart, int movedLength) {}
}
