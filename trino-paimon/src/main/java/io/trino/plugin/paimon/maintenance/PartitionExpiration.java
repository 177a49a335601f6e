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
package io.trino.plugin.paimon.maintenance;

import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.durationOption;
import static io.trino.plugin.paimon.table.TableOptions.enumOption;
import static io.trino.plugin.paimon.table.TableOptions.positiveOption;
import static java.time.temporal.ChronoField.DAY_OF_MONTH;
import static java.time.temporal.ChronoField.HOUR_OF_DAY;
import static java.time.temporal.ChronoField.MINUTE_OF_HOUR;
import static java.time.temporal.ChronoField.MONTH_OF_YEAR;
import static java.time.temporal.ChronoField.SECOND_OF_MINUTE;
import static java.time.temporal.ChronoField.YEAR;
import static java.util.Objects.requireNonNull;

/**
 * Which partitions expire, as Paimon's partition expiry chooses them (the table's {@code partition.expiration-*} and
 * {@code partition.timestamp-*} options, or the {@code expire_partitions} procedure's arguments laid over them):
 * <ul>
 * <li>{@code values-time} (the default): those whose time, read from the partition's values, is before now minus the
 * expiration time. The time is the first value, or the {@code partition.timestamp-pattern} with each
 * {@code $key} replaced by that key's value, parsed by the {@code partition.timestamp-formatter} (a date-time or a
 * date pattern) or, without one, as {@code y-M-d[ H:m:s[.fraction]]}. The values are read as Paimon renders them
 * internally, so a DATE column gives its day number and never parses: such a partition, one with a NULL value, and
 * one whose text does not parse never expire this way;</li>
 * <li>{@code update-time}: those whose newest data file was created before now minus the expiration time.</li>
 * </ul>
 * Times are wall-clock times of this JVM's time zone, as Paimon's are. The expired partitions are ordered by their
 * values joined with commas and at most {@code partition.expiration-max-num} (100) of them go in one expiry, in
 * commits of {@code partition.expiration-batch-size} partitions when that is set.
 */
public record PartitionExpiration(Duration expirationTime, Strategy strategy, Optional<String> timestampFormatter, Optional<String> timestampPattern, int maxExpires, OptionalInt batchSize)
{
    public static final String EXPIRATION_TIME = "partition.expiration-time";
    public static final String STRATEGY = "partition.expiration-strategy";
    public static final String TIMESTAMP_FORMATTER = "partition.timestamp-formatter";
    public static final String TIMESTAMP_PATTERN = "partition.timestamp-pattern";
    public static final String MAX_EXPIRES = "partition.expiration-max-num";
    public static final String BATCH_SIZE = "partition.expiration-batch-size";

