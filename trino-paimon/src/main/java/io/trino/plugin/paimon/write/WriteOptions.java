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
import io.trino.plugin.paimon.table.FileFormatOptions;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.trino.plugin.paimon.table.FileFormatOptions.CHANGELOG_COMPRESSION;
import static io.trino.plugin.paimon.table.FileFormatOptions.CHANGELOG_FORMAT;
import static io.trino.plugin.paimon.table.FileFormatOptions.COMPRESSION;
import static io.trino.plugin.paimon.table.FileFormatOptions.COMPRESSION_PER_LEVEL;
import static io.trino.plugin.paimon.table.FileFormatOptions.FORMAT;
import static io.trino.plugin.paimon.table.FileFormatOptions.FORMAT_PER_LEVEL;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.memorySizeOption;

/**
 * The table options that shape written files, with Paimon's defaults: write buffer size, whether a bucket whose rows
 * overflow the buffer still ends a statement with one sorted run ({@code write-buffer-spillable}), target file size, and the
 * format and codec of the files of each level ({@code file.format} and {@code file.compression}, overridden per level
 * by {@code file.format.per.level} and {@code file.compression.per.level}, e.g. {@code 0:avro,5:parquet}) and of
 * changelog files ({@code changelog-file.format} and {@code changelog-file.compression}, else those of level 0).
 */
public record WriteOptions(long writeBufferSize, boolean writeBufferSpillable, long targetFileSize, Map<Integer, FileWriteFormat> levelFormats, FileWriteFormat defaultFormat, FileWriteFormat changelogFormat)
{
    public WriteOptions
    {
        levelFormats = ImmutableMap.copyOf(levelFormats);
    }

    public static WriteOptions of(String tableName, Map<String, String> options, boolean primaryKeyTable)
    {
        long writeBufferSize = memorySizeOption(tableName, options, "write-buffer-size", "256 mb");
        boolean writeBufferSpillable = booleanOption(tableName, options, "write-buffer-spillable", true);
        long targetFileSize = memorySizeOption(tableName, options, "target-file-size", primaryKeyTable ? "128 mb" : "256 mb");
        FileFormatOptions files = FileFormatOptions.of(tableName, options);
        Map<Integer, String> formatPerLevel = files.formatPerLevel();
        Map<Integer, String> compressionPerLevel = files.compressionPerLevel();
        ParquetLayout parquetLayout = ParquetLayout.of(tableName, options);
        OrcLayout orcLayout = OrcLayout.of(tableName, options);
        Set<Integer> levels = new TreeSet<>(formatPerLevel.keySet());
        levels.addAll(compressionPerLevel.keySet());
        levels.add(0);
        ImmutableMap.Builder<Integer, FileWriteFormat> levelFormats = ImmutableMap.builder();
        for (int level : levels) {
            levelFormats.put(level, FileWriteFormat.of(
                    tableName,
                    formatPerLevel.containsKey(level) ? FORMAT_PER_LEVEL : FORMAT,
                    formatPerLevel.getOrDefault(level, files.format()),
                    compressionPerLevel.containsKey(level) ? COMPRESSION_PER_LEVEL : COMPRESSION,
                    compressionPerLevel.getOrDefault(level, files.compression()),
                    parquetLayout,
                    orcLayout));
        }
        FileWriteFormat defaultFormat = FileWriteFormat.of(tableName, FORMAT, files.format(), COMPRESSION, files.compression(), parquetLayout, orcLayout);
        Map<Integer, FileWriteFormat> formats = levelFormats.buildOrThrow();
        String changelogFormatOption = files.changelogFormat().isPresent() ? CHANGELOG_FORMAT : formatPerLevel.containsKey(0) ? FORMAT_PER_LEVEL : FORMAT;
        String changelogCompressionOption = files.changelogCompression().isPresent() ? CHANGELOG_COMPRESSION : compressionPerLevel.containsKey(0) ? COMPRESSION_PER_LEVEL : COMPRESSION;
        FileWriteFormat changelogFormat = FileWriteFormat.of(
                tableName,
                changelogFormatOption,
                files.changelogFormat().orElse(formats.get(0).format().extension()),
                changelogCompressionOption,
                files.changelogCompression().orElse(formats.get(0).compression()),
                parquetLayout,
                orcLayout);
        return new WriteOptions(writeBufferSize, writeBufferSpillable, targetFileSize, formats, defaultFormat, changelogFormat);
    }

    /** The format and codec of the data files written at the level. */
    public FileWriteFormat dataFormat(int level)
    {
        return levelFormats.getOrDefault(level, defaultFormat);
    }
}
