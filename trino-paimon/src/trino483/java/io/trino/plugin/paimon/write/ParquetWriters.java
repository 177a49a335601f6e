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

import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;

/**
 * What differs in Trino's Parquet writer between releases, as Trino 483 has it. It tells only the bytes written out
 * plus an estimate of those buffered, together (exact once the writer is closed), so the end of a row group is seen
 * in the bytes that reach the file instead. And it would encode byte arrays a dictionary cannot hold as
 * DELTA_LENGTH_BYTE_ARRAY, which Paimon Java 1.4.2 misreads (strings shifted by a byte): files keep PLAIN, as written
 * on 476.
 */
final class ParquetWriters
{
    private ParquetWriters() {}

    /** Options every data file is written with, before the table's layout. */
    static ParquetWriterOptions.Builder options()
    {
        return ParquetWriterOptions.builder().setUseDeltaLengthByteArrayEncoding(false);
    }

    /**
     * The bytes of the row groups written out so far, which change while the writer takes a piece of rows only if it
     * ends a row group there: here those that reached the file. The writer writes only row groups out, through a
     * buffer of 4 kB, so a row group smaller than that may stay in it unseen; the pages of the next row group may then
     * hold up to a piece more than the page row limit, and their indexes still say where they are.
     */
    static long rowGroupBytes(ParquetWriter writer, ParquetPageLocator file)
    {
        return file.position();
    }

    static long writtenBytes(ParquetWriter writer)
    {
        return writer.getEstimatedWrittenBytes();
    }

    static long estimatedSize(ParquetWriter writer)
    {
        return writer.getEstimatedWrittenBytes();
    }
}
