package io.trino.plugin.paimon.read;

import io.airlift.slice.Slice;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.TrinoException;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;

/**
 * Reads a data file's deletion vector from its index file (paimon-format.md §12): at the recorded offset, a
 * big-endian length, the magic number of the 32-bit flavour and a RoaringBitmap in its portable serialization.
 * Bit i set means row i of the data file is deleted.
 */
final class DeletionVectors
{
    private static final int BITMAP32_MAGIC = 1581511376;

    private DeletionVectors() {}

    static RoaringBitmap read(TrinoFileSystem fileSystem, PaimonDataFile.DeletionVectorReference reference)
    {
        Location location = Location.of(reference.indexFilePath());
        try (TrinoInput input = fileSystem.newInputFile(location).newInput()) {
            Slice blob = input.readFully(reference.offset(), reference.length() + 4);
            ByteBuffer buffer = blob.toByteBuffer();
            int length = buffer.getInt();
            int magic = buffer.getInt();
            if (magic != BITMAP32_MAGIC || length != reference.length()) {
                throw new TrinoException(PAIMON_BAD_DATA, "Invalid deletion vector at offset %s of %s (length %s, magic %s): 64-bit deletion vectors are not supported yet".formatted(reference.offset(), location, length, magic));
            }
            RoaringBitmap bitmap = new RoaringBitmap();
            bitmap.deserialize(buffer);
            return bitmap;
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to read the deletion vector at offset %s of %s".formatted(reference.offset(), location), e);
        }
    }
}
