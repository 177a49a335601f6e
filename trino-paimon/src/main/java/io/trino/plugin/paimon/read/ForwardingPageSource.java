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

import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * A page source that gives the pages of another, each rearranged by {@link #transform}; everything else (progress,
 * memory, metrics, closing) is the other's.
 */
abstract class ForwardingPageSource
        implements ConnectorPageSource
{
    private final ConnectorPageSource source;

    protected ForwardingPageSource(ConnectorPageSource source)
    {
        this.source = requireNonNull(source, "source is null");
    }

    /** The page to return for one of the source's pages. */
    protected abstract SourcePage transform(SourcePage page);

    @Override
    public final SourcePage getNextSourcePage()
    {
        SourcePage page = source.getNextSourcePage();
        return page == null ? null : transform(page);
    }

    @Override
    public final long getCompletedBytes()
    {
        return source.getCompletedBytes();
    }

    @Override
    public final OptionalLong getCompletedPositions()
    {
        return source.getCompletedPositions();
    }

    @Override
    public final long getReadTimeNanos()
    {
        return source.getReadTimeNanos();
    }

    @Override
    public final boolean isFinished()
    {
        return source.isFinished();
    }

    @Override
    public final long getMemoryUsage()
    {
        return source.getMemoryUsage();
    }

    @Override
    public final CompletableFuture<?> isBlocked()
    {
        return source.isBlocked();
    }

    @Override
    public final Metrics getMetrics()
    {
        return source.getMetrics();
    }

    @Override
    public final void close()
            throws IOException
    {
        source.close();
    }
}
