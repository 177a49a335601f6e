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

import io.trino.plugin.paimon.PaimonPartitioningHandle;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.spi.connector.BucketFunction;
import io.trino.spi.connector.ConnectorBucketNodeMap;
import io.trino.spi.connector.ConnectorNodePartitioningProvider;
import io.trino.spi.connector.ConnectorPartitioningHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.connector.ConnectorBucketNodeMap.createBucketNodeMap;

/**
 * Trino's buckets for writing a fixed-bucket table are Paimon's buckets: as many as the table has, each row in the
 * bucket Paimon puts it in. For a dynamic-bucket table they are Paimon's assigner channels.
 */
public class PaimonNodePartitioningProvider
        implements ConnectorNodePartitioningProvider
{
    @Override
    public Optional<ConnectorBucketNodeMap> getBucketNodeMapping(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorPartitioningHandle partitioningHandle)
    {
        // MERGE routes inserted rows with the insert handle and changed rows with the row-id handle; Trino requires
        // both to place each bucket on the same node, which the same cache key hint gives
        int bucketCount = ((PaimonPartitioningHandle) partitioningHandle).bucketCount();
        return Optional.of(createBucketNodeMap(bucketCount).withCacheKeyHint(bucketCount));
    }

    @Override
    public BucketFunction getBucketFunction(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorPartitioningHandle partitioningHandle, List<Type> partitionChannelTypes, int bucketCount)
    {
        PaimonPartitioningHandle handle = (PaimonPartitioningHandle) partitioningHandle;
        return new PaimonBucketFunction(
                handle.bucketKeyTypes().stream().map(DataTypeParser::parse).toList(),
                partitionChannelTypes,
                handle.bucketCount(),
                handle.modFunction(),
                handle.partitionKeyCount(),
                handle.assigners(),
                handle.rowIdFields());
    }
}
