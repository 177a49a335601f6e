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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static java.util.Objects.requireNonNull;

/**
 * The changes of one bucket of one partition in a {@code table_changes} read: for a delta or changelog range the
 * files one snapshot added to it, read as they were written; for a diff the bucket's files at the end
 * ({@code files}) and at the start ({@code startFiles}), each side merged, with their deletion vectors.
 *
 * @param snapshotId the snapshot the changes are reported as committed by (for a diff, the end)
 * @param commitMillis that snapshot's commit time
 */
public record TableChangesSplit(String partition, int bucket, List<PaimonDataFile> files, List<PaimonDataFile> startFiles, long snapshotId, long commitMillis, SplitWeight splitWeight)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(TableChangesSplit.class);

    public TableChangesSplit
    {
        requireNonNull(partition, "partition is null");
        files = ImmutableList.copyOf(files);
        startFiles = ImmutableList.copyOf(startFiles);
        requireNonNull(splitWeight, "splitWeight is null");
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return splitWeight;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE
                + estimatedSizeOf(partition)
                + estimatedSizeOf(files, TableChangesSplit::fileSize)
                + estimatedSizeOf(startFiles, TableChangesSplit::fileSize)
                + splitWeight.getRetainedSizeInBytes();
    }

    private static long fileSize(PaimonDataFile file)
    {
        return estimatedSizeOf(file.path()) + file.minKey().length + file.maxKey().length + 96L;
    }
}
