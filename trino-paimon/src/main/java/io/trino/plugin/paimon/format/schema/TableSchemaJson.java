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
package io.trino.plugin.paimon.format.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.schema.DataType.ArrayType;
import io.trino.plugin.paimon.format.schema.DataType.MapType;
import io.trino.plugin.paimon.format.schema.DataType.MultisetType;
import io.trino.plugin.paimon.format.schema.DataType.RowType;
import io.trino.plugin.paimon.format.schema.DataType.VectorType;
import io.trino.plugin.paimon.format.schema.DataTypeParser.CompositeHeader;
import io.trino.spi.TrinoException;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.format.JsonFields.optionalText;
import static io.trino.plugin.paimon.format.JsonFields.parseObject;
import static io.trino.plugin.paimon.format.JsonFields.requiredInt;
import static io.trino.plugin.paimon.format.JsonFields.requiredLong;
import static io.trino.plugin.paimon.format.JsonFields.requiredText;
import static java.util.Objects.requireNonNull;

/**
 * Reads the JSON of {@code schema/schema-<id>} files as Paimon writes them: atomic types are strings
 * ({@code "INT NOT NULL"}), ARRAY, MAP, MULTISET and ROW are objects whose {@code type} member carries the
 * nullability. Unknown members are ignored so that files of newer Paimon versions stay readable.
 */
public final class TableSchemaJson
{
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private static final ObjectMapper FLAT_MAPPER = JsonMapper.builder().build();

    private TableSchemaJson() {}

