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

import com.google.common.collect.ImmutableMap;

import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.table.TableOptions.levelMapOption;
import static java.util.Objects.requireNonNull;

/**
 * The file format and codec options of a table as written, not yet resolved to a writer: the table's default, the
 * per-level overrides and the changelog's own. Values keep their spelling; the writer checks them.
 */
public record FileFormatOptions(
        String format,
        String compression,
        Map<Integer, String> formatPerLevel,
        Map<Integer, String> compressionPerLevel,
        Optional<String> changelogFormat,
        Optional<String> changelogCompression)
{
    public static final String FORMAT = "file.format";
    public static final String COMPRESSION = "file.compression";
    public static final String FORMAT_PER_LEVEL = "file.format.per.level";
    public static final String COMPRESSION_PER_LEVEL = "file.compression.per.level";
    public static final String CHANGELOG_FORMAT = "changelog-file.format";
    public static final String CHANGELOG_COMPRESSION = "changelog-file.compression";

    public FileFormatOptions
    {
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
        formatPerLevel = ImmutableMap.copyOf(formatPerLevel);
        compressionPerLevel = ImmutableMap.copyOf(compressionPerLevel);
        requireNonNull(changelogFormat, "changelogFormat is null");
        requireNonNull(changelogCompression, "changelogCompression is null");
    }

    /**
     * @param tableName named in errors
     * @throws io.trino.spi.TrinoException {@code PAIMON_INVALID_TABLE_OPTION} for a per-level option that is not
     *         a list of level:value pairs
     */
    public static FileFormatOptions of(String tableName, Map<String, String> options)
    {
        return new FileFormatOptions(
                options.getOrDefault(FORMAT, "parquet"),
                options.getOrDefault(COMPRESSION, "zstd"),
                levelMapOption(tableName, options, FORMAT_PER_LEVEL),
                levelMapOption(tableName, options, COMPRESSION_PER_LEVEL),
                Optional.ofNullable(options.get(CHANGELOG_FORMAT)),
                Optional.ofNullable(options.get(CHANGELOG_COMPRESSION)));
    }
}
