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
import io.trino.spi.block.Block;

/**
 * Folds the records of one key, given oldest to newest in merge order, into at most one row (Paimon's
 * reset / add / result contract, merge-semantics §2.6). The result goes straight into the output; a result of a
 * retract kind (-U, -D) is not emitted.
 */
public interface MergeFunction
{
    void reset();

    void add(Page page, int position, byte kind);

    /** Adds the key's row to the output, unless the key yields none. */
    void emitResult(OutputPageBuilder output);

    /**
     * The values computed since the last call, a block per output column, which rows refer to with
     * {@link OutputPageBuilder#COMPUTED}; functions that only pick input values compute none.
     */
    default Block[] buildComputedColumns()
    {
        return new Block[0];
    }
}