    /**
     * @throws InvalidMetadataException if the bytes are not a Paimon table schema
     */
    public static TableSchema parse(byte[] json)
    {
        requireNonNull(json, "json is null");
        JsonNode root = parseObject(MAPPER, json);
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
                    throw new InvalidMetadataException("'options' is not an object");
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
            throw new InvalidMetadataException(e.getMessage(), e);
        }
    }

    /** The schema as Paimon writes it: pretty-printed, members in Paimon's order, absent values left out. */
    public static byte[] toJson(TableSchema schema)
    {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", schema.version());
        root.put("id", schema.id());
        ArrayNode fields = root.putArray("fields");
        schema.fields().forEach(field -> fields.add(fieldJson(field)));
        root.put("highestFieldId", schema.highestFieldId());
        ArrayNode partitionKeys = root.putArray("partitionKeys");
        schema.partitionKeys().forEach(partitionKeys::add);
        ArrayNode primaryKeys = root.putArray("primaryKeys");
        schema.primaryKeys().forEach(primaryKeys::add);
        ObjectNode options = root.putObject("options");
        schema.options().forEach(options::put);
        schema.comment().ifPresent(comment -> root.put("comment", comment));
        root.put("timeMillis", schema.timeMillis());
        try {
            return MAPPER.writeValueAsBytes(root);
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode schema %s as JSON".formatted(schema.id()), e);
        }
    }

    /**
     * The schema's columns, keys and options each as one line of JSON, the members as in the schema file: how
     * Paimon's {@code $schemas} table shows them.
     */
    public static FlatSchema toFlatJson(TableSchema schema)
    {
        ArrayNode fields = FLAT_MAPPER.createArrayNode();
        schema.fields().forEach(field -> fields.add(fieldJson(field)));
        ObjectNode options = FLAT_MAPPER.createObjectNode();
        schema.options().forEach(options::put);
        try {
            return new FlatSchema(
                    FLAT_MAPPER.writeValueAsString(fields),
                    FLAT_MAPPER.writeValueAsString(schema.partitionKeys()),
                    FLAT_MAPPER.writeValueAsString(schema.primaryKeys()),
                    FLAT_MAPPER.writeValueAsString(options));
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode schema %s as JSON".formatted(schema.id()), e);
        }
    }

    public record FlatSchema(String fields, String partitionKeys, String primaryKeys, String options)
    {
        public FlatSchema
        {
            requireNonNull(fields, "fields is null");
            requireNonNull(partitionKeys, "partitionKeys is null");
            requireNonNull(primaryKeys, "primaryKeys is null");
            requireNonNull(options, "options is null");
        }
    }

    // also the columns of a view in a REST catalog
    public static ObjectNode fieldJson(DataField field)
    {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", field.id());
        node.put("name", field.name());
        node.set("type", typeJson(field.type()));
        field.description().ifPresent(description -> node.put("description", description));
        field.defaultValue().ifPresent(defaultValue -> node.put("defaultValue", defaultValue));
        return node;
    }

    private static JsonNode typeJson(DataType type)
    {
        String nullability = type.nullable() ? "" : " NOT NULL";
        return switch (type) {
            case ArrayType array -> {
                ObjectNode node = MAPPER.createObjectNode().put("type", "ARRAY" + nullability);
                node.set("element", typeJson(array.elementType()));
                yield node;
            }
            case MultisetType multiset -> {
                ObjectNode node = MAPPER.createObjectNode().put("type", "MULTISET" + nullability);
                node.set("element", typeJson(multiset.elementType()));
                yield node;
            }
            case MapType map -> {
                ObjectNode node = MAPPER.createObjectNode().put("type", "MAP" + nullability);
                node.set("key", typeJson(map.keyType()));
                node.set("value", typeJson(map.valueType()));
                yield node;
            }
            case RowType row -> {
                ObjectNode node = MAPPER.createObjectNode().put("type", "ROW" + nullability);
                ArrayNode fields = node.putArray("fields");
                row.fields().forEach(field -> fields.add(fieldJson(field)));
                yield node;
            }
            case VectorType vector -> {
                ObjectNode node = MAPPER.createObjectNode().put("type", "VECTOR" + nullability);
                node.set("element", typeJson(vector.elementType()));
                node.put("length", vector.length());
                yield node;
            }
            default -> MAPPER.getNodeFactory().textNode(type.asSqlString());
        };
    }

    /** Parses a type as it appears in a schema file: a string for atomic types, an object for composite ones. */
    public static DataType parseType(JsonNode node)
    {
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new InvalidMetadataException("missing type");
        }
        if (node.isTextual()) {
            return DataTypeParser.parse(node.asText());
        }
        if (!node.isObject()) {
            throw new InvalidMetadataException("a type must be a string or an object: " + node);
        }
        CompositeHeader header = DataTypeParser.parseCompositeHeader(requiredText(node, "type"));
        boolean nullable = header.nullable();
        return switch (header.keyword()) {
            case "ARRAY" -> new ArrayType(nullable, parseType(node.get("element")));
            case "MULTISET" -> new MultisetType(nullable, parseType(node.get("element")));
            case "VECTOR" -> {
                JsonNode length = node.get("length");
                if (length == null || !length.canConvertToInt()) {
                    throw new InvalidMetadataException("VECTOR type without an integer 'length': " + node);
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
            default -> throw new InvalidMetadataException("unknown composite type '%s'".formatted(header.keyword()));
        };
    }

    public static DataField parseField(JsonNode node)
    {
        if (!node.isObject()) {
            throw new InvalidMetadataException("a field must be an object: " + node);
        }
        String name = requiredText(node, "name");
        DataType type;
        try {
            type = parseType(node.get("type"));
        }
        catch (InvalidMetadataException e) {
            throw new InvalidMetadataException("field '%s': %s".formatted(name, e.getMessage()), e);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidMetadataException("field '%s': %s".formatted(name, e.getMessage()), e);
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
        Map<String, String> result = new LinkedHashMap<>(options);
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
            throw new InvalidMetadataException("'%s' is not an array".formatted(name));
        }
        ImmutableList.Builder<String> values = ImmutableList.builder();
        for (JsonNode value : node) {
            if (!value.isTextual()) {
                throw new InvalidMetadataException("'%s' must hold strings".formatted(name));
            }
            values.add(value.asText());
        }
        return values.build();
    }

    private static JsonNode requiredArray(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isArray()) {
            throw new InvalidMetadataException("missing array '%s'".formatted(name));
        }
        return value;
    }
}
