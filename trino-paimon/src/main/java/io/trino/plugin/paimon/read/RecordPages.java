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

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;

import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Pages of records with their row kinds, read for a page source that shows each record's kind as text: the audit
 * log ({@link AuditLogPageSource}) and {@code table_changes} ({@link TableChangesPageSource}).
 */
interface RecordPages
        extends AutoCloseable
{
    /** The next page, or null once exhausted. */
    Page nextPage();

    long memoryUsage();

    /** Bytes read from files so far, where known. */
    default long readBytes()
    {
        return 0;
    }

    @Override
    void close();

    /** Each row kind of a TINYINT block (0 +I, 1 -U, 2 +U, 3 -D) as the text at its index in {@code names}. */
    static Block kindNames(Block kinds, int positions, Slice[] names)
    {
        BlockBuilder text = VARCHAR.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            VARCHAR.writeSlice(text, names[TINYINT.getByte(kinds, position)]);
        }
        return text.build();
    }
}
