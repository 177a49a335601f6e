package io.trino.plugin.paimon.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.DataType.ArrayType;
import io.trino.plugin.paimon.format.DataType.MapType;
import io.trino.plugin.paimon.format.DataType.MultisetType;
import io.trino.plugin.paimon.format.DataType.RowType;
import io.trino.plugin.paimon.format.DataType.VectorType;
import io.trino.plugin.paimon.format.DataTypeParser.CompositeHeader;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads the JSON of {@code schema/schema-<id>} files as Paimon writes them: atomic types are strings
 * ({@code "INT NOT NULL"}), ARRAY, MAP, MULTISET and ROW are objects whose {@code type} member carries the
 * nullability. Unknown members are ignored so that files of newer Paimon versions stay readable.
 */
public final class TableSchemaJson
{
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private TableSchemaJson() {}

    /**
     * @throws InvalidSchemaException if the bytes are not a Paimon table schema
     */
    public static TableSchema parse(byte[] json)
    {
        requireNonNull(json, "json is null");
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        }
        catch (JsonProcessingException e) {
            throw new InvalidSchemaException("not valid JSON: " + e.getOriginalMessage(), e);
        }
        catch (java.io.IOException e) {
            throw new InvalidSchemaException("not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidSchemaException("expected a JSON object");
        }
        try {
            int version = root.has("version") ? requiredInt(root, "version") : 1;
            long id = requiredLong(root, "id");
            ImmutableList.Builder<DataField> fields = ImmutableList.builder();
            for (JsonNode field : requiredArray(root, "fields")) {
                fields.add(parseField(field));
            }
            ImmutableMap.Builder<String, String> options = ImmutableMap.builder();
            JsonNode optionsNode = root.path("options");
            if (!optionsNode.isMissingNode() && !optionsNode.isNull()) {
                if (!optionsNode.isObject()) {
                    throw new InvalidSchemaException("'options' is not an object");
                }
                for (Iterator<Map.Entry<String, JsonNode>> iterator = optionsNode.fields(); iterator.hasNext(); ) {
                    Map.Entry<String, JsonNode> option = iterator.next();
                    options.put(option.getKey(), option.getValue().asText());
                }
            }
            Map<String, String> optionMap = options.buildOrThrow();
            optionMap = applyVersionDefaults(version, optionMap);
            return new TableSchema(
                    version,
                    id,
                    fields.build(),
                    root.has("highestFieldId") ? requiredInt(root, "highestFieldId") : -1,
                    stringList(root, "partitionKeys"),
                    stringList(root, "primaryKeys"),
                    optionMap,
                    optionalText(root, "comment"),
                    root.has("timeMillis") ? requiredLong(root, "timeMillis") : 0);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidSchemaException(e.getMessage(), e);
        }
    }

    /** Parses a type as it appears in a schema file: a string for atomic types, an object for composite ones. */
    public static DataType parseType(JsonNode node)
    {
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new InvalidSchemaException("missing type");
        }
        if (node.isTextual()) {
            return DataTypeParser.parse(node.asText());
        }
        if (!node.isObject()) {
            throw new InvalidSchemaException("a type must be a string or an object: " + node);
        }
        CompositeHeader header = DataTypeParser.parseCompositeHeader(requiredText(node, "type"));
        boolean nullable = header.nullable();
        return switch (header.keyword()) {
            case "ARRAY" -> new ArrayType(nullable, parseType(node.get("element")));
            case "MULTISET" -> new MultisetType(nullable, parseType(node.get("element")));
            case "VECTOR" -> {
                JsonNode length = node.get("length");
                if (length == null || !length.canConvertToInt()) {
                    throw new InvalidSchemaException("VECTOR type without an integer 'length': " + node);
                }
                yield new VectorType(nullable, parseType(node.get("element")), length.intValue());
            }
            case "MAP" -> new MapType(nullable, parseType(node.get("key")), parseType(node.get("value")));
            case "ROW" -> {
                ImmutableList.Builder<DataField> fields = ImmutableList.builder();
                for (JsonNode field : requiredArray(node, "fields")) {
                    fields.add(parseField(field));
                }
                yield new RowType(nullable, fields.build());
            }
            default -> throw new InvalidSchemaException("unknown composite type '%s'".formatted(header.keyword()));
        };
    }

    private static DataField parseField(JsonNode node)
    {
        if (!node.isObject()) {
            throw new InvalidSchemaException("a field must be an object: " + node);
        }
        String name = requiredText(node, "name");
        DataType type;
        try {
            type = parseType(node.get("type"));
        }
        catch (InvalidSchemaException e) {
            throw new InvalidSchemaException("field '%s': %s".formatted(name, e.getMessage()), e);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidSchemaException("field '%s': %s".formatted(name, e.getMessage()), e);
        }
        return new DataField(
                requiredInt(node, "id"),
                name,
                type,
                optionalText(node, "description"),
                optionalText(node, "defaultValue"));
    }

    // Schema versions 1 and 2 relied on defaults that later versions changed; pin them as Paimon does on read
    private static Map<String, String> applyVersionDefaults(int version, Map<String, String> options)
    {
        if (version >= 3) {
            return options;
        }
        Map<String, String> result = new java.util.LinkedHashMap<>(options);
        if (version <= 1) {
            result.putIfAbsent("bucket", "1");
        }
        result.putIfAbsent("file.format", "orc");
        return ImmutableMap.copyOf(result);
    }

    private static ImmutableList<String> stringList(JsonNode root, String name)
    {
        JsonNode node = root.path(name);
        if (node.isMissingNode() || node.isNull()) {
            return ImmutableList.of();
        }
        if (!node.isArray()) {
            throw new InvalidSchemaException("'%s' is not an array".formatted(name));
        }
        ImmutableList.Builder<String> values = ImmutableList.builder();
        for (JsonNode value : node) {
            if (!value.isTextual()) {
                throw new InvalidSchemaException("'%s' must hold strings".formatted(name));
            }
            values.add(value.asText());
        }
        return values.build();
    }

    private static JsonNode requiredArray(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isArray()) {
            throw new InvalidSchemaException("missing array '%s'".formatted(name));
        }
        return value;
    }

    private static String requiredText(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw new InvalidSchemaException("missing string '%s'".formatted(name));
        }
        return value.asText();
    }

    private static int requiredInt(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new InvalidSchemaException("missing integer '%s'".formatted(name));
        }
        return value.intValue();
    }

    private static long requiredLong(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new InvalidSchemaException("missing integer '%s'".formatted(name));
        }
        return value.longValue();
    }

    private static Optional<String> optionalText(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }
}
