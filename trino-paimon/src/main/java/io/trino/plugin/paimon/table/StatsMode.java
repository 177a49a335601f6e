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

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * How much of a column's statistics a data file records (paimon-format.md §6): {@code none}, {@code counts} (null
 * count only), {@code full}, or {@code truncate(n)} (strings cut to n code points, the maximum rounded up).
 */
public record StatsMode(Kind kind, OptionalInt truncateLength)
{
    public static final StatsMode KEY_FIELDS = new StatsMode(Kind.TRUNCATE, OptionalInt.of(128));
    private static final Pattern TRUNCATE = Pattern.compile("TRUNCATE\\((\\d+)\\)");

    public enum Kind
    {
        NONE, COUNTS, FULL, TRUNCATE
    }

    public StatsMode
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(truncateLength, "truncateLength is null");
    }

    /** The mode of a value column: {@code fields.<name>.stats-mode}, else {@code metadata.stats-mode} (default truncate(16)). */
    public static StatsMode ofValueColumn(String tableName, Map<String, String> options, String column)
    {
        String key = columnOption(column);
        if (options.containsKey(key)) {
            return parse(tableName, key, options.get(key));
        }
        return parse(tableName, "metadata.stats-mode", options.getOrDefault("metadata.stats-mode", "truncate(16)"));
    }

    /** Whether the column has a mode of its own ({@code fields.<name>.stats-mode}). */
    public static boolean hasColumnMode(Map<String, String> options, String column)
    {
        return options.containsKey(columnOption(column));
    }

    private static String columnOption(String column)
    {
        return "fields." + column + ".stats-mode";
    }

    public static StatsMode parse(String tableName, String option, String value)
    {
        String normalized = value.trim().toUpperCase(Locale.ENGLISH);
        switch (normalized) {
            case "NONE":
                return new StatsMode(Kind.NONE, OptionalInt.empty());
            case "COUNTS":
                return new StatsMode(Kind.COUNTS, OptionalInt.empty());
            case "FULL":
                return new StatsMode(Kind.FULL, OptionalInt.empty());
            default:
                Matcher matcher = TRUNCATE.matcher(normalized);
                if (matcher.matches()) {
                    try {
                        int length = Integer.parseInt(matcher.group(1));
                        if (length > 0) {
                            return new StatsMode(Kind.TRUNCATE, OptionalInt.of(length));
                        }
                    }
                    catch (NumberFormatException _) {
                        // falls through to the error
                    }
                }
                throw TableOptions.invalid(tableName, option, value, "none, counts, full or truncate(<length>)");
        }
    }
}
