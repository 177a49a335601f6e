package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ConnectorPartitioningHandle;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Rows of a fixed-bucket table routed by Paimon's bucket of their bucket key, so that one writer owns each bucket.
 *
 * @param bucketKeyTypes the Paimon types of the bucket key columns (SQL text), whose binary row is hashed
 * @param modFunction {@code bucket-function.type} is {@code mod}
 */
public record PaimonPartitioningHandle(int bucketCount, List<String> bucketKeyTypes, boolean modFunction)
        implements ConnectorPartitioningHandle
{
    public PaimonPartitioningHandle
    {
        checkArgument(bucketCount > 0, "bucketCount must be positive: %s", bucketCount);
        bucketKeyTypes = ImmutableList.copyOf(bucketKeyTypes);
    }
}
