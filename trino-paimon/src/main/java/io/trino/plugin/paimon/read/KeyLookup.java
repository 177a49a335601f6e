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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.StatsValueComparator;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
import org.roaringbitmap.RoaringBitmap;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static io.trino.spi.type.TypeUtils.readNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * The key lookup of a lookup compaction (merge-semantics §2.7): which live rows of a bucket's older files (the levels
 * above the compaction's output) hold a key that the compacted files hold. Only the key columns are read, the older
 * files' deletion vectors applied, and an older file whose key range misses the compacted keys' range is not read.
 * A key is at most once live in the levels above 0, as every lookup compaction marks the row it supersedes deleted.
 */
public final class KeyLookup
{
    private final List<DataType> keyTypes;
    private final List<Type> keyChannelTypes;
    private final Function<PaimonDataFile, DataFilePageReader> openKeys;
    private final TrinoFileSystem fileSystem;

    KeyLookup(List<DataType> keyTypes, List<Type> keyChannelTypes, Function<PaimonDataFile, DataFilePageReader> openKeys, TrinoFileSystem fileSystem)
    {
        this.keyTypes = ImmutableList.copyOf(keyTypes);
        this.keyChannelTypes = ImmutableList.copyOf(keyChannelTypes);
        this.openKeys = requireNonNull(openKeys, "openKeys is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    }

    /**
     * The rows found: for each older file (by path) the positions of its live rows with a compacted key, and the keys
     * found, as lists of Trino native values of the key columns.
     */
    public record Hits(Map<String, RoaringBitmap> rows, Set<List<Object>> keys)
    {
        public Hits
        {
            rows = ImmutableMap.copyOf(rows);
            keys = ImmutableSet.copyOf(keys);
        }

        public static Hits none()
        {
            return new Hits(Map.of(), Set.of());
        }
    }

    /**
     * @param compacted the files a compaction merges, read with their deletion vectors
     * @param older the live files of the levels above its output
     */
    public Hits find(List<PaimonDataFile> compacted, List<PaimonDataFile> older)
    {
        if (compacted.isEmpty() || older.isEmpty()) {
            return Hits.none();
        }
        Set<List<Object>> newKeys = new HashSet<>();
        List<Object> minKey = null;
        List<Object> maxKey = null;
        for (PaimonDataFile file : compacted) {
            List<Object> fileMin = BinaryRow.deserialize(file.minKey()).values(keyTypes);
            List<Object> fileMax = BinaryRow.deserialize(file.maxKey()).values(keyTypes);
            minKey = minKey == null || compareKeys(fileMin, minKey) < 0 ? fileMin : minKey;
            maxKey = maxKey == null || compareKeys(fileMax, maxKey) > 0 ? fileMax : maxKey;
            try (DataFilePageReader reader = openKeys.apply(file)) {
                for (Page page = reader.nextPage(); page != null; page = reader.nextPage()) {
                    for (int position = 0; position < page.getPositionCount(); position++) {
                        newKeys.add(key(page, position));
                    }
                }
            }
        }
        Map<String, RoaringBitmap> rows = new HashMap<>();
        Set<List<Object>> found = new HashSet<>();
        for (PaimonDataFile file : older) {
            List<Object> fileMin = BinaryRow.deserialize(file.minKey()).values(keyTypes);
            List<Object> fileMax = BinaryRow.deserialize(file.maxKey()).values(keyTypes);
            if (compareKeys(fileMax, minKey) < 0 || compareKeys(fileMin, maxKey) > 0) {
                continue;
            }
            Optional<RoaringBitmap> deleted = file.deletionVector().map(reference -> DeletionVectors.read(fileSystem, reference));
            RoaringBitmap hits = new RoaringBitmap();
            // read without the deletion vector, so a row's position in the file is the count of rows before it
            try (DataFilePageReader reader = openKeys.apply(file.withoutDeletionVector())) {
                int rowPosition = 0;
                for (Page page = reader.nextPage(); page != null; page = reader.nextPage()) {
                    for (int position = 0; position < page.getPositionCount(); position++, rowPosition++) {
                        if (deleted.isPresent() && deleted.get().contains(rowPosition)) {
                            continue;
                        }
                        List<Object> key = key(page, position);
                        if (newKeys.contains(key)) {
                            hits.add(rowPosition);
                            found.add(key);
                        }
                    }
                }
            }
            if (!hits.isEmpty()) {
                rows.put(file.path(), hits);
            }
        }
        return new Hits(rows, found);
    }

    /** The key of a row of a page whose first channels are the key columns. */
    public List<Object> key(Page page, int position)
    {
        Object[] values = new Object[keyChannelTypes.size()];
        for (int channel = 0; channel < values.length; channel++) {
            Block block = page.getBlock(channel);
            values[channel] = readNativeValue(keyChannelTypes.get(channel), block, position);
        }
        return Arrays.asList(values);
    }

    private int compareKeys(List<Object> left, List<Object> right)
    {
        for (int i = 0; i < keyTypes.size(); i++) {
            int result = StatsValueComparator.compare(keyTypes.get(i), left.get(i), right.get(i));
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }
}
