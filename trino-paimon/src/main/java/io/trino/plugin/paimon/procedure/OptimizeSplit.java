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
package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.read.PaimonDataFile;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.HexFormat;
import java.util.List;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static java.util.Objects.requireNonNull;

/** One bucket for {@code optimize} to compact: all its live files, rewritten into one run at {@code outputLevel}. */
public record OptimizeSplit(byte[] partition, String partitionPath, int bucket, int totalBuckets, List<PaimonDataFile> files, int outputLevel, SplitWeight splitWeight)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(OptimizeSplit.class);

    public OptimizeSplit
    {
        requireNonNull(partition, "partition is null");
        requireNonNull(partitionPath, "partitionPath is null");
        files = ImmutableList.copyOf(files);
        requireNonNull(splitWeight, "splitWeight is null");
    }

    /** Names the bucket among the splits of one execution, in the split source's information for the commit. */
    public String bucketId()
    {
        return bucketId(partition, bucket);
    }

    public static String bucketId(byte[] partition, int bucket)
    {
        return HexFormat.of().formatHex(partition) + "-" + bucket;
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
                + partition.length
                + estimatedSizeOf(partitionPath)
                + estimatedSizeOf(files, file -> estimatedSizeOf(file.path()) + file.minKey().length + file.maxKey().length + 96L)
                + splitWeight.getRetainedSizeInBytes();
    }
}
