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
package io.trino.plugin.paimon.metadata;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableBiMap;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.ArrayType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_PROPERTY;
import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.stream.Collectors.joining;

/**
 * Trino table properties of a Paimon table. The options users set most often are typed properties of their own;
 * every other Paimon option (the set is open-ended) is an entry of {@code options}, so that
 * {@code SHOW CREATE TABLE} shows every option the schema file holds.
 */
public class PaimonTableProperties
{
    public static final String PRIMARY_KEY = "primary_key";
    public static final String PARTITIONED_BY = "partitioned_by";
    public static final String BUCKET = "bucket";
    public static final String BUCKET_KEY = "bucket_key";
    public static final String MERGE_ENGINE = "merge_engine";
    public static final String SEQUENCE_FIELD = "sequence_field";
    public static final String CHANGELOG_PRODUCER = "changelog_producer";
    public static final String DELETION_VECTORS_ENABLED = "deletion_vectors_enabled";
    public static final String FILE_FORMAT = "file_format";
    public static final String OPTIONS = "options";

    /** The typed properties that are plain Paimon options, by Paimon option name. */
    private static final ImmutableBiMap<String, String> PROPERTY_BY_OPTION = ImmutableBiMap.<String, String>builder()
            .put("bucket", BUCKET)
            .put("bucket-key", BUCKET_KEY)
            .put("merge-engine", MERGE_ENGINE)
            .put("sequence.field", SEQUENCE_FIELD)
            .put("changelog-producer", CHANGELOG_PRODUCER)
            .put("deletion-vectors.enabled", DELETION_VECTORS_ENABLED)
            .put("file.format", FILE_FORMAT)
            .buildOrThrow();

    private final List<PropertyMetadata<?>> tableProperties;

    @Inject
    public PaimonTableProperties()
    {
        tableProperties = ImmutableList.of(
                stringListProperty(PRIMARY_KEY, "Primary key columns; rows with the same key are merged by the merge engine"),
                stringListProperty(PARTITIONED_BY, "Partition columns"),
                integerProperty(BUCKET, "Number of buckets: a positive number for fixed buckets, -1 for dynamic buckets, -2 for postponed buckets", null, false),
                stringListProperty(BUCKET_KEY, "Columns hashed to choose a row's bucket (default: the primary key without partition columns)"),
                stringProperty(MERGE_ENGINE, "Merge engine: deduplicate, partial-update, aggregation or first-row", null, false),
                stringListProperty(SEQUENCE_FIELD, "Columns that order the records of one key before the sequence number"),
                stringProperty(CHANGELOG_PRODUCER, "Changelog producer: none, input, lookup or full-compaction", null, false),
                booleanProperty(DELETION_VECTORS_ENABLED, "Whether the table uses deletion vectors", null, false),
                stringProperty(FILE_FORMAT, "Data file format: parquet, orc or avro", null, false),
                new PropertyMetadata<>(
                        OPTIONS,
                        "Other Paimon table options as 'name=value' entries, e.g. ARRAY['fields.price.aggregate-function=max']",
                        new ArrayType(VARCHAR),
                        mapClass(),
                        ImmutableMap.of(),
                        false,
                        value -> parseOptions((List<?>) value),
                        PaimonTableProperties::formatOptions));
    }

    public List<PropertyMetadata<?>> getTableProperties()
    {
        return tableProperties;
    }

    /**
     * The Trino properties that describe a schema: keys, the typed options that are set, and every other option
     * in {@code options}. Properties the schema does not set are left out, as Paimon leaves defaults implicit.
     */
    public static Map<String, Object> fromSchema(SchemaTableName tableName, TableSchema schema)
    {
        ImmutableMap.Builder<String, Object> properties = ImmutableMap.builder();
        if (!schema.primaryKeys().isEmpty()) {
            properties.put(PRIMARY_KEY, schema.primaryKeys());
        }
        if (!schema.partitionKeys().isEmpty()) {
            properties.put(PARTITIONED_BY, schema.partitionKeys());
        }
        Map<String, String> otherOptions = new LinkedHashMap<>();
        schema.options().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(option -> {
                    String property = PROPERTY_BY_OPTION.get(option.getKey());
                    if (property == null) {
                        otherOptions.put(option.getKey(), option.getValue());
                        return;
                    }
                    properties.put(property, typedValue(tableName, property, option.getKey(), option.getValue()));
                });
        if (!otherOptions.isEmpty()) {
            properties.put(OPTIONS, ImmutableMap.copyOf(otherOptions));
        }
        return properties.buildOrThrow();
    }

    /** The primary key a CREATE TABLE declares, in key order; empty for an append table. */
    @SuppressWarnings("unchecked")
    public static List<String> primaryKeys(Map<String, Object> properties)
    {
        return (List<String>) properties.getOrDefault(PRIMARY_KEY, ImmutableList.of());
    }

    @SuppressWarnings("unchecked")
    public static List<String> partitionKeys(Map<String, Object> properties)
    {
        return (List<String>) properties.getOrDefault(PARTITIONED_BY, ImmutableList.of());
    }

