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
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * The writer of one bucket of a primary-key table: rows go into a {@link SortBuffer}, and each flush writes the
 * buffer as one sorted run of level 0, rolled into files of the target file size, as Paimon's merge-tree writer
 * flushes its write buffer. When the rows of a statement overflowed the buffer, {@link #finish} merges the runs it
 * flushed into one ({@link SpilledRunMerge}) and deletes them, as Paimon's spillable buffer ends a statement with one
 * run: each extra run would cost every later key lookup one more page per column. With {@code changelog-producer} =
 * {@code input} each flush also writes the records it received, unmerged and in the same order, as changelog files.
 */
final class MergeTreeBucketWriter
        implements BucketWriter
{
    private final BinaryRow partition;
    private final int bucket;
    private final Location directory;
    private final DataFiles files;
    private final SortBuffer buffer;
    private final Optional<SpilledRunMerge> runMerge;
    private List<DataFileMeta> written = new ArrayList<>();
    private int runCount;
    // the files of a merged run, deleted on abort: the sink's own list of created files does not know them
    private List<DataFileMeta> merged = List.of();
    private final List<DataFileMeta> changelog = new ArrayList<>();
    private RollingFileWriter current;
    private RollingFileWriter currentChangelog;

    /**
     * @param runMerge how the runs of a statement that flushed more than once become one; empty to keep them
     * ({@code write-buffer-spillable} = false)
     */
    MergeTreeBucketWriter(BinaryRow partition, int bucket, Location directory, DataFiles files, SortBuffer buffer, Optional<SpilledRunMerge> runMerge)
    {
        this.partition = requireNonNull(partition, "partition is null");
        this.bucket = bucket;
        this.directory = requireNonNull(directory, "directory is null");
        this.files = requireNonNull(files, "files is null");
        this.buffer = requireNonNull(buffer, "buffer is null");
        this.runMerge = requireNonNull(runMerge, "runMerge is null");
    }

    @Override
    public BinaryRow partition()
    {
        return partition;
    }

    @Override
    public int bucket()
    {
        return bucket;
    }

    @Override
    public void add(Page rows, int[] positions, int length, byte kind)
    {
        buffer.add(rows, positions, length, kind);
    }

    @Override
    public long memoryUsage()
    {
        return buffer.retainedBytes();
    }

    @Override
    public void flush()
    {
        if (buffer.isEmpty()) {
            return;
        }
        current = files.rollingDataFiles(directory);
        if (files.inputChangelog()) {
            currentChangelog = files.rollingChangelogFiles(directory);
            buffer.flush(Optional.of(currentChangelog::write), current::write);
            changelog.addAll(currentChangelog.close());
            currentChangelog = null;
        }
        else {
            buffer.flush(current::write);
        }
        written.addAll(current.close());
        current = null;
        runCount++;
    }

    @Override
    public List<DataFileMeta> finish(long outputBufferLimit)
    {
        flush();
        if (runCount > 1 && runMerge.isPresent()) {
            merged = runMerge.get().merge(directory, written, outputBufferLimit);
            List<DataFileMeta> runs = written;
            written = new ArrayList<>(merged);
            delete(runs);
        }
        return ImmutableList.copyOf(written);
    }

    @Override
    public List<DataFileMeta> changelogFiles()
    {
        return ImmutableList.copyOf(changelog);
    }

    @Override
    public void abort()
    {
        if (current != null) {
            current.abort();
        }
        if (currentChangelog != null) {
            currentChangelog.abort();
        }
        delete(merged);
    }

    private void delete(List<DataFileMeta> dataFiles)
    {
        for (DataFileMeta file : dataFiles) {
            Location location = directory.appendPath(file.fileName());
            try {
                files.fileSystem().deleteFile(location);
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete data file %s of a sorted run merged into another".formatted(location), e);
            }
        }
    }
}
