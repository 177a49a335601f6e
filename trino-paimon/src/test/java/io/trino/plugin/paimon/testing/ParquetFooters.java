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
package io.trino.plugin.paimon.testing;

import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** The footer of a Parquet file, read by Parquet's own Thrift classes, for tests of how our writers lay files out. */
public final class ParquetFooters
{
    private ParquetFooters() {}

    public static FileMetaData footer(Path file)
    {
        try {
            return footer(Files.readAllBytes(file));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The footer of a whole file's bytes: its last 8 bytes are the footer's length, little-endian, and "PAR1". */
    public static FileMetaData footer(byte[] file)
    {
        int length = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        try {
            return Util.readFileMetaData(new ByteArrayInputStream(file, file.length - 8 - length, length));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a row group as stored: its column chunks compressed. */
    public static long compressedSize(RowGroup rowGroup)
    {
        return rowGroup.getColumns().stream().mapToLong(chunk -> chunk.getMeta_data().getTotal_compressed_size()).sum();
    }
}
