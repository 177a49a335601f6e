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
import io.trino.spi.block.BlockBuilder;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;

/**
 * Aggregates one column over the records of a key (merge-semantics §7). Functions whose result is one of the input
 * values (last_value, min, ...) keep a reference to it; the others (sum, product, ...) compute a value and write
 * it into the column's block of computed values.
 */
public interface FieldAggregator
{
    void reset();

    /** Folds in the column's value of an add record (+I, +U). */
    void add(Page page, int position);

    /**
     * Folds in the column's value of an add record that is older than what was accumulated: a partial-update
     * record whose sequence group is behind the stored one (merge-semantics §5.2). This is Paimon's
     * {@code agg(input, accumulator)}, the accumulator folded in after the input; the same as {@link #add} for
     * functions whose result does not depend on order.
     */
    void addOlder(Page page, int position);

    /** Takes back the column's value of a retract record (-U, -D). */
    void retract(Page page, int position);

    /**
     * Replaces the accumulated value by the column's value of the record, keeping any other state: a -D under
     * {@code aggregation.remove-record-on-delete} restarts the row from the delete record.
     */
    void set(Page page, int position);

    /**
     * Sets the row's value for this column: a reference in {@code rowPages}/{@code rowPositions}, null for NULL, or
     * a value appended to {@code computed} with {@link OutputPageBuilder#COMPUTED} as its page.
     */
    void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed);

    /** Paimon's error for a retract record reaching a function that cannot take a value back. */
    static TrinoException retractUnsupported(String context, String function)
    {
        return new TrinoException(PAIMON_MERGE_ERROR, "%s: Aggregate function '%s' does not support retraction, If you allow this function to ignore retraction messages, you can configure 'fields.${field_name}.ignore-retract'='true'.".formatted(context, function));
    }
}
