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
import io.airlift.compress.v3.lzo.LzoDecompressor;
import io.airlift.slice.Slice;
import io.trino.filesystem.Location;
import io.trino.orc.AbstractOrcDataSource;
import io.trino.orc.OrcDataSource;
import io.trino.orc.OrcDataSourceId;
import io.trino.orc.OrcReaderOptions;
import io.trino.spi.TrinoException;
import org.apache.orc.OrcProto;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static java.util.Objects.requireNonNull;

/**
 * An ORC file compressed with LZO (Paimon's {@code file.compression = lzo}), whose codec Trino 476's ORC reader
 * refuses, shown to that reader as the same file uncompressed: every stream, stripe footer, the metadata and the
 * footer are served decompressed, at the offsets their new lengths give, under a postscript that says {@code NONE}.
 * The row indexes and bloom filters are left out and the footer's row index stride cleared, since the indexes'
 * positions count compressed bytes; Trino then reads each stripe whole, still skipping stripes by their statistics. Opening decompresses the file once to learn the
 * lengths; a read decompresses the streams it covers again, one stream at a time.
 */
final class LzoOrcFile
        extends AbstractOrcDataSource
{
    // an ORC file starts with its magic
    private static final byte[] MAGIC = {'O', 'R', 'C'};
    // a compressed chunk starts with 3 bytes: its length times two, plus one when it is stored uncompressed
    private static final int CHUNK_HEADER_SIZE = 3;

    private final OrcDataSource file;
    private final Location location;
    private final int blockSize;
    private final List<Segment> segments;
    private final long size;
    private final LzoDecompressor decompressor = new LzoDecompressor();
    private Segment cachedSegment;
    private byte[] cachedBytes;

    private LzoOrcFile(OrcDataSource file, Location location, int blockSize, List<Segment> segments, long size, OrcReaderOptions options)
    {
        super(new OrcDataSourceId(file.getId() + " (LZO, read uncompressed)"), size, options);
        this.file = requireNonNull(file, "file is null");
        this.location = requireNonNull(location, "location is null");
        this.blockSize = blockSize;
        this.segments = ImmutableList.copyOf(segments);
        this.size = size;
    }

    /** The postscript at the end of the file, which says how the rest of it is compressed. */
    static OrcProto.PostScript postScript(OrcDataSource file, Location location)
            throws IOException
    {
        long fileSize = file.getEstimatedSize();
        if (fileSize < MAGIC.length + 2) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: too short for an ORC file (%s bytes)".formatted(location, fileSize));
        }
        int tailSize = (int) Math.min(fileSize, 256);
        Slice tail = file.readFully(fileSize - tailSize, tailSize);
        int postScriptLength = tail.getUnsignedByte(tailSize - 1);
        if (postScriptLength + 1 > tailSize) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: ORC postscript of %s bytes does not fit the file".formatted(location, postScriptLength));
        }
        return OrcProto.PostScript.parseFrom(tail.getBytes(tailSize - 1 - postScriptLength, postScriptLength));
    }

    /** The LZO file {@code file}, whose postscript is given, as Trino's ORC reader can read it. */
    static LzoOrcFile open(OrcDataSource file, Location location, OrcProto.PostScript postScript, OrcReaderOptions options)
            throws IOException
    {
        checkArgument(postScript.getCompression() == OrcProto.CompressionKind.LZO, "not an LZO file: %s", location);
        long fileSize = file.getEstimatedSize();
        int blockSize = (int) postScript.getCompressionBlockSize();
        int postScriptLength = file.readFully(fileSize - 1, 1).getUnsignedByte(0);
        long footerStart = fileSize - 1 - postScriptLength - postScript.getFooterLength();
        long metadataStart = footerStart - postScript.getMetadataLength();
        LzoDecompressor decompressor = new LzoDecompressor();
        byte[] metadata = decompress(decompressor, location, blockSize, file.readFully(metadataStart, toInt(location, postScript.getMetadataLength())));
        OrcProto.Footer footer = OrcProto.Footer.parseFrom(decompress(decompressor, location, blockSize, file.readFully(footerStart, toInt(location, postScript.getFooterLength()))));

        List<Segment> segments = new ArrayList<>();
        segments.add(Segment.bytes(0, MAGIC));
        long offset = MAGIC.length;
        OrcProto.Footer.Builder served = footer.toBuilder().clearStripes();
        for (OrcProto.StripeInformation stripe : footer.getStripesList()) {
            long footerOffset = stripe.getOffset() + stripe.getIndexLength() + stripe.getDataLength();
            OrcProto.StripeFooter stripeFooter = OrcProto.StripeFooter.parseFrom(decompress(decompressor, location, blockSize, file.readFully(footerOffset, toInt(location, stripe.getFooterLength()))));
            OrcProto.StripeFooter.Builder servedFooter = stripeFooter.toBuilder().clearStreams();
            long stripeStart = offset;
            long streamOffset = stripe.getOffset();
            for (OrcProto.Stream stream : stripeFooter.getStreamsList()) {
                if (streamOffset + stream.getLength() > footerOffset) {
                    throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: ORC stream of column %s runs past its stripe's footer".formatted(location, stream.getColumn()));
                }
                if (streamOffset < stripe.getOffset() + stripe.getIndexLength()) {
                    // row indexes and bloom filters are left out: their positions count compressed bytes, and
                    // without a row index stride Trino expects none
                    streamOffset += stream.getLength();
                    continue;
                }
                int length = decompressedLength(decompressor, location, blockSize, file.readFully(streamOffset, toInt(location, stream.getLength())));
                segments.add(Segment.stream(offset, length, streamOffset, toInt(location, stream.getLength())));
                servedFooter.addStreams(stream.toBuilder().setLength(length));
                streamOffset += stream.getLength();
                offset += length;
            }
            byte[] footerBytes = servedFooter.build().toByteArray();
            segments.add(Segment.bytes(offset, footerBytes));
            offset += footerBytes.length;
            served.addStripes(stripe.toBuilder()
                    .setOffset(stripeStart)
                    .setIndexLength(0)
                    .setDataLength(offset - footerBytes.length - stripeStart)
                    .setFooterLength(footerBytes.length));
        }
        byte[] footerBytes = served
                .setContentLength(offset)
                // row index positions count compressed bytes: without a stride Trino reads stripes whole
                .setRowIndexStride(0)
                .build()
                .toByteArray();
        segments.add(Segment.bytes(offset, metadata));
        offset += metadata.length;
        segments.add(Segment.bytes(offset, footerBytes));
        offset += footerBytes.length;
        byte[] postScriptBytes = postScript.toBuilder()
                .setCompression(OrcProto.CompressionKind.NONE)
                .clearCompressionBlockSize()
                .setMetadataLength(metadata.length)
                .setFooterLength(footerBytes.length)
                .clearStripeStatisticsLength()
                .build()
                .toByteArray();
        if (postScriptBytes.length > 255) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: ORC postscript too long".formatted(location));
        }
        byte[] tail = new byte[postScriptBytes.length + 1];
        System.arraycopy(postScriptBytes, 0, tail, 0, postScriptBytes.length);
        tail[postScriptBytes.length] = (byte) postScriptBytes.length;
        segments.add(Segment.bytes(offset, tail));
        offset += tail.length;
        return new LzoOrcFile(file, location, blockSize, segments, offset, options);
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        if (position < 0 || position + bufferLength > size) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: read of %s bytes at %s past the end of the uncompressed view (%s bytes)".formatted(location, bufferLength, position, size));
        }
        int segmentIndex = segmentAt(position);
        while (bufferLength > 0) {
            Segment segment = segments.get(segmentIndex);
            byte[] bytes = bytesOf(segment);
            int from = (int) (position - segment.offset());
            int count = Math.min(bufferLength, bytes.length - from);
            System.arraycopy(bytes, from, buffer, bufferOffset, count);
            position += count;
            bufferOffset += count;
            bufferLength -= count;
            segmentIndex++;
        }
    }

    /** The file this view reads: what it reads from there is the input, not the decompressed bytes it serves. */
    OrcDataSource file()
    {
        return file;
    }

    @Override
    public void close()
            throws IOException
    {
        file.close();
    }

    private int segmentAt(long position)
    {
        int low = 0;
        int high = segments.size() - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (segments.get(middle).offset() <= position) {
                low = middle;
            }
            else {
                high = middle - 1;
            }
        }
        return low;
    }

    private byte[] bytesOf(Segment segment)
            throws IOException
    {
        if (segment.bytes() != null) {
            return segment.bytes();
        }
        if (segment != cachedSegment) {
            byte[] bytes = decompress(decompressor, location, blockSize, file.readFully(segment.fileOffset(), segment.fileLength()));
            if (bytes.length != segment.length()) {
                throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: ORC stream at %s decompressed to %s bytes, then to %s".formatted(location, segment.fileOffset(), segment.length(), bytes.length));
            }
            cachedSegment = segment;
            cachedBytes = bytes;
        }
        return cachedBytes;
    }

    // the bytes of an ORC stream (or footer, metadata, stripe footer) compressed in chunks, each LZO or stored as is
    private static byte[] decompress(LzoDecompressor decompressor, Location location, int blockSize, Slice compressed)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length() * 2);
        forEachChunk(decompressor, location, blockSize, compressed, out::write);
        return out.toByteArray();
    }

    // the length of a stream decompressed, holding one chunk at a time
    private static int decompressedLength(LzoDecompressor decompressor, Location location, int blockSize, Slice compressed)
    {
        long[] length = new long[1];
        forEachChunk(decompressor, location, blockSize, compressed, (_, _, chunkLength) -> length[0] += chunkLength);
        return toInt(location, length[0]);
    }

    private interface ChunkConsumer
    {
        void accept(byte[] bytes, int offset, int length);
    }

    private static void forEachChunk(LzoDecompressor decompressor, Location location, int blockSize, Slice compressed, ChunkConsumer consumer)
    {
        byte[] block = new byte[blockSize];
        int position = 0;
        while (position < compressed.length()) {
            if (position + CHUNK_HEADER_SIZE > compressed.length()) {
                throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: truncated ORC compression chunk header".formatted(location));
            }
            int header = compressed.getUnsignedByte(position) | (compressed.getUnsignedByte(position + 1) << 8) | (compressed.getUnsignedByte(position + 2) << 16);
            int length = header >>> 1;
            boolean original = (header & 1) == 1;
            position += CHUNK_HEADER_SIZE;
            if (position + length > compressed.length()) {
                throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: ORC compression chunk of %s bytes runs past its stream".formatted(location, length));
            }
            if (original) {
                consumer.accept(compressed.byteArray(), compressed.byteArrayOffset() + position, length);
            }
            else {
                int written;
                try {
                    written = decompressor.decompress(compressed.byteArray(), compressed.byteArrayOffset() + position, length, block, 0, block.length);
                }
                catch (MalformedInputException e) {
                    throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: LZO chunk does not decompress: %s".formatted(location, e.getMessage()), e);
                }
                consumer.accept(block, 0, written);
            }
            position += length;
        }
    }

    private static int toInt(Location location, long length)
    {
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: ORC section of %s bytes".formatted(location, length));
        }
        return (int) length;
    }

    // a part of the uncompressed view at [offset, offset + length): bytes built on opening, or a stream of the file
    private record Segment(long offset, int length, byte[] bytes, long fileOffset, int fileLength)
    {
        static Segment bytes(long offset, byte[] bytes)
        {
            return new Segment(offset, bytes.length, bytes, -1, 0);
        }

        static Segment stream(long offset, int length, long fileOffset, int fileLength)
        {
            return new Segment(offset, length, null, fileOffset, fileLength);
        }
    }
}
