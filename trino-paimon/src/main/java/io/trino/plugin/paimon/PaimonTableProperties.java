package io.trino.plugin.paimon;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.trino.plugin.paimon.format.TableSchema;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.TypeManager;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Locale.ENGLISH;

/**
 * Trino table properties of a Paimon table. The options users set most often are typed properties of their own;
 * every other Paimon option (the set is open-ended) lives in the {@code options} map, so that
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
    private static final Map<String, String> PROPERTY_BY_OPTION = ImmutableMap.<String, String>builder()
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
    public PaimonTableProperties(TypeManager typeManager)
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
                new PropertyMetadata<Map<String, String>>(
                        OPTIONS,
                        "Other Paimon table options, by their Paimon names, e.g. MAP(ARRAY['fields.price.aggregate-function'], ARRAY['max'])",
                        new MapType(VARCHAR, VARCHAR, typeManager.getTypeOperators()),
                        mapClass(),
                        ImmutableMap.of(),
                        false,
                        value -> toStringMap((Map<?, ?>) value),
                        value -> value));
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

    private static Object typedValue(SchemaTableName tableName, String property, String option, String value)
    {
        return switch (property) {
            case BUCKET -> parseInteger(tableName, option, value);
            case DELETION_VECTORS_ENABLED -> parseBoolean(tableName, option, value);
            case BUCKET_KEY, SEQUENCE_FIELD -> Splitter.on(',').trimResults().omitEmptyStrings().splitToList(value);
            default -> value;
        };
    }

    private static int parseInteger(SchemaTableName tableName, String option, String value)
    {
        try {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException e) {
            throw invalidOption(tableName, option, value, "an integer");
        }
    }

    private static boolean parseBoolean(SchemaTableName tableName, String option, String value)
    {
        return switch (value.trim().toLowerCase(ENGLISH)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalidOption(tableName, option, value, "true or false");
        };
    }

    private static TrinoException invalidOption(SchemaTableName tableName, String option, String value, String expected)
    {
        return new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' has value '%s', expected %s".formatted(tableName, option, value, expected));
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

    private static Map<String, String> toStringMap(Map<?, ?> value)
    {
        ImmutableMap.Builder<String, String> map = ImmutableMap.builder();
        value.forEach((key, entry) -> map.put((String) key, (String) entry));
        return map.buildOrThrow();
    }
}
