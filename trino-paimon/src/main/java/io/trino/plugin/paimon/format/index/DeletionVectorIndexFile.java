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
package io.trino.plugin.paimon.format.index;

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInput;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry.DeletionVectorRange;
import io.trino.spi.TrinoException;
import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.zip.CRC32;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static java.util.Objects.requireNonNull;

/**
 * A deletion-vector index file ({@code DELETION_VECTORS}, paimon-format.md §12) as Paimon's writer lays it out: a
 * version byte, then one vector per data file, each a big-endian length, the data (magic number and bitmap) and a
 * CRC32 of the data. The 32-bit flavour holds one RoaringBitmap after a big-endian magic, and its range length is
 * the data's length; the 64-bit flavour ({@code deletion-vectors.bitmap64}) a little-endian magic, a little-endian
 * count of bitmaps and each bitmap after its key (the high 32 bits of its positions), and its range length covers the
 * whole vector, length field and checksum included. Bit i set means row i of the data file is deleted; no data file
 * has 2^31 rows, so every position lies in the bitmap of key 0.
 */
public final class DeletionVectorIndexFile
{
    private static final byte VERSION = 1;
    private static final int BITMAP32_MAGIC = 1581511376;
    private static final int BITMAP64_MAGIC = 1681511377;

    private DeletionVectorIndexFile() {}

    /** The bytes of an index file and where each data file's vector lies in them. */
    public record Encoded(byte[] bytes, List<DeletionVectorRange> ranges)
    {
        public Encoded
        {
            requireNonNull(bytes, "bytes is null");
            ranges = ImmutableList.copyOf(ranges);
        }
    }

    /**
     * @param vectors the deleted row positions of each data file, in the order they are written; a file with no
     * deleted row gets no vector
     */
    public static Encoded encode(Map<String, RoaringBitmap> vectors, boolean bitmap64)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        ImmutableList.Builder<DeletionVectorRange> ranges = ImmutableList.builder();
        for (Map.Entry<String, RoaringBitmap> entry : vectors.entrySet()) {
            RoaringBitmap positions = entry.getValue();
            if (positions.isEmpty()) {
                continue;
            }
            int offset = out.size();
            byte[] data = bitmap64 ? bitmap64Data(positions) : bitmap32Data(positions);
            ByteBuffer vector = ByteBuffer.allocate(data.length + 8);
            vector.putInt(data.length);
            vector.put(data);
            CRC32 checksum = new CRC32();
            checksum.update(data);
            vector.putInt((int) checksum.getValue());
            out.writeBytes(vector.array());
            int length = bitmap64 ? data.length + 8 : data.length;
            ranges.add(new DeletionVectorRange(entry.getKey(), offset, length, OptionalLong.of(positions.getLongCardinality())));
        }
        return new Encoded(out.toByteArray(), ranges.build());
    }

    /** Where an index file of the table lies: in its {@code index/} folder, as Paimon writes them by default. */
    public static Location location(Location tableLocation, String fileName)
    {
        return HashIndexFile.location(tableLocation, fileName);
    }

    /** Writes an encoded index file under a fresh name and returns its length. */
    public static long write(TrinoFileSystem fileSystem, Location location, Encoded file)
    {
        try {
            // a fresh name, so nobody else writes this file
            fileSystem.newOutputFile(location).createOrOverwrite(file.bytes());
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write deletion vector index file " + location, e);
        }
        return file.bytes().length;
    }

    /**
     * Reads one data file's vector: the manifest gives its offset in the index file and its range length.
     *
     * @throws TrinoException {@code PAIMON_BAD_DATA} naming the index file when the vector is not there or invalid
     */
    public static RoaringBitmap read(TrinoFileSystem fileSystem, Location location, long offset, long rangeLength)
    {
        try (TrinoInput input = fileSystem.newInputFile(location).newInput()) {
            ByteBuffer header = input.readFully(offset, 8).toByteBuffer();
            int length = header.getInt();
            int magic = header.getInt();
            // the manifest records the 32-bit flavour's length as its bitmap data, the 64-bit one's with the length
            // field and the checksum around it
            boolean bitmap32 = magic == BITMAP32_MAGIC && length == rangeLength;
            boolean bitmap64 = magic == Integer.reverseBytes(BITMAP64_MAGIC) && length + 8L == rangeLength;
            if (!bitmap32 && !bitmap64) {
                throw new TrinoException(PAIMON_BAD_DATA, "Invalid deletion vector at offset %s of %s: length %s (manifest: %s), magic %s".formatted(offset, location, length, rangeLength, magic));
            }
            ByteBuffer data = input.readFully(offset + 8, length - 4).toByteBuffer();
            if (bitmap32) {
                RoaringBitmap bitmap = new RoaringBitmap();
                bitmap.deserialize(data);
                return bitmap;
            }
            return read64(data.order(LITTLE_ENDIAN), location, offset);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to read the deletion vector at offset %s of %s".formatted(offset, location), e);
        }
    }

    private static RoaringBitmap read64(ByteBuffer buffer, Location location, long offset)
            throws IOException
    {
        long count = buffer.getLong();
        if (count < 0 || count > Integer.MAX_VALUE) {
            throw new TrinoException(PAIMON_BAD_DATA, "Invalid 64-bit deletion vector at offset %s of %s: %s bitmaps".formatted(offset, location, count));
        }
        RoaringBitmap positions = new RoaringBitmap();
        for (long i = 0; i < count; i++) {
            int key = buffer.getInt();
            RoaringBitmap bitmap = new RoaringBitmap();
            // a slice, so where the bitmap ends is taken from its size whatever the library does with the position
            bitmap.deserialize(buffer.slice().order(LITTLE_ENDIAN));
            buffer.position(buffer.position() + bitmap.serializedSizeInBytes());
            if (key == 0) {
                positions = bitmap;
            }
            else if (!bitmap.isEmpty()) {
                throw new TrinoException(PAIMON_BAD_DATA, "Invalid 64-bit deletion vector at offset %s of %s: it deletes rows past 2^32 (key %s)".formatted(offset, location, key));
            }
        }
        return positions;
    }

    private static byte[] bitmap32Data(RoaringBitmap positions)
    {
        ByteBuffer data = ByteBuffer.allocate(4 + positions.serializedSizeInBytes());
        data.putInt(BITMAP32_MAGIC);
        positions.serialize(data);
        return data.array();
    }

    // positions of a data file stay below 2^31, so they all fall in the bitmap of key 0
    private static byte[] bitmap64Data(RoaringBitmap positions)
    {
        RoaringBitmap bitmap = positions.clone();
        bitmap.runOptimize();
        ByteBuffer data = ByteBuffer.allocate(4 + 8 + 4 + bitmap.serializedSizeInBytes()).order(LITTLE_ENDIAN);
        data.putInt(BITMAP64_MAGIC);
        data.putLong(1);
        data.putInt(0);
        bitmap.serialize(data);
        return data.array();
    }
}
