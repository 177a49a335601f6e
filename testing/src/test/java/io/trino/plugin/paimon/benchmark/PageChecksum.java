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
package io.trino.plugin.paimon.benchmark;

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.List;

/**
 * Reads every value of some channels of each page into a checksum, so that two readers can be shown to produce the
 * same values; also counts pages and their retained size.
 */
final class PageChecksum
{
    private final Type[] types;
    private final int[] channels;
    private long rows;
    private long pages;
    private long pageBytes;
    private long checksum;

    PageChecksum(List<Type> types, int[] channels)
    {
        this.types = types.toArray(Type[]::new);
        this.channels = channels.clone();
    }

    void accept(Page page)
    {
        rows += page.getPositionCount();
        pages++;
        pageBytes += page.getRetainedSizeInBytes();
        for (int i = 0; i < channels.length; i++) {
            Type type = types[i];
            Block block = page.getBlock(channels[i]);
            Class<?> javaType = type.getJavaType();
            for (int position = 0; position < block.getPositionCount(); position++) {
                if (block.isNull(position)) {
                    checksum++;
                }
                else if (javaType == long.class) {
                    checksum += type.getLong(block, position);
                }
                else if (javaType == double.class) {
                    checksum += (long) type.getDouble(block, position);
                }
                else if (javaType == boolean.class) {
                    checksum += type.getBoolean(block, position) ? 1 : 0;
                }
                else if (javaType == Slice.class) {
                    checksum += type.getSlice(block, position).length();
                }
                else {
                    throw new IllegalArgumentException("type not used by the benchmark: " + type);
                }
            }
        }
    }

    long rows()
    {
        return rows;
    }

    long pages()
    {
        return pages;
    }

    /** The mean retained size of the pages seen. */
    long averagePageBytes()
    {
        return pages == 0 ? 0 : pageBytes / pages;
    }

    long checksum()
    {
        return checksum;
    }
}
