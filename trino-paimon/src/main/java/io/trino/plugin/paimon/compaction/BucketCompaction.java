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
package io.trino.plugin.paimon.compaction;

/**
 * A compaction of one bucket under way, done a page at a time, so that between pages the engine sees the memory it
 * holds (the pages read, the output file's buffered row group) and can stop it. Created by
 * {@link BucketCompactor#startFully} and {@link BucketCompactor#startAppend}.
 */
public interface BucketCompaction
{
    /** Reads and writes the next page of records; true once every record is written. */
    boolean advance();

    /** Bytes the compaction holds now: its readers' pages and its writer's buffers. */
    long memoryUsage();

    /** Closes the readers and the output; the files written. Only after {@link #advance} returned true. */
    BucketCompactor.CompactionOutput finish();

    /** Closes the readers and deletes what was written: the compaction is given up. */
    void abort();
}
