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
package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

import java.io.Closeable;

/**
 * Reads one sorted run record by record, in key order, one page at a time. Each page holds every channel of the
 * {@link KeyValueLayout}, already loaded, and stays valid after the cursor moves on (merged keys may still
 * refer to it).
 */
public interface SortedRunCursor
        extends Closeable
{
    /** Moves to the next record; false when the run is exhausted. Starts before the first record. */
    boolean advance();

    Page page();

    int position();

    /** LSM level of the file the current record comes from. */
    int level();

    /** Bytes of memory the cursor holds (its current page and reader buffers). */
    long memoryUsage();

    @Override
    void close();
}
