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
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.spi.Page;

import java.util.ArrayList;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * The writer of one bucket of an append table: rows are written as they come, unsorted, into files rolled at the
 * target file size; each row takes the bucket's next sequence number (Paimon's append writer does the same).
 */
final class AppendBucketWriter
        implements BucketWriter
{
    private final BinaryRow partition;
    private final int bucket;
    private final Location directory;
    private final DataFiles files;
    private final long targetFileSize;
    private final List<DataFileMeta> written = new ArrayList<>();
    private long nextSequenceNumber;
    private KeyValueFileWriter current;

    AppendBucketWriter(BinaryRow partition, int bucket, Location directory, DataFiles files, long targetFileSize, long firstSequenceNumber)
    {
        this.partition = requireNonNull(partition, "partition is null");
        this.bucket = bucket;
        this.directory = requireNonNull(directory, "directory is null");
        this.files = requireNonNull(files, "files is null");
        this.targetFileSize = targetFileSize;
        this.nextSequenceNumber = firstSequenceNumber;
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
        checkArgument(kind == KeyValueLayout.INSERT, "an append table takes only inserted rows, not row kind %s", kind);
        if (current == null) {
            current = files.create(directory);
        }
        current.write(rows.getPositions(positions, 0, length));
        current.addSequenceRange(nextSequenceNumber, nextSequenceNumber + length - 1);
        nextSequenceNumber += length;
        if (current.estimatedSize() >= targetFileSize) {
            flush();
        }
    }

    @Override
    public long memoryUsage()
    {
        return current == null ? 0 : current.memoryUsage();
    }

    @Override
    public void flush()
    {
        if (current != null) {
            written.add(current.close());
            current = null;
        }
    }

    @Override
    public List<DataFileMeta> finish(long outputBufferLimit)
    {
        // only closes the open file, whose buffer is counted: nothing new is written
        return finish();
    }

    /** Closes the open file; the files written, in order. */
    List<DataFileMeta> finish()
    {
        flush();
        return ImmutableList.copyOf(written);
    }

    @Override
    public void abort()
    {
        if (current != null) {
            current.abort();
        }
    }
}
