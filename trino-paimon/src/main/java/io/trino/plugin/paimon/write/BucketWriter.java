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

import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.spi.Page;

import java.util.List;

/**
 * Writes the rows of one (partition, bucket) of a statement into new level-0 data files.
 */
interface BucketWriter
{
    BinaryRow partition();

    int bucket();

    /**
     * Adds the rows at the positions of a page of table columns, as records of the given row kind
     * ({@link io.trino.plugin.paimon.merge.KeyValueLayout#INSERT} and the others; append tables take only inserts).
     */
    void add(Page rows, int[] positions, int length, byte kind);

    /** Bytes held in memory: buffered rows and open files' buffers. */
    long memoryUsage();

    /** Writes out what is buffered, if anything (a sorted run of level 0 for primary-key tables). */
    void flush();

    /**
     * Flushes and closes; the files written, in order.
     *
     * @param outputBufferLimit the most a file written now, beyond what is buffered, may buffer ({@link OutputBufferLimit})
     */
    List<DataFileMeta> finish(long outputBufferLimit);

    /** The changelog files written beside the data files (changelog-producer input), after {@link #finish}. */
    default List<DataFileMeta> changelogFiles()
    {
        return List.of();
    }

    /** Stops writing; the caller deletes the files. */
    void abort();
}
