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

import io.airlift.units.Duration;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;
import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * Plans a scan's splits on the first batch request, with the join's dynamic filters as they stand then. Since Trino
 * 482 the engine does the waiting: it waits up to the timeout this source asks for (none when no dynamic filter
 * covers the scan) before that first request, and hands the filters' predicate with it.
 */
final class PaimonSplitSource
        implements ConnectorSplitSource
{
    private final long waitMillis;
    private final Function<TupleDomain<ColumnHandle>, List<ConnectorSplit>> planner;
    private Iterator<ConnectorSplit> splits;

    PaimonSplitSource(ScanDynamicFilter dynamicFilter, Duration waitTimeout, Function<TupleDomain<ColumnHandle>, List<ConnectorSplit>> planner)
    {
        this.waitMillis = dynamicFilter.columns().isEmpty() ? 0 : waitTimeout.toMillis();
        this.planner = requireNonNull(planner, "planner is null");
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return waitMillis;
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilter)
    {
        if (splits == null) {
            splits = planner.apply(dynamicFilter.currentPredicate()).iterator();
        }
        List<ConnectorSplit> batch = new ArrayList<>(Math.min(maxSize, 1024));
        while (batch.size() < maxSize && splits.hasNext()) {
            batch.add(splits.next());
        }
        return completedFuture(batch);
    }

    @Override
    public boolean isFinished()
    {
        return splits != null && !splits.hasNext();
    }

    @Override
    public void close() {}
}
