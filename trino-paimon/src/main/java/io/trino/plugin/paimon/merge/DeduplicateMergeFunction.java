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
package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;

/**
 * The newest record wins, its row kind included, so a newest retraction removes the key (merge-semantics §4). With
 * {@code ignore-delete}, retractions are skipped and the newest add wins.
 */
public final class DeduplicateMergeFunction
        implements MergeFunction
{
    private final boolean ignoreDelete;
    private Page page;
    private int position;
    private byte kind;

    public DeduplicateMergeFunction(boolean ignoreDelete)
    {
        this.ignoreDelete = ignoreDelete;
    }

    @Override
    public void reset()
    {
        page = null;
    }

    @Override
    public void add(Page page, int position, byte kind)
    {
        if (ignoreDelete && KeyValueLayout.isRetract(kind)) {
            return;
        }
        this.page = page;
        this.position = position;
        this.kind = kind;
    }

    @Override
    public void emitResult(OutputPageBuilder output)
    {
        if (page != null && !KeyValueLayout.isRetract(kind)) {
            output.add(page, position);
        }
    }
}
