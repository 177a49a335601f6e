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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import io.trino.plugin.paimon.format.MetadataPaths;
import io.trino.spi.TrinoException;

import java.io.IOException;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * A dynamic-bucket key index file ({@code HASH}, paimon-format.md §8.2): the key hashes of one (partition, bucket),
 * each a big-endian int32, nothing else (no header, no footer). The files live in the table's {@code index/} folder.
 */
public final class HashIndexFile
{
    public static final String INDEX_DIRECTORY = "index";

    private HashIndexFile() {}

    public static Location location(Location tableLocation, String fileName)
    {
        return MetadataPaths.child(requireNonNull(tableLocation, "tableLocation is null").appendPath(INDEX_DIRECTORY), fileName, "index file");
    }

    public static int[] read(TrinoFileSystem fileSystem, Location location)
    {
        try {
            TrinoInputFile file = fileSystem.newInputFile(location);
            long length = file.length();
            if (length % Integer.BYTES != 0 || length > Integer.MAX_VALUE) {
                throw new TrinoException(PAIMON_BAD_DATA, "Hash index file %s has %s bytes, not a whole number of 4-byte hashes".formatted(location, length));
            }
            byte[] bytes = new byte[(int) length];
            try (TrinoInputStream input = file.newStream()) {
                input.readNBytes(bytes, 0, bytes.length);
            }
            return decode(bytes);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to read hash index file " + location, e);
        }
    }

    /** Writes the hashes to a file under a fresh name and returns its length. */
    public static long write(TrinoFileSystem fileSystem, Location location, int[] hashes)
    {
        byte[] bytes = encode(hashes);
        try {
            // a fresh name, so nobody else writes this file
            fileSystem.newOutputFile(location).createOrOverwrite(bytes);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write hash index file " + location, e);
        }
        return bytes.length;
    }

    public static byte[] encode(int[] hashes)
    {
        byte[] bytes = new byte[hashes.length * Integer.BYTES];
        for (int i = 0; i < hashes.length; i++) {
            int hash = hashes[i];
            bytes[i * 4] = (byte) (hash >>> 24);
            bytes[i * 4 + 1] = (byte) (hash >>> 16);
            bytes[i * 4 + 2] = (byte) (hash >>> 8);
            bytes[i * 4 + 3] = (byte) hash;
        }
        return bytes;
    }

    public static int[] decode(byte[] bytes)
    {
        int[] hashes = new int[bytes.length / Integer.BYTES];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = ((bytes[i * 4] & 0xFF) << 24) | ((bytes[i * 4 + 1] & 0xFF) << 16) | ((bytes[i * 4 + 2] & 0xFF) << 8) | (bytes[i * 4 + 3] & 0xFF);
        }
        return hashes;
    }
}
