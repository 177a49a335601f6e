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
package io.trino.plugin.paimon.catalog.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.schema.TableSchemaJson;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The list of Paimon {@code SchemaChange}s ({@code AlterTableRequest.changes}) that turns one schema of a table
 * into the next, as a REST server applies them: options set and removed, the table comment, and columns (matched by
 * field id) dropped, renamed, retyped, made nullable, commented, given a default, or added at their position.
 */
final class RestSchemaChanges
{
    private RestSchemaChanges() {}

    /**
     * @throws TrinoException {@code NOT_SUPPORTED} naming the table for a change no Paimon schema change expresses
     * (existing columns reordered)
     */
    static List<JsonNode> between(String tableName, TableSchema current, TableSchema next)
    {
        List<JsonNode> changes = new ArrayList<>();
        next.options().forEach((key, value) -> {
            if (!value.equals(current.options().get(key))) {
                changes.add(change("setOption").put("key", key).put("value", value));
            }
        });
        current.options().keySet().stream()
                .filter(key -> !next.options().containsKey(key))
                .forEach(key -> changes.add(change("removeOption").put("key", key)));
        if (!current.comment().equals(next.comment())) {
            ObjectNode change = change("updateComment");
            next.comment().ifPresentOrElse(comment -> change.put("comment", comment), () -> change.putNull("comment"));
            changes.add(change);
        }

        Map<Integer, DataField> currentFields = byId(current.fields());
        Map<Integer, DataField> nextFields = byId(next.fields());
        Map<Integer, JsonNode> nextTypes = typesById(next);
        Map<Integer, JsonNode> currentTypes = typesById(current);
        for (DataField field : current.fields()) {
            if (!nextFields.containsKey(field.id())) {
                changes.add(change("dropColumn").set("fieldNames", names(field.name())));
            }
        }
        for (DataField field : next.fields()) {
            DataField old = currentFields.get(field.id());
            if (old == null) {
                continue;
            }
            if (!old.name().equals(field.name())) {
                changes.add(change("renameColumn").<ObjectNode>set("fieldNames", names(old.name())).put("newName", field.name()));
            }
            JsonNode oldType = currentTypes.get(field.id());
            JsonNode newType = nextTypes.get(field.id());
            if (!oldType.equals(newType)) {
                if (old.type().withNullable(field.type().nullable()).equals(field.type())) {
                    changes.add(change("updateColumnNullability").<ObjectNode>set("fieldNames", names(field.name())).put("newNullability", field.type().nullable()));
                }
                else {
                    changes.add(change("updateColumnType").<ObjectNode>set("fieldNames", names(field.name()))
                            .<ObjectNode>set("newDataType", newType)
                            .put("keepNullability", false));
                }
            }
            if (!old.description().equals(field.description())) {
                ObjectNode change = change("updateColumnComment").set("fieldNames", names(field.name()));
                field.description().ifPresentOrElse(comment -> change.put("newComment", comment), () -> change.putNull("newComment"));
                changes.add(change);
            }
            if (!old.defaultValue().equals(field.defaultValue())) {
                ObjectNode change = change("updateColumnDefaultValue").set("fieldNames", names(field.name()));
                field.defaultValue().ifPresentOrElse(value -> change.put("newDefaultValue", value), () -> change.putNull("newDefaultValue"));
                changes.add(change);
            }
        }

        // the columns that stay must keep their order; a new column goes after the column before it, or first
        List<Integer> kept = next.fields().stream().map(DataField::id).filter(currentFields::containsKey).toList();
        List<Integer> keptBefore = current.fields().stream().map(DataField::id).filter(nextFields::containsKey).toList();
        if (!kept.equals(keptBefore)) {
            throw new TrinoException(NOT_SUPPORTED, "Reordering the columns of table %s is not supported".formatted(tableName));
        }
        Optional<String> previous = Optional.empty();
        for (DataField field : next.fields()) {
            if (!currentFields.containsKey(field.id())) {
                ObjectNode change = change("addColumn").<ObjectNode>set("fieldNames", names(field.name()))
                        .set("dataType", nextTypes.get(field.id()));
                field.description().ifPresent(comment -> change.put("comment", comment));
                ObjectNode move = RestClient.mapper().createObjectNode().put("fieldName", field.name());
                if (previous.isEmpty()) {
                    move.putNull("referenceFieldName").put("type", "FIRST");
                }
                else {
                    move.put("referenceFieldName", previous.get()).put("type", "AFTER");
                }
                // a column added after the last one needs no move: Paimon appends it
                if (!(field.id() == next.fields().getLast().id() && previous.isPresent())) {
                    change.set("move", move);
                }
                changes.add(change);
            }
            previous = Optional.of(field.name());
        }
        return ImmutableList.copyOf(changes);
    }

    private static ObjectNode change(String action)
    {
        return RestClient.mapper().createObjectNode().put("action", action);
    }

    private static ArrayNode names(String name)
    {
        return RestClient.mapper().createArrayNode().add(name);
    }

    private static Map<Integer, DataField> byId(List<DataField> fields)
    {
        Map<Integer, DataField> byId = new HashMap<>();
        fields.forEach(field -> byId.put(field.id(), field));
        return byId;
    }

    // each top-level field's type in the JSON of Paimon's schema files, which SchemaChange's data types share
    private static Map<Integer, JsonNode> typesById(TableSchema schema)
    {
        JsonNode json;
        try {
            json = RestClient.mapper().readTree(TableSchemaJson.toJson(schema));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode schema %s as JSON".formatted(schema.id()), e);
        }
        Map<Integer, JsonNode> types = new HashMap<>();
        for (JsonNode field : json.path("fields")) {
            types.put(field.path("id").asInt(), field.path("type"));
        }
        return types;
    }
}
