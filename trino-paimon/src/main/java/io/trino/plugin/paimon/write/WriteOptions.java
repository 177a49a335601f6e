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

import com.google.common.collect.ImmutableMap;
import io.trino.spi.TrinoException;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.parseMemorySize;

/**
 * The table options that shape written files, with Paimon's defaults: write buffer size, whether a bucket whose rows
 * overflow the buffer still ends a statement with one sorted run ({@code write-buffer-spillable}), target file size, and the
 * format and codec of the files of each level ({@code file.format} and {@code file.compression}, overridden per level
 * by {@code file.format.per.level} and {@code file.compression.per.level}, e.g. {@code 0:avro,5:parquet}) and of
 * changelog files ({@code changelog-file.format} and {@code changelog-file.compression}, else those of level 0).
 */
public record WriteOptions(long writeBufferSize, boolean writeBufferSpillable, long targetFileSize, Map<Integer, FileWriteFormat> levelFormats, FileWriteFormat defaultFormat, FileWriteFormat changelogFormat)
{
    private static final String FORMAT = "file.format";
    private static final String COMPRESSION = "file.compression";
    private static final String FORMAT_PER_LEVEL = "file.format.per.level";
    private static final String COMPRESSION_PER_LEVEL = "file.compression.per.level";

    public WriteOptions
    {
        levelFormats = ImmutableMap.copyOf(levelFormats);
    }

    public static WriteOptions of(String tableName, Map<String, String> options, boolean primaryKeyTable)
    {
        long writeBufferSize = memorySize(tableName, options, "write-buffer-size", "256 mb");
        boolean writeBufferSpillable = booleanOption(tableName, options, "write-buffer-spillable", true);
        long targetFileSize = memorySize(tableName, options, "target-file-size", primaryKeyTable ? "128 mb" : "256 mb");
        String format = options.getOrDefault(FORMAT, "parquet");
        String compression = options.getOrDefault(COMPRESSION, "zstd");
        Map<Integer, String> formatPerLevel = perLevel(tableName, options, FORMAT_PER_LEVEL);
        Map<Integer, String> compressionPerLevel = perLevel(tableName, options, COMPRESSION_PER_LEVEL);
        ParquetLayout parquetLayout = ParquetLayout.of(tableName, options);
        Set<Integer> levels = new TreeSet<>(formatPerLevel.keySet());
        levels.addAll(compressionPerLevel.keySet());
        levels.add(0);
        ImmutableMap.Builder<Integer, FileWriteFormat> levelFormats = ImmutableMap.builder();
        for (int level : levels) {
            levelFormats.put(level, FileWriteFormat.of(
                    tableName,
                    formatPerLevel.containsKey(level) ? FORMAT_PER_LEVEL : FORMAT,
                    formatPerLevel.getOrDefault(level, format),
                    compressionPerLevel.containsKey(level) ? COMPRESSION_PER_LEVEL : COMPRESSION,
                    compressionPerLevel.getOrDefault(level, compression),
                    parquetLayout));
        }
        FileWriteFormat defaultFormat = FileWriteFormat.of(tableName, FORMAT, format, COMPRESSION, compression, parquetLayout);
        Map<Integer, FileWriteFormat> formats = levelFormats.buildOrThrow();
        String changelogFormatOption = options.containsKey("changelog-file.format") ? "changelog-file.format" : formatPerLevel.containsKey(0) ? FORMAT_PER_LEVEL : FORMAT;
        String changelogCompressionOption = options.containsKey("changelog-file.compression") ? "changelog-file.compression" : compressionPerLevel.containsKey(0) ? COMPRESSION_PER_LEVEL : COMPRESSION;
        FileWriteFormat changelogFormat = FileWriteFormat.of(
                tableName,
                changelogFormatOption,
                options.getOrDefault("changelog-file.format", formats.get(0).format().extension()),
                changelogCompressionOption,
                options.getOrDefault("changelog-file.compression", formats.get(0).compression()),
                parquetLayout);
        return new WriteOptions(writeBufferSize, writeBufferSpillable, targetFileSize, formats, defaultFormat, changelogFormat);
    }

    /** The format and codec of the data files written at the level. */
    public FileWriteFormat dataFormat(int level)
    {
        return levelFormats.getOrDefault(level, defaultFormat);
    }

    // Paimon's map options: comma-separated level:value pairs
    private static Map<Integer, String> perLevel(String tableName, Map<String, String> options, String option)
    {
        String value = options.get(option);
        Map<Integer, String> levels = new HashMap<>();
        if (value == null || value.isBlank()) {
            return levels;
        }
        for (String entry : value.split(",")) {
            int colon = entry.indexOf(':');
            try {
                if (colon < 0) {
                    throw new NumberFormatException();
                }
                levels.put(Integer.parseInt(entry.substring(0, colon).trim()), entry.substring(colon + 1).trim());
            }
            catch (NumberFormatException e) {
                throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' = '%s' is not a list of level:value pairs".formatted(tableName, option, value), e);
            }
        }
        return levels;
    }

    private static long memorySize(String tableName, Map<String, String> options, String option, String defaultValue)
    {
        return parseMemorySize(tableName, option, options.getOrDefault(option, defaultValue));
    }
}