    // Paimon's defaults: y-M-d with an optional H:m:s[.fraction], or a date alone, each field of any width, lenient
    private static final DateTimeFormatter DEFAULT_TIMESTAMP = lenientDate()
            .optionalStart()
            .appendLiteral(' ')
            .appendValue(HOUR_OF_DAY, 1, 2, SignStyle.NORMAL)
            .appendLiteral(':')
            .appendValue(MINUTE_OF_HOUR, 1, 2, SignStyle.NORMAL)
            .appendLiteral(':')
            .appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NORMAL)
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd()
            .optionalEnd()
            .toFormatter()
            .withResolverStyle(ResolverStyle.LENIENT);
    private static final DateTimeFormatter DEFAULT_DATE = lenientDate()
            .toFormatter()
            .withResolverStyle(ResolverStyle.LENIENT);

    public enum Strategy
    {
        VALUES_TIME, UPDATE_TIME
    }

    private static DateTimeFormatterBuilder lenientDate()
    {
        return new DateTimeFormatterBuilder()
                .appendValue(YEAR, 1, 10, SignStyle.NORMAL)
                .appendLiteral('-')
                .appendValue(MONTH_OF_YEAR, 1, 2, SignStyle.NORMAL)
                .appendLiteral('-')
                .appendValue(DAY_OF_MONTH, 1, 2, SignStyle.NORMAL);
    }

    /** A partition that expires, with its values as texts (NULL as the table's default partition name). */
    public record ExpiredPartition(BinaryRow partition, List<String> values)
    {
        public ExpiredPartition
        {
            requireNonNull(partition, "partition is null");
            values = List.copyOf(values);
        }
    }

    public PartitionExpiration
    {
        requireNonNull(expirationTime, "expirationTime is null");
        requireNonNull(strategy, "strategy is null");
        requireNonNull(timestampFormatter, "timestampFormatter is null");
        requireNonNull(timestampPattern, "timestampPattern is null");
        requireNonNull(batchSize, "batchSize is null");
    }

    /**
     * The expiry the options describe, empty when they set no {@code partition.expiration-time}.
     *
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} naming the table and option for a value Paimon rejects
     */
    public static Optional<PartitionExpiration> fromOptions(String tableName, Map<String, String> options)
    {
        if (!options.containsKey(EXPIRATION_TIME)) {
            return Optional.empty();
        }
        Optional<String> formatter = Optional.ofNullable(options.get(TIMESTAMP_FORMATTER));
        formatter.ifPresent(pattern -> dateTimeFormatter(tableName, pattern));
        int maxExpires = (int) positiveOption(tableName, options, MAX_EXPIRES, 100, Integer.MAX_VALUE);
        OptionalInt batchSize = options.containsKey(BATCH_SIZE) ? OptionalInt.of((int) positiveOption(tableName, options, BATCH_SIZE, 1, Integer.MAX_VALUE)) : OptionalInt.empty();
        return Optional.of(new PartitionExpiration(
                durationOption(tableName, options, EXPIRATION_TIME, Duration.ZERO),
                enumOption(tableName, options, STRATEGY, Strategy.class, Strategy.VALUES_TIME),
                formatter,
                Optional.ofNullable(options.get(TIMESTAMP_PATTERN)),
                maxExpires,
                batchSize));
    }

    private static DateTimeFormatter dateTimeFormatter(String tableName, String pattern)
    {
        try {
            return DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' ('%s') is not a date-time pattern: %s".formatted(tableName, TIMESTAMP_FORMATTER, pattern, e.getMessage()), e);
        }
    }

    /** The partitions of these live files that have expired at {@code now}, in the order Paimon drops them. */
    public List<ExpiredPartition> expired(PaimonTable table, Collection<ManifestEntry> liveFiles, LocalDateTime now)
    {
        LocalDateTime threshold = now.minus(expirationTime);
        // each partition's newest file: the partition's update time
        Map<BinaryRow, LocalDateTime> newestFiles = new HashMap<>();
        for (ManifestEntry entry : liveFiles) {
            LocalDateTime created = entry.file().creationTimeMillis().isPresent()
                    ? LocalDateTime.ofEpochSecond(Math.floorDiv(entry.file().creationTimeMillis().getAsLong(), 1000), (int) Math.floorMod(entry.file().creationTimeMillis().getAsLong(), 1000) * 1_000_000, ZoneOffset.UTC)
                    : LocalDateTime.MAX;
            newestFiles.merge(entry.partition(), created, (a, b) -> a.isAfter(b) ? a : b);
        }
        String defaultName = table.options().partitionDefaultName();
        DateTimeFormatter dateTime = timestampFormatter.map(pattern -> dateTimeFormatter(table.name().toString(), pattern)).orElse(DEFAULT_TIMESTAMP);
        DateTimeFormatter date = timestampFormatter.isPresent() ? dateTime : DEFAULT_DATE;
        return newestFiles.entrySet().stream()
                .filter(partition -> strategy == Strategy.UPDATE_TIME
                        ? threshold.isAfter(partition.getValue())
                        : partitionTime(table, partition.getKey(), dateTime, date).map(threshold::isAfter).orElse(false))
                .map(partition -> new ExpiredPartition(partition.getKey(), PartitionPath.internalValueTexts(table.partitionFields(), partition.getKey()).stream()
                        .map(value -> value == null ? defaultName : value)
                        .toList()))
                .sorted(Comparator.comparing(partition -> String.join(",", partition.values())))
                .limit(maxExpires)
                .toList();
    }

    // the time the partition's values give, empty when they give none
    private Optional<LocalDateTime> partitionTime(PaimonTable table, BinaryRow partition, DateTimeFormatter dateTime, DateTimeFormatter date)
    {
        List<String> values = PartitionPath.internalValueTexts(table.partitionFields(), partition);
        if (values.contains(null)) {
            return Optional.empty();
        }
        String text = values.getFirst();
        if (timestampPattern.isPresent()) {
            text = timestampPattern.get();
            for (int i = 0; i < values.size(); i++) {
                text = text.replace("$" + table.partitionFields().get(i).name(), values.get(i));
            }
        }
        try {
            return Optional.of(parse(text, dateTime, date));
        }
        catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static LocalDateTime parse(String text, DateTimeFormatter dateTime, DateTimeFormatter date)
    {
        try {
            return LocalDateTime.parse(text, dateTime);
        }
        catch (DateTimeParseException e) {
            return LocalDate.parse(text, date).atTime(LocalTime.MIDNIGHT);
        }
    }
}
