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

import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.durationOption;
import static io.trino.plugin.paimon.table.TableOptions.enumOption;
import static io.trino.plugin.paimon.table.TableOptions.integerOption;
import static java.time.temporal.ChronoField.DAY_OF_MONTH;
import static java.time.temporal.ChronoField.HOUR_OF_DAY;
import static java.time.temporal.ChronoField.MINUTE_OF_HOUR;
import static java.time.temporal.ChronoField.MONTH_OF_YEAR;
import static java.time.temporal.ChronoField.YEAR;
import static java.util.Objects.requireNonNull;

/**
 * The tags Paimon's commits create and expire on their own, done after a commit from Trino as Paimon's committer does
 * after its own ({@code TableCommitImpl.maintain}):
 * <ul>
 * <li>with {@code tag.automatic-creation} = {@code process-time} (the snapshot's commit time) or {@code watermark}
 * (its watermark), once a snapshot's time passes the end of a period ({@code tag.creation-period}: daily, hourly,
 * two-hours; or {@code tag.creation-period-duration}) plus {@code tag.creation-delay}, the snapshot is tagged with the
 * name of the period that ended ({@code tag.period-formatter}); {@code tag.num-retained-max} keeps that many of these
 * tags, deleting the oldest; {@code tag.default-time-retained} gives them a retention;</li>
 * <li>with {@code tag.time-expire-enabled} (on by default), tags whose retention has passed are deleted.</li>
 * </ul>
 * The snapshots are read from the last automatic tag's on, so a commit also tags what other writers committed before
 * it, as Paimon's do.
 */
public final class AutomaticTags
{
    private enum CreationMode
    {
        NONE, PROCESS_TIME, WATERMARK, BATCH
    }

    private enum CreationPeriod
    {
        DAILY, HOURLY, TWO_HOURS
    }

    private enum PeriodFormatter
    {
        WITH_DASHES, WITHOUT_DASHES, WITHOUT_DASHES_AND_SPACES
    }

    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final String tableName;
    private final CreationMode mode;
    private final Period period;
    private final Duration delay;
    private final OptionalLong numRetainedMax;
    private final Optional<Duration> defaultTimeRetained;
    private final boolean automaticCompletion;
    private final boolean timeExpireEnabled;
    private final ZoneId timeZone;
    private final SnapshotFiles snapshots;
    private final TagFiles tags;

