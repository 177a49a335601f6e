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
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.spi.TrinoException;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static java.util.Objects.requireNonNull;

/**
 * The Paimon options of a table that the connector acts on, parsed once from the schema with Paimon's defaults and
 * fallback keys. A value Paimon would reject fails here with an error naming the table, the option and the value.
 * Merge-engine specific combinations are validated by {@link MergeEngineOptions}.
 */
public record TableOptions(
        String tableName,
        MergeEngine mergeEngine,
        int bucket,
        List<String> bucketKey,
        BucketFunctionType bucketFunctionType,
        List<String> sequenceFields,
        boolean sequenceFieldDescending,
        String fileFormat,
        boolean deletionVectorsEnabled,
        ChangelogProducer changelogProducer,
        boolean forceLookup,
        boolean ignoreDelete,
        boolean partialUpdateRemoveRecordOnDelete,
        List<String> partialUpdateRemoveRecordOnSequenceGroup,
        boolean aggregationRemoveRecordOnDelete,
        Optional<String> defaultAggregateFunction,
        String partitionDefaultName,
        boolean partitionLegacyName,
        boolean primaryKeyNullable,
        boolean dataFileThinMode,
        CommitRetry commitRetry,
        Map<String, String> options)
{
    public static final int DYNAMIC_BUCKET = -1;
    public static final int POSTPONE_BUCKET = -2;
    private static final Pattern MEMORY_SIZE = Pattern.compile("(\\d+)\\s*([a-z]*)");

    public TableOptions
    {
        requireNonNull(tableName, "tableName is null");
        requireNonNull(mergeEngine, "mergeEngine is null");
        bucketKey = ImmutableList.copyOf(bucketKey);
        requireNonNull(bucketFunctionType, "bucketFunctionType is null");
        sequenceFields = ImmutableList.copyOf(sequenceFields);
        requireNonNull(fileFormat, "fileFormat is null");
        requireNonNull(changelogProducer, "changelogProducer is null");
        partialUpdateRemoveRecordOnSequenceGroup = ImmutableList.copyOf(partialUpdateRemoveRecordOnSequenceGroup);
        requireNonNull(defaultAggregateFunction, "defaultAggregateFunction is null");
        requireNonNull(partitionDefaultName, "partitionDefaultName is null");
        requireNonNull(commitRetry, "commitRetry is null");
        options = ImmutableMap.copyOf(options);
    }

    public enum ChangelogProducer
    {
        NONE, INPUT, FULL_COMPACTION, LOOKUP
    }

    public enum BucketFunctionType
    {
        DEFAULT, MOD
    }

    /**
     * @param tableName named in errors
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} for a value Paimon would reject
     */
    public static TableOptions fromSchema(String tableName, TableSchema schema)
    {
        Map<String, String> options = schema.options();
        Parser parser = new Parser(tableName, options);
        return new TableOptions(
                tableName,
                parser.enumValue("merge-engine", MergeEngine.class, MergeEngine.DEDUPLICATE),
                parser.integer("bucket").orElse(DYNAMIC_BUCKET),
                bucketKey(schema),
                parser.enumValue("bucket-function.type", BucketFunctionType.class, BucketFunctionType.DEFAULT),
                parser.text("sequence.field").map(TableOptions::splitUntrimmed).orElse(ImmutableList.of()),
                parser.enumValue("sequence.field.sort-order", SortOrder.class, SortOrder.ASCENDING) == SortOrder.DESCENDING,
                parser.text("file.format").orElse("parquet").toLowerCase(Locale.ENGLISH),
                parser.bool("deletion-vectors.enabled", false),
                parser.enumValue("changelog-producer", ChangelogProducer.class, ChangelogProducer.NONE),
                parser.bool("force-lookup", false),
                parser.bool("ignore-delete", false, "first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"),
                parser.bool("partial-update.remove-record-on-delete", false),
                parser.text("partial-update.remove-record-on-sequence-group").map(TableOptions::splitUntrimmed).orElse(ImmutableList.of()),
                parser.bool("aggregation.remove-record-on-delete", false),
                parser.text("fields.default-aggregate-function"),
                parser.text("partition.default-name").orElse("__DEFAULT_PARTITION__"),
                parser.bool("partition.legacy-name", true),
                parser.bool("primary-key.nullable", false),
                parser.bool("data-file.thin-mode", false),
                CommitRetry.fromOptions(tableName, options),
                options);
    }

    /**
     * The columns that choose a row's bucket: {@code bucket-key} split as Paimon's table schema splits it (on ','
     * without trimming), else the primary key without the partition keys when the option is absent or blank.
     */
    public static List<String> bucketKey(TableSchema schema)
    {
        return bucketKeyOption(schema.options()).filter(columns -> !columns.isEmpty()).orElse(schema.trimmedPrimaryKeys());
    }

    /** The columns {@code bucket-key} names when the option is set: none when its value is blank. */
    public static Optional<List<String>> bucketKeyOption(Map<String, String> options)
    {
        return Optional.ofNullable(options.get("bucket-key"))
                .map(value -> value.isBlank() ? ImmutableList.of() : ImmutableList.copyOf(value.split(",")));
    }

    /** {@code data-file.prefix}: how the names of data files start. */
    public String dataFilePrefix()
    {
        return options.getOrDefault("data-file.prefix", "data-");
    }

    /** {@code changelog-file.prefix}: how the names of changelog files start. */
    public String changelogFilePrefix()
    {
        return options.getOrDefault("changelog-file.prefix", "changelog-");
    }

    /** {@code data-file.external-paths.strategy}, trimmed: how Paimon picks an external root for a new data file. */
    public String dataFileExternalPathsStrategy()
    {
        return options.getOrDefault("data-file.external-paths.strategy", "none").trim();
    }

    /** The roots {@code data-file.external-paths} names, where Paimon may have written data files outside the table. */
    public List<String> dataFileExternalPaths()
    {
        return Optional.ofNullable(options.get("data-file.external-paths")).map(TableOptions::splitUntrimmed).orElse(ImmutableList.of()).stream()
                .map(String::trim)
                .filter(path -> !path.isEmpty())
                .toList();
    }

    /**
     * The folder of a bucket's data files relative to the table folder: {@code <partition path>bucket-<N>}, under
     * {@code data-file.path-directory} when the table names one (paimon-format.md §1).
     *
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} when that option is not a plain relative folder
     */
    public String bucketPath(String partitionPath, int bucket)
    {
        return dataFileDirectory().map(directory -> directory + "/").orElse("") + partitionPath + "bucket-" + bucket;
    }

    /**
     * {@code data-file.path-directory}: a folder inside the table folder that holds the partition and bucket folders.
     * It comes from metadata, so it must name a folder below the table's, never one beside or above it.
     */
    public Optional<String> dataFileDirectory()
    {
        String value = options.get("data-file.path-directory");
        if (value == null) {
            return Optional.empty();
        }
        String directory = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
        boolean plain = !directory.isEmpty()
                && !directory.startsWith("/")
                && !directory.contains(":")
                && !directory.contains("\\")
                && Splitter.on('/').splitToStream(directory).noneMatch(segment -> segment.isEmpty() || segment.equals(".") || segment.equals(".."));
        if (!plain) {
            throw invalid(tableName, "data-file.path-directory", value, "a relative folder inside the table's folder");
        }
        return Optional.of(directory);
    }

    /**
     * Whether reads use Paimon's lookup merge (only the shallowest non-zero level of a key joins its level-0
     * records): lookup changelog producer, deletion vectors, force-lookup, or first-row (merge-semantics §2.7).
     */
    public boolean needsLookup()
    {
        return changelogProducer == ChangelogProducer.LOOKUP || deletionVectorsEnabled || forceLookup || mergeEngine == MergeEngine.FIRST_ROW;
    }

    /**
     * Whether the merge keeps one of a key's records whole ({@code deduplicate}, {@code first-row}), so that every row
     * of the table is a row some write added as written; {@code partial-update} and {@code aggregation} combine them.
     */
    public boolean mergeKeepsWrittenRecords()
    {
        return mergeEngine == MergeEngine.DEDUPLICATE || mergeEngine == MergeEngine.FIRST_ROW;
    }

    /**
     * What a lookup compaction does with the row it finds above its output for a key it compacts (merge-semantics
     * §2.7): under first-row the row found stays and the newer record is dropped; under deduplicate without a sequence
     * field the newer record replaces it whatever it holds; other engines merge it with the newer records.
     */
    public LookupResolution lookupResolution()
    {
        if (mergeEngine == MergeEngine.FIRST_ROW) {
            return LookupResolution.KEEP_FOUND;
        }
        if (mergeEngine == MergeEngine.DEDUPLICATE && sequenceFields.isEmpty()) {
            return LookupResolution.REPLACE_FOUND;
        }
        return LookupResolution.MERGE_FOUND;
    }

    public enum LookupResolution
    {
        KEEP_FOUND, REPLACE_FOUND, MERGE_FOUND
    }

    /**
     * Whether a compaction's changelog leaves out the -U/+U pair of a key whose values did not change
     * ({@code changelog-producer.row-deduplicate}).
     */
    public boolean changelogRowDeduplicate()
    {
        return new Parser(tableName, options).bool("changelog-producer.row-deduplicate", false);
    }

    /** The columns whose changes alone do not count as a change for {@link #changelogRowDeduplicate()}. */
    public List<String> changelogRowDeduplicateIgnoreFields()
    {
        // names are taken as written between the commas, as Paimon takes them
        return Optional.ofNullable(options.get("changelog-producer.row-deduplicate-ignore-fields")).map(TableOptions::splitUntrimmed).orElse(ImmutableList.of());
    }

    /** Whether deletion vectors are written in the 64-bit flavour ({@code deletion-vectors.bitmap64}, paimon-format.md §12). */
    public boolean deletionVectorsBitmap64()
    {
        return new Parser(tableName, options).bool("deletion-vectors.bitmap64", false);
    }

    /** Batch reads of deletion-vector and first-row tables see only compacted (level > 0) files. */
    public boolean batchScanSkipsLevelZero()
    {
        return deletionVectorsEnabled || mergeEngine == MergeEngine.FIRST_ROW;
    }

    public Optional<String> fieldOption(String field, String suffix)
    {
        return Optional.ofNullable(options.get("fields." + field + "." + suffix));
    }

    public Optional<String> aggregateFunction(String field)
    {
        return fieldOption(field, "aggregate-function");
    }

    public boolean ignoreRetract(String field)
    {
        return fieldOption(field, "ignore-retract").map(value -> parseBoolean(tableName, "fields." + field + ".ignore-retract", value)).orElse(false);
    }

    /** Sequence groups: the sequence field(s) of each group (the key, comma-separated) and the fields it orders. */
    public Map<List<String>, List<String>> sequenceGroups()
    {
        ImmutableMap.Builder<List<String>, List<String>> groups = ImmutableMap.builder();
        options.forEach((key, value) -> {
            if (key.startsWith("fields.") && key.endsWith(".sequence-group")) {
                String sequenceFields = key.substring("fields.".length(), key.length() - ".sequence-group".length());
                groups.put(splitUntrimmed(sequenceFields), splitUntrimmed(value));
            }
        });
        return groups.buildOrThrow();
    }

    public static int parseInteger(String tableName, String option, String value)
    {
        try {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException e) {
            throw invalid(tableName, option, value, "an integer");
        }
    }

    /** An integer option, or its default when absent. */
    public static int integerOption(String tableName, Map<String, String> options, String option, int defaultValue)
    {
        String value = options.get(option);
        return value == null ? defaultValue : parseInteger(tableName, option, value);
    }

    /** An option naming one of the enum's constants as Paimon writes them ({@code process-time}, {@code with_dashes}), or its default when absent. */
    public static <E extends Enum<E>> E enumOption(String tableName, Map<String, String> options, String option, Class<E> type, E defaultValue)
    {
        return new Parser(tableName, options).enumValue(option, type, defaultValue);
    }

    /** A duration option (see {@link SnapshotRetention#parseDuration}), or its default when absent. */
    public static Duration durationOption(String tableName, Map<String, String> options, String option, Duration defaultValue)
    {
        String value = options.get(option);
        return value == null ? defaultValue : SnapshotRetention.parseDuration(tableName, option, value);
    }

    /**
     * A whole-number option from 1 to {@code max}, or its default when absent: the one reading of counts and sizes
     * given in plain numbers, refused the same way wherever they are read.
     */
    public static long positiveOption(String tableName, Map<String, String> options, String option, long defaultValue, long max)
    {
        String value = options.get(option);
        if (value == null) {
            return defaultValue;
        }
        OptionalLong parsed = wholeNumber(value);
        if (parsed.isPresent() && parsed.getAsLong() > 0 && parsed.getAsLong() <= max) {
            return parsed.getAsLong();
        }
        throw invalid(tableName, option, value, max == Long.MAX_VALUE ? "a positive whole number" : "a whole number from 1 to " + max);
    }

    /**
     * A limit option, as Paimon's options of that kind read: -1, also its default, for no limit (empty), else a whole
     * number from 1 to {@code max}.
     */
    public static OptionalLong limitOption(String tableName, Map<String, String> options, String option, long max)
    {
        String value = options.get(option);
        if (value == null) {
            return OptionalLong.empty();
        }
        OptionalLong parsed = wholeNumber(value);
        if (parsed.isPresent() && parsed.getAsLong() == -1) {
            return OptionalLong.empty();
        }
        if (parsed.isPresent() && parsed.getAsLong() > 0 && parsed.getAsLong() <= max) {
            return parsed;
        }
        throw invalid(tableName, option, value, "-1 (no limit) or a whole number from 1 to " + max);
    }

    // a long written in decimal, blanks around it allowed; empty when it is not one
    private static OptionalLong wholeNumber(String value)
    {
        try {
            return OptionalLong.of(Long.parseLong(value.trim()));
        }
        catch (NumberFormatException _) {
            return OptionalLong.empty();
        }
    }

    /**
     * A boolean option, or its default when absent: the one reading of boolean options, so that a value other than
     * true or false is refused on every path, never taken as false on one and refused on another.
     */
    public static boolean booleanOption(String tableName, Map<String, String> options, String option, boolean defaultValue)
    {
        String value = options.get(option);
        return value == null ? defaultValue : parseBoolean(tableName, option, value);
    }

    public static boolean parseBoolean(String tableName, String option, String value)
    {
        return switch (value.trim().toLowerCase(Locale.ENGLISH)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(tableName, option, value, "true or false");
        };
    }

    /** A memory size option, or its default (in Paimon's memory size text) when absent. */
    public static long memorySizeOption(String tableName, Map<String, String> options, String option, String defaultValue)
    {
        return parseMemorySize(tableName, option, options.getOrDefault(option, defaultValue));
    }

    /**
     * Paimon's map option of levels: comma-separated {@code level:value} pairs, such as
     * {@code file.format.per.level} = {@code '0:avro,3:parquet'}; none when absent or blank.
     */
    public static Map<Integer, String> levelMapOption(String tableName, Map<String, String> options, String option)
    {
        String value = options.get(option);
        if (value == null || value.isBlank()) {
            return ImmutableMap.of();
        }
        Map<Integer, String> levels = new HashMap<>();
        for (String entry : value.split(",")) {
            int colon = entry.indexOf(':');
            try {
                if (colon < 0) {
                    throw new NumberFormatException("no colon");
                }
                levels.put(Integer.parseInt(entry.substring(0, colon).trim()), entry.substring(colon + 1).trim());
            }
            catch (NumberFormatException _) {
                throw invalid(tableName, option, value, "comma-separated level:value pairs");
            }
        }
        return ImmutableMap.copyOf(levels);
    }

    /** Paimon's memory size text: a number and an optional unit (b, k/kb, m/mb, g/gb, t/tb, also spelled out). */
    public static long parseMemorySize(String tableName, String option, String value)
    {
        Matcher matcher = MEMORY_SIZE.matcher(value.trim().toLowerCase(Locale.ENGLISH));
        if (matcher.matches()) {
            long multiplier = switch (matcher.group(2)) {
                case "", "b", "bytes" -> 1L;
                case "k", "kb", "kibibytes" -> 1L << 10;
                case "m", "mb", "mebibytes" -> 1L << 20;
                case "g", "gb", "gibibytes" -> 1L << 30;
                case "t", "tb", "tebibytes" -> 1L << 40;
                default -> -1L;
            };
            if (multiplier > 0) {
                try {
                    return Math.multiplyExact(Long.parseLong(matcher.group(1)), multiplier);
                }
                catch (ArithmeticException | NumberFormatException _) {
                    // falls through to the error
                }
            }
        }
        throw invalid(tableName, option, value, "a memory size such as '256 mb'");
    }

    // Paimon splits these lists on ',' without trimming
    private static List<String> splitUntrimmed(String value)
    {
        return ImmutableList.copyOf(Splitter.on(',').omitEmptyStrings().split(value));
    }

    // the one wording of a refused option value
    static TrinoException invalid(String tableName, String option, String value, String expected)
    {
        return new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' has value '%s', expected %s".formatted(tableName, option, value, expected));
    }

    private enum SortOrder
    {
        ASCENDING, DESCENDING
    }

    private record Parser(String tableName, Map<String, String> options)
    {
        Optional<String> text(String key, String... fallbackKeys)
        {
            if (options.containsKey(key)) {
                return Optional.of(options.get(key));
            }
            return Arrays.stream(fallbackKeys).filter(options::containsKey).findFirst().map(options::get);
        }

        boolean bool(String key, boolean defaultValue, String... fallbackKeys)
        {
            Optional<String> value = text(key, fallbackKeys);
            return value.isPresent() ? parseBoolean(tableName, optionKey(key, fallbackKeys), value.get()) : defaultValue;
        }

        OptionalInt integer(String key)
        {
            Optional<String> value = text(key);
            return value.isPresent() ? OptionalInt.of(parseInteger(tableName, key, value.get())) : OptionalInt.empty();
        }

        <E extends Enum<E>> E enumValue(String key, Class<E> type, E defaultValue)
        {
            Optional<String> value = text(key);
            if (value.isEmpty()) {
                return defaultValue;
            }
            String normalized = value.get().trim().replace('-', '_').toUpperCase(Locale.ENGLISH);
            return Arrays.stream(type.getEnumConstants())
                    .filter(constant -> constant.name().equals(normalized))
                    .findFirst()
                    .orElseThrow(() -> invalid(tableName, key, value.get(), "one of " + Arrays.stream(type.getEnumConstants())
                            .map(constant -> constant.name().toLowerCase(Locale.ENGLISH).replace('_', '-'))
                            .collect(Collectors.joining(", "))));
        }

        private String optionKey(String key, String... fallbackKeys)
        {
            if (options.containsKey(key)) {
                return key;
            }
            return Arrays.stream(fallbackKeys).filter(options::containsKey).findFirst().orElse(key);
        }
    }
}
