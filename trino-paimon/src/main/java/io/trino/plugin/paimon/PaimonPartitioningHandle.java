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
package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ConnectorPartitioningHandle;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * How the rows of an INSERT into a primary-key table reach writers, so that one writer owns each bucket. Fixed-bucket
 * tables: by Paimon's bucket of their bucket key. Dynamic-bucket tables ({@code assigners} > 0): by Paimon's assigner
 * channel of their partition and trimmed primary key, so that one writer assigns the buckets of each
 * (partition, channel).
 *
 * @param bucketCount Trino's buckets: the table's buckets, or the assigner channels of a dynamic-bucket table
 * @param bucketKeyTypes the Paimon types (SQL text) of the routing columns, whose binary rows are hashed: the bucket
 * key, or for a dynamic-bucket table the partition keys followed by the trimmed primary key
 * @param modFunction {@code bucket-function.type} is {@code mod}
 * @param partitionKeyCount how many of the routing columns are partition keys (dynamic-bucket tables)
 * @param assigners assigners per partition of a dynamic-bucket table, 0 for a fixed-bucket table
 * @param rowIdFields empty when the routing columns are columns of the rows (INSERT); for the rows UPDATE, DELETE and
 * MERGE change, which Trino routes by their row id alone, the position of each routing column in the row id
 */
public record PaimonPartitioningHandle(int bucketCount, List<String> bucketKeyTypes, boolean modFunction, int partitionKeyCount, int assigners, List<Integer> rowIdFields)
        implements ConnectorPartitioningHandle
{
    public PaimonPartitioningHandle
    {
        checkArgument(bucketCount > 0, "bucketCount must be positive: %s", bucketCount);
        bucketKeyTypes = ImmutableList.copyOf(bucketKeyTypes);
        checkArgument(partitionKeyCount >= 0 && partitionKeyCount <= bucketKeyTypes.size(), "partitionKeyCount %s out of range", partitionKeyCount);
        checkArgument(assigners >= 0, "assigners is negative: %s", assigners);
        rowIdFields = ImmutableList.copyOf(rowIdFields);
        checkArgument(rowIdFields.isEmpty() || rowIdFields.size() == bucketKeyTypes.size(), "rowIdFields %s do not match the routing columns %s", rowIdFields, bucketKeyTypes);
    }

    public static PaimonPartitioningHandle fixed(int bucketCount, List<String> bucketKeyTypes, boolean modFunction)
    {
        return new PaimonPartitioningHandle(bucketCount, bucketKeyTypes, modFunction, 0, 0, List.of());
    }

    public static PaimonPartitioningHandle dynamic(int channels, int assigners, List<String> partitionKeyTypes, List<String> trimmedPrimaryKeyTypes)
    {
        checkArgument(assigners > 0, "assigners must be positive: %s", assigners);
        List<String> types = ImmutableList.<String>builder().addAll(partitionKeyTypes).addAll(trimmedPrimaryKeyTypes).build();
        return new PaimonPartitioningHandle(channels, types, false, partitionKeyTypes.size(), assigners, List.of());
    }

    /** The same routing, computed from the routing columns inside the row id, at the given positions of its fields. */
    public PaimonPartitioningHandle onRowId(List<Integer> rowIdFields)
    {
        checkArgument(!rowIdFields.isEmpty(), "rowIdFields is empty");
        return new PaimonPartitioningHandle(bucketCount, bucketKeyTypes, modFunction, partitionKeyCount, assigners, rowIdFields);
    }

    public boolean dynamicBuckets()
    {
        return assigners > 0;
    }
}
