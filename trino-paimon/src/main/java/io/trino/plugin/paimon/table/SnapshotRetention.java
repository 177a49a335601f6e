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
import io.trino.spi.TrinoException;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.durationOption;
import static io.trino.plugin.paimon.table.TableOptions.integerOption;
import static java.util.Objects.requireNonNull;

/**
 * How many and which snapshots a table keeps, from its options with Paimon's defaults: {@code snapshot.num-retained.min}
 * (10) and {@code .max} (unbounded), {@code snapshot.time-retained} (1 h), {@code snapshot.expire.limit} (50 snapshots
 * per expiry). The {@code changelog.num-retained.min}, {@code .max} and {@code changelog.time-retained} options default
 * to the snapshot ones; when any of them keeps more, the changelog outlives its snapshots (Paimon's "decoupled"
 * changelog, kept in {@code changelog/changelog-<id>} files), and {@code consumer.changelog-only} lets snapshots expire
 * past what a consumer still reads, since it reads the changelog.
 */
public record SnapshotRetention(
        int retainMin,
        int retainMax,
        Duration timeRetained,
        int expireLimit,
        int changelogRetainMin,
        int changelogRetainMax,
        Duration changelogTimeRetained,
        boolean consumerChangelogOnly)
{
    private static final Map<String, ChronoUnit> UNITS = units();

    public SnapshotRetention
    {
        requireNonNull(timeRetained, "timeRetained is null");
        requireNonNull(changelogTimeRetained, "changelogTimeRetained is null");
    }

    /** Whether the changelog outlives the snapshots, as Paimon's {@code CoreOptions.changelogLifecycleDecoupled} decides. */
    public boolean changelogDecoupled()
    {
        return changelogRetainMax > retainMax || changelogRetainMin > retainMin || changelogTimeRetained.compareTo(timeRetained) > 0;
    }

    /** Whether a consumer holds back only the changelog, not the snapshots: Paimon's {@code consumer.changelog-only}, which applies to a decoupled changelog. */
    public boolean snapshotsIgnoreConsumers()
    {
        return consumerChangelogOnly && changelogDecoupled();
    }

    /**
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} naming the table and option for a value Paimon rejects
     */
    public static SnapshotRetention fromOptions(String tableName, Map<String, String> options)
    {
        int retainMin = integerOption(tableName, options, "snapshot.num-retained.min", 10);
        int retainMax = integerOption(tableName, options, "snapshot.num-retained.max", Integer.MAX_VALUE);
        Duration timeRetained = durationOption(tableName, options, "snapshot.time-retained", Duration.ofHours(1));
        int expireLimit = integerOption(tableName, options, "snapshot.expire.limit", 50);
        if (retainMin < 1) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'snapshot.num-retained.min' is %s, it must be at least 1".formatted(tableName, retainMin));
        }
        if (retainMax < retainMin) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'snapshot.num-retained.max' (%s) must not be less than 'snapshot.num-retained.min' (%s)".formatted(tableName, retainMax, retainMin));
        }
        if (expireLimit < 1) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'snapshot.expire.limit' is %s, it must be at least 1".formatted(tableName, expireLimit));
        }
        int changelogRetainMin = integerOption(tableName, options, "changelog.num-retained.min", retainMin);
        int changelogRetainMax = integerOption(tableName, options, "changelog.num-retained.max", retainMax);
        if (changelogRetainMin < 1) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'changelog.num-retained.min' is %s, it must be at least 1".formatted(tableName, changelogRetainMin));
        }
        if (changelogRetainMax < changelogRetainMin) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'changelog.num-retained.max' (%s) must not be less than 'changelog.num-retained.min' (%s)".formatted(tableName, changelogRetainMax, changelogRetainMin));
        }
        Duration changelogTimeRetained = durationOption(tableName, options, "changelog.time-retained", timeRetained);
        boolean consumerChangelogOnly = booleanOption(tableName, options, "consumer.changelog-only", false);
        return new SnapshotRetention(retainMin, retainMax, timeRetained, expireLimit, changelogRetainMin, changelogRetainMax, changelogTimeRetained, consumerChangelogOnly);
    }

    /**
     * A duration as Paimon writes them: digits then an optional unit ({@code d}, {@code h}, {@code min}/{@code m},
     * {@code s}, {@code ms}, ... and their long names), milliseconds when there is none.
     */
    public static Duration parseDuration(String tableName, String option, String value)
    {
        String trimmed = value.trim();
        int digits = 0;
        while (digits < trimmed.length() && trimmed.charAt(digits) >= '0' && trimmed.charAt(digits) <= '9') {
            digits++;
        }
        String unitLabel = trimmed.substring(digits).trim().toLowerCase(Locale.ENGLISH);
        ChronoUnit unit = unitLabel.isEmpty() ? ChronoUnit.MILLIS : UNITS.get(unitLabel);
        if (digits == 0 || digits > 18 || unit == null) {
            throw TableOptions.invalid(tableName, option, value, "a duration such as '1 h', '30 min' or '7 d'");
        }
        return Duration.of(Long.parseLong(trimmed.substring(0, digits)), unit);
    }

    private static Map<String, ChronoUnit> units()
    {
        ImmutableMap.Builder<String, ChronoUnit> units = ImmutableMap.builder();
        addUnit(units, ChronoUnit.DAYS, "d", "day", "days");
        addUnit(units, ChronoUnit.HOURS, "h", "hour", "hours");
        addUnit(units, ChronoUnit.MINUTES, "min", "m", "minute", "minutes");
        addUnit(units, ChronoUnit.SECONDS, "s", "sec", "secs", "second", "seconds");
        addUnit(units, ChronoUnit.MILLIS, "ms", "milli", "millis", "millisecond", "milliseconds");
        addUnit(units, ChronoUnit.MICROS, "µs", "micro", "micros", "microsecond", "microseconds");
        addUnit(units, ChronoUnit.NANOS, "ns", "nano", "nanos", "nanosecond", "nanoseconds");
        return units.buildOrThrow();
    }

    private static void addUnit(ImmutableMap.Builder<String, ChronoUnit> units, ChronoUnit unit, String... labels)
    {
        for (String label : labels) {
            units.put(label, unit);
        }
    }
}