    /**
     * The Paimon options a CREATE TABLE sets: the typed properties given, then the entries of {@code options}; the
     * inverse of {@link #fromSchema}. Properties left out stay out, as Paimon writes no defaults into a schema.
     *
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_PROPERTY} when an option is given both as a typed property
     * and in {@code options}
     */
    @SuppressWarnings("unchecked")
    public static Map<String, String> toOptions(SchemaTableName tableName, Map<String, Object> properties)
    {
        Map<String, String> options = new LinkedHashMap<>();
        PROPERTY_BY_OPTION.forEach((option, property) -> {
            Object value = properties.get(property);
            if (value == null) {
                return;
            }
            if (value instanceof List<?> list) {
                if (!list.isEmpty()) {
                    options.put(option, String.join(",", (List<String>) list));
                }
                return;
            }
            options.put(option, value.toString());
        });
        Map<String, String> otherOptions = (Map<String, String>) properties.getOrDefault(OPTIONS, ImmutableMap.of());
        otherOptions.forEach((option, value) -> {
            String property = PROPERTY_BY_OPTION.get(option);
            if (property != null && options.containsKey(option)) {
                throw new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, "Table %s: option '%s' is given both as table property '%s' and in '%s'".formatted(tableName, option, property, OPTIONS));
            }
            options.put(option, value);
        });
        return options;
    }

    /**
     * The option changes of {@code ALTER TABLE … SET PROPERTIES}: a typed property sets its option, or resets it when
     * set to DEFAULT (or an empty list); the entries of {@code options} are set, and options not named keep their
     * values. The keys map to Paimon's {@code primary-key} and {@code partition} options, which Paimon refuses to change.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Optional<String>> toOptionChanges(SchemaTableName tableName, Map<String, Optional<Object>> properties)
    {
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        properties.forEach((property, value) -> {
            switch (property) {
                case PRIMARY_KEY -> changes.put("primary-key", value.map(keys -> String.join(",", (List<String>) keys)));
                case PARTITIONED_BY -> changes.put("partition", value.map(keys -> String.join(",", (List<String>) keys)));
                case OPTIONS -> {
                    if (value.isEmpty()) {
                        throw new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, "Table %s: property '%s' cannot be reset as a whole; set the options to change as 'name=value' entries".formatted(tableName, OPTIONS));
                    }
                    ((Map<String, String>) value.get()).forEach((option, optionValue) -> {
                        if (PROPERTY_BY_OPTION.containsKey(option) && properties.containsKey(PROPERTY_BY_OPTION.get(option))) {
                            throw new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, "Table %s: option '%s' is given both as table property '%s' and in '%s'".formatted(tableName, option, PROPERTY_BY_OPTION.get(option), OPTIONS));
                        }
                        changes.put(option, Optional.of(optionValue));
                    });
                }
                default -> {
                    String option = PROPERTY_BY_OPTION.inverse().get(property);
                    if (option == null) {
                        throw new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, "Table %s: unknown table property '%s'".formatted(tableName, property));
                    }
                    changes.put(option, value.flatMap(PaimonTableProperties::optionValue));
                }
            }
        });
        return changes;
    }

    private static Optional<String> optionValue(Object value)
    {
        if (value instanceof List<?> list) {
            return list.isEmpty() ? Optional.empty() : Optional.of(list.stream().map(String.class::cast).collect(joining(",")));
        }
        return Optional.of(value.toString());
    }

    private static Object typedValue(SchemaTableName tableName, String property, String option, String value)
    {
        return switch (property) {
            case BUCKET -> TableOptions.parseInteger(tableName.toString(), option, value);
            case DELETION_VECTORS_ENABLED -> TableOptions.parseBoolean(tableName.toString(), option, value);
            case BUCKET_KEY, SEQUENCE_FIELD -> Splitter.on(',').trimResults().omitEmptyStrings().splitToList(value);
            default -> value;
        };
    }

    @SuppressWarnings("unchecked")
    private static PropertyMetadata<List<String>> stringListProperty(String name, String description)
    {
        return new PropertyMetadata<>(
                name,
                description,
                new ArrayType(VARCHAR),
                (Class<List<String>>) (Class<?>) List.class,
                ImmutableList.of(),
                false,
                value -> ((List<?>) value).stream()
                        .map(String.class::cast)
                        .collect(toImmutableList()),
                value -> value);
    }

    @SuppressWarnings("unchecked")
    private static Class<Map<String, String>> mapClass()
    {
        return (Class<Map<String, String>>) (Class<?>) Map.class;
    }

    // Trino 476 cannot print a MAP value in SHOW CREATE TABLE, so options travel as 'name=value' strings.
    // Paimon option names never contain '=', so the first '=' separates name and value.
    private static Map<String, String> parseOptions(List<?> entries)
    {
        Map<String, String> options = new LinkedHashMap<>();
        for (Object entry : entries) {
            String text = (String) entry;
            int separator = text == null ? -1 : text.indexOf('=');
            if (separator <= 0) {
                throw new TrinoException(INVALID_TABLE_PROPERTY, "Table property '%s': entry '%s' is not of the form 'name=value'".formatted(OPTIONS, text));
            }
            String name = text.substring(0, separator).trim();
            if (options.put(name, text.substring(separator + 1)) != null) {
                throw new TrinoException(INVALID_TABLE_PROPERTY, "Table property '%s': option '%s' is given more than once".formatted(OPTIONS, name));
            }
        }
        return ImmutableMap.copyOf(options);
    }

    private static List<String> formatOptions(Map<String, String> options)
    {
        return options.entrySet().stream()
                .map(option -> option.getKey() + "=" + option.getValue())
                .collect(toImmutableList());
    }
}
