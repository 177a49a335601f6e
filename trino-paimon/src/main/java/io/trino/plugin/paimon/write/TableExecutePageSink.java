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

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSink;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;

/**
 * The page sink of {@code optimize}: its page sources compact their buckets themselves and return no rows (see
 * {@code procedure.OptimizePageSource}), so it receives none and reports nothing.
 */
final class TableExecutePageSink
        implements ConnectorPageSink
{
    @Override
    public CompletableFuture<?> appendPage(Page page)
    {
        if (page.getPositionCount() > 0) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "optimize received %s rows; its compactions return none".formatted(page.getPositionCount()));
        }
        return NOT_BLOCKED;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public void abort() {}
}
