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

import io.trino.spi.Page;

import java.io.IOException;

/**
 * The bytes of one data file in one format: takes pages whose channels are the file's columns ({@link DataFileColumn}
 * in file order, blocks of the columns' Trino types) and encodes them as Paimon's writer of that format would. What a
 * file holds and how it is described in the manifest is the caller's ({@link KeyValueFileWriter}); this knows only
 * the encoding.
 */
interface FormatFileWriter
{
    void write(Page page)
            throws IOException;

    /** Bytes already handed to the output stream. */
    long writtenBytes();

    /** The size the file would have if closed now, as Paimon estimates it when deciding to roll. */
    long estimatedSize();

    long retainedBytes();

    /** Finishes the file and closes the output stream. */
    void close()
            throws IOException;
}
