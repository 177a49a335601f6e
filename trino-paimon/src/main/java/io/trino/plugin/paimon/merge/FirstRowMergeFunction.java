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
import io.trino.spi.TrinoException;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;

/**
 * The oldest add wins (merge-semantics §6). A retraction among several records is an error, as in Paimon, unless
 * {@code ignore-delete} skips it.
 */
public final class FirstRowMergeFunction
        implements MergeFunction
{
    private final boolean ignoreDelete;
    private Page page;
    private int position;
    private byte kind;

    public FirstRowMergeFunction(boolean ignoreDelete)
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
        if (KeyValueLayout.isRetract(kind)) {
            if (ignoreDelete) {
                return;
            }
            throw new TrinoException(PAIMON_MERGE_ERROR, "By default, First row merge engine can not accept DELETE/UPDATE_BEFORE records. You can config 'first-row.ignore-delete' to ignore the DELETE/UPDATE_BEFORE records.");
        }
        if (this.page == null) {
            this.page = page;
            this.position = position;
            this.kind = kind;
        }
    }

    @Override
    public void emitResult(OutputPageBuilder output)
    {
        if (page != null && !KeyValueLayout.isRetract(kind)) {
            output.add(page, position);
        }
    }
}
