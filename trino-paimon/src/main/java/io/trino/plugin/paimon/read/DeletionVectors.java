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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.IntToLongFunction;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Reads a data file's deletion vector from its index file (paimon-format.md §12): at the recorded offset, a
 * big-endian length, then a magic number that tells the flavour. The 32-bit flavour (big-endian magic) holds one
 * RoaringBitmap in its portable serialization; the 64-bit flavour ({@code deletion-vectors.bitmap64}, little-endian
 * magic) holds a little-endian count of bitmaps, then each bitmap's key (the high 32 bits of its positions) and the
 * bitmap. Bit i set means row i of the data file is deleted. No data file has 2^31 rows, so every position lies in
 * the bitmap of key 0.
 */
public final class DeletionVectors
{
    private static final int BITMAP32_MAGIC = 1581511376;
    private static final int BITMAP64_MAGIC = 1681511377;

    private DeletionVectors() {}

    public static RoaringBitmap read(TrinoFileSystem fileSystem, PaimonDataFile.DeletionVectorReference reference)
    {
        Location location = Location.of(reference.indexFilePath());
        try (TrinoInput input = fileSystem.newInputFile(location).newInput()) {
            ByteBuffer header = input.readFully(reference.offset(), 8).toByteBuffer();
            int length = header.getInt();
            int magic = header.getInt();
            // the manifest records the 32-bit flavour's length as its bitmap data, the 64-bit one's with the length
            // field and the checksum around it
            boolean bitmap32 = magic == BITMAP32_MAGIC && length == reference.length();
            boolean bitmap64 = magic == Integer.reverseBytes(BITMAP64_MAGIC) && length + 8L == reference.length();
            if (!bitmap32 && !bitmap64) {
                throw new TrinoException(PAIMON_BAD_DATA, "Invalid deletion vector at offset %s of %s: length %s (manifest: %s), magic %s".formatted(reference.offset(), location, length, reference.length(), magic));
            }
            ByteBuffer data = input.readFully(reference.offset() + 8, length - 4).toByteBuffer();
            if (bitmap32) {
                RoaringBitmap bitmap = new RoaringBitmap();
                bitmap.deserialize(data);
                return bitmap;
            }
            return read64(data.order(LITTLE_ENDIAN), location, reference.offset());
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to read the deletion vector at offset %s of %s".formatted(reference.offset(), location), e);
        }
    }

    /**
     * The rows of a page that the deletion vector does not mark, given each row's position in its file; the page
     * itself when none is marked, and a page of no rows when all are.
     */
    static Page withoutDeletedRows(Page page, RoaringBitmap deletedRows, IntToLongFunction rowNumber)
    {
        int positions = page.getPositionCount();
        int[] kept = new int[positions];
        int keptCount = keptPositions(positions, deletedRows, rowNumber, kept);
        if (keptCount == positions) {
            return page;
        }
        return page.getPositions(kept, 0, keptCount);
    }

    /** Writes into {@code kept} the positions of the rows the deletion vector does not mark, and returns their count. */
    static int keptPositions(int positions, RoaringBitmap deletedRows, IntToLongFunction rowNumber, int[] kept)
    {
        int keptCount = 0;
        for (int position = 0; position < positions; position++) {
            if (!deletedRows.contains((int) rowNumber.applyAsLong(position))) {
                kept[keptCount++] = position;
            }
        }
        return keptCount;
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
}
