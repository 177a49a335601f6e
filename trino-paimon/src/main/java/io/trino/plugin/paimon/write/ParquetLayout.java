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

import java.util.Map;

import static io.trino.plugin.paimon.table.TableOptions.positiveOption;

/**
 * The sizes of the row groups and pages of the Parquet files written, from the table options Paimon's Parquet writer
 * reads, with its defaults: {@code parquet.block.size} (128 MB), {@code parquet.page.size} (1 MB) and
 * {@code parquet.page.row.count.limit} (20,000 rows; Apache Parquet's default). A page ends at whichever limit it
 * reaches first, so a point lookup decodes about one page per column of each file it opens.
 */
public record ParquetLayout(long rowGroupSize, long pageSize, int pageRowLimit)
{
    public static final ParquetLayout DEFAULT = new ParquetLayout(128L << 20, 1L << 20, 20_000);

    public static final String BLOCK_SIZE = "parquet.block.size";
    private static final String PAGE_SIZE = "parquet.page.size";
    private static final String PAGE_ROW_COUNT_LIMIT = "parquet.page.row.count.limit";

    public ParquetLayout
    {
        if (rowGroupSize <= 0 || pageSize <= 0 || pageRowLimit <= 0) {
            throw new IllegalArgumentException("Parquet sizes must be positive: %s, %s, %s".formatted(rowGroupSize, pageSize, pageRowLimit));
        }
    }

    public static ParquetLayout of(String tableName, Map<String, String> options)
    {
        // Paimon hands these to Hadoop's Configuration, which reads plain numbers of bytes or rows
        return new ParquetLayout(
                positiveOption(tableName, options, BLOCK_SIZE, DEFAULT.rowGroupSize, Integer.MAX_VALUE),
                positiveOption(tableName, options, PAGE_SIZE, DEFAULT.pageSize, Integer.MAX_VALUE),
                (int) positiveOption(tableName, options, PAGE_ROW_COUNT_LIMIT, DEFAULT.pageRowLimit, Integer.MAX_VALUE));
    }
}
