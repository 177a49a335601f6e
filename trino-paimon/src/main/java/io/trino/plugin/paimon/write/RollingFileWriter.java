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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.spi.Page;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Writes one ordered stream of key-value pages (a sorted run, or the changelog of one flush) into as many files as the
 * target file size asks for: every 1000 records, as Paimon's rolling writer does, the size of the open file is
 * checked, and once it reached the target the file is closed and the next records go to a new one. The files keep the
 * order of the stream, so the files of a sorted run hold disjoint, ascending key ranges.
 */
final class RollingFileWriter
{
    // Paimon's RollingFileWriterImpl checks the size of its open file every 1000 records
    static final int CHECK_ROLLING_RECORDS = 1000;

    private final Supplier<KeyValueFileWriter> newFile;
    private final long targetFileSize;
    private final List<DataFileMeta> written = new ArrayList<>();
    private KeyValueFileWriter current;
    private long recordCount;

    RollingFileWriter(Supplier<KeyValueFileWriter> newFile, long targetFileSize)
    {
        this.newFile = requireNonNull(newFile, "newFile is null");
        checkArgument(targetFileSize > 0, "targetFileSize is not positive: %s", targetFileSize);
        this.targetFileSize = targetFileSize;
    }

    void write(Page page)
    {
        int positions = page.getPositionCount();
        int start = 0;
        while (start < positions) {
            if (current == null) {
                current = newFile.get();
            }
            int length = (int) Math.min(CHECK_ROLLING_RECORDS - recordCount % CHECK_ROLLING_RECORDS, positions - start);
            current.write(start == 0 && length == positions ? page : page.getRegion(start, length));
            start += length;
            recordCount += length;
            if (recordCount % CHECK_ROLLING_RECORDS == 0 && current.estimatedSize() >= targetFileSize) {
                closeCurrent();
            }
        }
    }

    long memoryUsage()
    {
        return current == null ? 0 : current.memoryUsage();
    }

    /** Closes the open file; the files written, in order. */
    List<DataFileMeta> close()
    {
        if (current != null) {
            closeCurrent();
        }
        return ImmutableList.copyOf(written);
    }

    /** Stops writing; the caller deletes the files. */
    void abort()
    {
        if (current != null) {
            current.abort();
            current = null;
        }
    }

    private void closeCurrent()
    {
        KeyValueFileWriter file = current;
        current = null;
        if (file.rowCount() > 0) {
            written.add(file.close());
        }
        else {
            file.abort();
        }
    }
}
