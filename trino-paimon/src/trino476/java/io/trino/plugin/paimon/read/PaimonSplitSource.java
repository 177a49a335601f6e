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

import com.google.common.base.Stopwatch;
import io.airlift.units.Duration;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;
import static java.util.concurrent.CompletableFuture.completedFuture;
import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * Plans a scan's splits once the join's dynamic filters are known, or once the wait for them is over. Until then it
 * answers with empty batches that complete when a filter arrives or the wait ends, so no thread is held; the planner
 * then gets the dynamic filter's predicate as it stands (possibly all, or none for an empty build side). Trino 476
 * leaves the wait to the connector.
 */
final class PaimonSplitSource
        implements ConnectorSplitSource
{
    private static final ConnectorSplitBatch EMPTY_BATCH = new ConnectorSplitBatch(List.of(), false);

    private final DynamicFilter dynamicFilter;
    private final long waitMillis;
    private final Stopwatch waitStopwatch = Stopwatch.createStarted();
    private final Function<TupleDomain<ColumnHandle>, List<ConnectorSplit>> planner;
    private Iterator<ConnectorSplit> splits;

    PaimonSplitSource(ScanDynamicFilter dynamicFilter, Duration waitTimeout, Function<TupleDomain<ColumnHandle>, List<ConnectorSplit>> planner)
    {
        this.dynamicFilter = dynamicFilter.filter();
        this.waitMillis = waitTimeout.toMillis();
        this.planner = requireNonNull(planner, "planner is null");
    }

    @Override
    public CompletableFuture<ConnectorSplitBatch> getNextBatch(int maxSize)
    {
        if (splits == null) {
            long remainingMillis = waitMillis - waitStopwatch.elapsed(MILLISECONDS);
            if (dynamicFilter.isAwaitable() && remainingMillis > 0) {
                return dynamicFilter.isBlocked()
                        .thenApply(_ -> EMPTY_BATCH)
                        .completeOnTimeout(EMPTY_BATCH, remainingMillis, MILLISECONDS);
            }
            splits = planner.apply(dynamicFilter.getCurrentPredicate()).iterator();
        }
        List<ConnectorSplit> batch = new ArrayList<>(Math.min(maxSize, 1024));
        while (batch.size() < maxSize && splits.hasNext()) {
            batch.add(splits.next());
        }
        return completedFuture(new ConnectorSplitBatch(batch, !splits.hasNext()));
    }

    @Override
    public boolean isFinished()
    {
        return splits != null && !splits.hasNext();
    }

    @Override
    public void close() {}
}
