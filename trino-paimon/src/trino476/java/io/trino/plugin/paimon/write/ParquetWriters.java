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
 * What differs in Trino's Parquet writer between releases, as Trino 476 has it: it tells the bytes written out and
 * those buffered apart, and encodes byte arrays a dictionary cannot hold as PLAIN.
 */
final class ParquetWriters
{
    private ParquetWriters() {}

    /** Options every data file is written with, before the table's layout. */
    static ParquetWriterOptions.Builder options()
    {
        return ParquetWriterOptions.builder();
    }

    /**
     * The bytes of the row groups written out so far, which change while the writer takes a piece of rows only if it
     * ends a row group there: here the writer's own count, exact.
     */
    static long rowGroupBytes(ParquetWriter writer, ParquetPageLocator file)
    {
        return writer.getWrittenBytes();
    }

    static long writtenBytes(ParquetWriter writer)
    {
        return writer.getWrittenBytes();
    }

    static long estimatedSize(ParquetWriter writer)
    {
        return writer.getWrittenBytes() + writer.getBufferedBytes();
    }
}
