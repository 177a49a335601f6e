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
 * One bucket of one partition (for an append table: one file), or, for a bucket larger than {@code max_split_size},
 * some of its sections: the files of a section overlap in key ranges and are merged together, so a section is never
 * spread over several splits.
 */
public record PaimonSplit(String partition, int bucket, List<PaimonDataFile> files, SplitWeight splitWeight)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(PaimonSplit.class);

    public PaimonSplit
    {
        requireNonNull(partition, "partition is null");
        files = ImmutableList.copyOf(files);
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
                + estimatedSizeOf(files, file -> estimatedSizeOf(file.path()) + file.minKey().length + file.maxKey().length + 96L)
                + splitWeight.getRetainedSizeInBytes();
    }
}
