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
 * plus an estimate of those buffered, together (exact once the writer is closed): the end of a row group cannot be
 * told from it, so files written here get no page indexes. And it would encode byte arrays a dictionary cannot hold
 * as DELTA_LENGTH_BYTE_ARRAY, which Paimon Java 1.4.2 misreads (strings shifted by a byte): files keep PLAIN, as
 * written on 476.
 */
final class ParquetWriters
{
    private ParquetWriters() {}

    /** Options every data file is written with, before the table's layout. */
    static ParquetWriterOptions.Builder options()
    {
        return ParquetWriterOptions.builder().setUseDeltaLengthByteArrayEncoding(false);
    }

    /** Whether the bytes written out are known exactly, so a row group's end is seen as it is written. */
    static boolean rowGroupEndsKnown()
    {
        return false;
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
