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

import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.PaimonTable;

import java.util.Map;

/**
 * The limit on what an output file may buffer (its open Parquet row group or ORC stripe) for writes Trino does not see
 * as they grow: those a page sink does in {@code finish}, where Trino no longer reads the sink's memory (a merge of
 * spilled runs, the compaction on write), and an {@code optimize} compaction that runs in one call. Those writes take
 * the table with its row groups and stripes held to the limit, and their caller reports the limit beforehand.
 */
public final class OutputBufferLimit
{
    /**
     * What such a write may always buffer, whatever was reserved before it: a write of a few rows that compacts a
     * large bucket still writes row groups of this size, since much smaller ones would make the table slow to read.
     */
    public static final long FLOOR = 8L << 20;

    private OutputBufferLimit() {}

    /** The table as a write within the limit sees it: its own row group and stripe sizes where they are smaller. */
    public static PaimonTable apply(PaimonTable table, long limit)
    {
        String tableName = table.name().toString();
        Map<String, String> options = table.schema().options();
        long rowGroupSize = Math.min(ParquetLayout.of(tableName, options).rowGroupSize(), limit);
        long stripeSize = Math.min(OrcLayout.of(tableName, options).stripeSize(), limit);
        TableSchema schema = table.schema().withOptions(Map.of(
                ParquetLayout.BLOCK_SIZE, Long.toString(rowGroupSize),
                OrcLayout.STRIPE_SIZE, Long.toString(stripeSize)));
        return new PaimonTable(table.name(), table.location(), table.branch(), schema);
    }
}
