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
package io.trino.plugin.paimon.table;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableMap;
import io.trino.spi.TrinoException;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * Options, most of them from Paimon releases after 1.4, that change how a table's rows merge or where their data lives,
 * and that the connector does not implement. A table that sets one is neither read nor written: a read would return
 * rows merged by the wrong rule or miss data kept outside the data files, and a write would not keep what the option
 * promises (its files sorted by other columns, its indexes complete). Checked before any split is planned and before
 * any file is written.
 */
public final class UnsupportedOptions
{
    private static final Set<String> READABLE_FORMATS = Set.of("parquet", "orc", "avro");

    // boolean options, refused when true, with what they change
    private static final Map<String, String> FLAGS = ImmutableMap.<String, String>builder()
            .put("sequence.snapshot-ordering", "records of a key merge in the order of the snapshots that committed them, not by sequence number")
            .put("pk-clustering-override", "data files are sorted by 'clustering.columns' instead of the primary key")
            .put("deletion-vectors.merge-on-read", "batch reads of a deletion-vector table also merge its level-0 files")
            .put("postpone.merge-on-read", "batch reads also merge the records of the postpone bucket")
            .put("data-evolution.enabled", "the columns of a row may lie in several files, joined by row id")
            .buildOrThrow();

    // options naming columns whose values lie outside the data files, or that every write must index
    private static final Map<String, String> COLUMN_LISTS = ImmutableMap.<String, String>builder()
            .put("blob-field", "BLOB columns are stored in separate blob files")
            .put("blob-descriptor-field", "BLOB columns hold descriptors of data stored elsewhere")
            .put("blob.stored-descriptor-fields", "BLOB columns hold descriptors of data stored elsewhere")
            .put("blob-view-field", "BLOB columns are resolved from other tables at read time")
            .put("vector-field", "VECTOR columns are stored in separate vector files")
            .put("pk-vector.index.columns", "a primary-key vector index that every write must maintain")
            .put("pk-btree.index.columns", "a primary-key BTree index that every write must maintain")
            .put("pk-bitmap.index.columns", "a primary-key bitmap index that every write must maintain")
            .put("pk-multivalue.index.columns", "a primary-key multivalue index that every write must maintain")
            .put("pk-full-text.index.columns", "a primary-key full-text index that every write must maintain")
            .buildOrThrow();

    private UnsupportedOptions() {}

    /**
     * @throws TrinoException {@code NOT_SUPPORTED} naming the table and the first such option it sets
     */
    public static void check(String tableName, Map<String, String> options)
    {
        FLAGS.forEach((option, effect) -> {
            // read as every boolean option is, so that a value other than true or false is refused, not taken as false
            if (TableOptions.booleanOption(tableName, options, option, false)) {
                throw refuse(tableName, option, options.get(option), effect);
            }
        });
        COLUMN_LISTS.forEach((option, effect) -> {
            String value = options.get(option);
            if (value != null && !value.isBlank()) {
                throw refuse(tableName, option, value, effect);
            }
        });
        checkFormat(tableName, "file.format", options.get("file.format"), options.get("file.format"));
        String perLevel = options.get("file.format.per.level");
        if (perLevel != null) {
            for (String entry : Splitter.on(',').trimResults().omitEmptyStrings().split(perLevel)) {
                List<String> levelAndFormat = Splitter.on(':').trimResults().splitToList(entry);
                checkFormat(tableName, "file.format.per.level", perLevel, levelAndFormat.getLast());
            }
        }
    }

    private static void checkFormat(String tableName, String option, String value, String format)
    {
        if (format != null && !READABLE_FORMATS.contains(format.trim().toLowerCase(Locale.ENGLISH))) {
            throw refuse(tableName, option, value, "data files in format '%s' (only parquet, orc and avro are read and written)".formatted(format.trim()));
        }
    }

    private static TrinoException refuse(String tableName, String option, String value, String effect)
    {
        return new TrinoException(NOT_SUPPORTED, "Paimon table %s sets option '%s' = '%s', which the connector does not support: %s".formatted(tableName, option, value, effect));
    }
}