    /**
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} naming the table and option for a value Paimon rejects
     */
    public AutomaticTags(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.tableName = table.name().toString();
        Map<String, String> options = table.schema().options();
        this.mode = enumOption(tableName, options, "tag.automatic-creation", CreationMode.class, CreationMode.NONE);
        Optional<Duration> periodDuration = Optional.ofNullable(options.get("tag.creation-period-duration"))
                .map(_ -> durationOption(tableName, options, "tag.creation-period-duration", Duration.ZERO));
        this.period = periodDuration.map(Period::ofDuration).orElseGet(() -> Period.of(
                enumOption(tableName, options, "tag.creation-period", CreationPeriod.class, CreationPeriod.DAILY),
                enumOption(tableName, options, "tag.period-formatter", PeriodFormatter.class, PeriodFormatter.WITH_DASHES)));
        this.delay = durationOption(tableName, options, "tag.creation-delay", Duration.ZERO);
        if (mode != CreationMode.NONE && delay.compareTo(period.length()) >= 0) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'tag.creation-delay' (%s) must be shorter than the tag creation period (%s)".formatted(tableName, delay, period.length()));
        }
        this.numRetainedMax = options.containsKey("tag.num-retained-max") ? OptionalLong.of(integerOption(tableName, options, "tag.num-retained-max", 0)) : OptionalLong.empty();
        this.defaultTimeRetained = Optional.ofNullable(options.get("tag.default-time-retained"))
                .map(_ -> durationOption(tableName, options, "tag.default-time-retained", Duration.ZERO));
        this.automaticCompletion = booleanOption(tableName, options, "tag.automatic-completion", false);
        this.timeExpireEnabled = booleanOption(tableName, options, "tag.time-expire-enabled", true);
        this.timeZone = zone(mode == CreationMode.WATERMARK ? "sink.watermark-time-zone" : "sink.process-time-zone", options);
        this.snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        this.tags = new TagFiles(fileSystem, table.metadataLocation());
    }

    /** Creates the tags the snapshots since the last automatic tag call for, then deletes the expired tags. */
    public void run()
    {
        if (mode == CreationMode.PROCESS_TIME || mode == CreationMode.WATERMARK) {
            createTags();
        }
        if (timeExpireEnabled) {
            new TableTags(fileSystem, table).expire(Optional.empty());
        }
    }

    private void createTags()
    {
        TreeMap<Long, List<String>> automatic = automaticTags();
        long nextSnapshot;
        Optional<LocalDateTime> nextTag;
        if (automatic.isEmpty()) {
            nextSnapshot = snapshots.earliestSnapshotId().orElse(1);
            nextTag = Optional.empty();
        }
        else {
            nextSnapshot = automatic.lastKey() + 1;
            nextTag = Optional.of(period.next(period.toTime(onlyTag(automatic.lastEntry().getValue()))));
        }
        while (true) {
            if (snapshots.snapshotExists(nextSnapshot)) {
                nextTag = tag(snapshots.readSnapshot(nextSnapshot), nextTag);
                nextSnapshot++;
                continue;
            }
            // snapshots expired since the last tag: go on from the earliest left
            OptionalLong earliest = snapshots.earliestSnapshotId();
            if (earliest.isEmpty() || earliest.getAsLong() <= nextSnapshot) {
                return;
            }
            nextSnapshot = earliest.getAsLong();
        }
    }

    // tags the snapshot when its time has passed the end of the next tag's period; returns the next tag's time
    private Optional<LocalDateTime> tag(Snapshot snapshot, Optional<LocalDateTime> nextTag)
    {
        Optional<LocalDateTime> time = timeOf(snapshot);
        if (time.isEmpty() || (nextTag.isPresent() && time.get().minus(delay).isBefore(period.next(nextTag.get())))) {
            return nextTag;
        }
        LocalDateTime thisTag = automaticCompletion && nextTag.isPresent() ? nextTag.get() : period.previousStart(time.get());
        byte[] snapshotJson = MetadataFiles.readIfExists(fileSystem, snapshots.snapshotLocation(snapshot.id())).orElse(null);
        if (snapshotJson == null) {
            // expired meanwhile
            return nextTag;
        }
        // a tag of that name already there is kept, as Paimon's creation does
        tags.createTag(period.toName(thisTag), snapshotJson, defaultTimeRetained, LocalDateTime.now());
        if (numRetainedMax.isPresent()) {
            TreeMap<Long, List<String>> automatic = automaticTags();
            List<String> oldest = new ArrayList<>();
            long excess = automatic.size() - numRetainedMax.getAsLong();
            for (List<String> names : automatic.values()) {
                if (oldest.size() >= excess) {
                    break;
                }
                oldest.add(onlyTag(names));
            }
            if (!oldest.isEmpty()) {
                new TableTags(fileSystem, table).delete(oldest);
            }
        }
        return Optional.of(period.next(thisTag));
    }

    private Optional<LocalDateTime> timeOf(Snapshot snapshot)
    {
        long millis;
        if (mode == CreationMode.WATERMARK) {
            if (snapshot.watermark().isEmpty() || snapshot.watermark().getAsLong() == Long.MIN_VALUE) {
                return Optional.empty();
            }
            millis = snapshot.watermark().getAsLong();
        }
        else {
            millis = snapshot.timeMillis();
        }
        return Optional.of(LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), timeZone));
    }

    // the automatic tags (those whose names are a period's), by the id of the snapshot they tag
    private TreeMap<Long, List<String>> automaticTags()
    {
        TreeMap<Long, List<String>> automatic = new TreeMap<>();
        for (String name : tags.listTags()) {
            if (period.isName(name)) {
                tags.readTag(name).ifPresent(snapshot -> automatic.computeIfAbsent(snapshot.id(), _ -> new ArrayList<>()).add(name));
            }
        }
        return automatic;
    }

    private String onlyTag(List<String> names)
    {
        if (names.size() != 1) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: one snapshot has more than one automatic tag: %s".formatted(tableName, names));
        }
        return names.getFirst();
    }

    private ZoneId zone(String option, Map<String, String> options)
    {
        String value = options.get(option);
        if (value == null) {
            // Paimon's defaults: the watermark in UTC, the commit time in the writer's own zone
            return option.equals("sink.watermark-time-zone") ? ZoneOffset.UTC : ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(value.trim());
        }
        catch (DateTimeException e) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' has value '%s', expected a time zone such as 'UTC' or 'Asia/Shanghai'".formatted(tableName, option, value), e);
        }
    }

    /**
     * A tag period: its length and how its tags are named. A period's start is computed from the local date and time
     * read as if it were UTC, so days and hours begin at local midnight and on the hour, as Paimon counts them.
     */
    private record Period(Duration length, DateTimeFormatter formatter, boolean daily)
    {
        private static final DateTimeFormatter DAY = dateFormatter(true);
        private static final DateTimeFormatter DAY_WITHOUT_DASHES = dateFormatter(false);

        static Period ofDuration(Duration length)
        {
            return new Period(length, new DateTimeFormatterBuilder()
                    .appendValue(YEAR, 4).appendValue(MONTH_OF_YEAR, 2).appendValue(DAY_OF_MONTH, 2).appendValue(HOUR_OF_DAY, 2).appendValue(MINUTE_OF_HOUR, 2)
                    .toFormatter().withResolverStyle(ResolverStyle.STRICT), false);
        }

        static Period of(CreationPeriod period, PeriodFormatter formatter)
        {
            return switch (period) {
                case DAILY -> new Period(Duration.ofDays(1), formatter == PeriodFormatter.WITH_DASHES ? DAY : DAY_WITHOUT_DASHES, true);
                case HOURLY -> new Period(Duration.ofHours(1), hourFormatter(formatter), false);
                case TWO_HOURS -> new Period(Duration.ofHours(2), hourFormatter(PeriodFormatter.WITH_DASHES), false);
            };
        }

        LocalDateTime next(LocalDateTime time)
        {
            return time.plus(length);
        }

        // the start of the period before the one the time falls in: the period that ended
        LocalDateTime previousStart(LocalDateTime time)
        {
            long millis = time.toInstant(ZoneOffset.UTC).toEpochMilli();
            long periodMillis = length.toMillis();
            return LocalDateTime.ofInstant(Instant.ofEpochMilli(Math.floorDiv(millis, periodMillis) * periodMillis), ZoneOffset.UTC).minus(length);
        }

        String toName(LocalDateTime time)
        {
            return time.format(formatter);
        }

        LocalDateTime toTime(String name)
        {
            if (daily) {
                // a daily tag may carry more after a space, as Paimon's names of hourly periods do
                return LocalDate.parse(name.split(" ")[0], formatter).atStartOfDay();
            }
            return LocalDateTime.parse(name, formatter);
        }

        boolean isName(String name)
        {
            try {
                toTime(name);
                return true;
            }
            catch (DateTimeException e) {
                return false;
            }
        }

        private static DateTimeFormatter dateFormatter(boolean dashes)
        {
            DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().appendValue(YEAR, 4);
            if (dashes) {
                builder.appendLiteral('-');
            }
            builder.appendValue(MONTH_OF_YEAR, 2);
            if (dashes) {
                builder.appendLiteral('-');
            }
            return builder.appendValue(DAY_OF_MONTH, 2).toFormatter().withResolverStyle(ResolverStyle.STRICT);
        }

        private static DateTimeFormatter hourFormatter(PeriodFormatter formatter)
        {
            DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().appendValue(YEAR, 4);
            if (formatter == PeriodFormatter.WITH_DASHES) {
                builder.appendLiteral('-');
            }
            builder.appendValue(MONTH_OF_YEAR, 2);
            if (formatter == PeriodFormatter.WITH_DASHES) {
                builder.appendLiteral('-');
            }
            builder.appendValue(DAY_OF_MONTH, 2);
            if (formatter != PeriodFormatter.WITHOUT_DASHES_AND_SPACES) {
                builder.appendLiteral(' ');
            }
            return builder.appendValue(HOUR_OF_DAY, 2).toFormatter().withResolverStyle(ResolverStyle.STRICT);
        }
    }
}
