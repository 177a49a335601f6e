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
package io.trino.plugin.paimon.format.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.spi.TrinoException;

import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.format.JsonFields.optionalLong;
import static io.trino.plugin.paimon.format.JsonFields.optionalText;
import static io.trino.plugin.paimon.format.JsonFields.parseObject;
import static io.trino.plugin.paimon.format.JsonFields.requiredLong;
import static io.trino.plugin.paimon.format.JsonFields.requiredText;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The JSON of {@code snapshot-<id>} files. Reading keeps unknown members (files of newer Paimon versions) as they
 * are, and writing emits them after Paimon's members in Paimon's order, leaving out what is absent, as Paimon does.
 */
public final class SnapshotJson
{
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private static final Set<String> KNOWN_MEMBERS = ImmutableSet.of(
            "version", "uuid", "id", "schemaId", "baseManifestList", "baseManifestListSize", "deltaManifestList", "deltaManifestListSize",
            "changelogManifestList", "changelogManifestListSize", "indexManifest", "commitUser", "commitIdentifier", "commitKind", "timeMillis",
            "logOffsets", "totalRecordCount", "deltaRecordCount", "changelogRecordCount", "watermark", "statistics", "properties", "nextRowId");

    private SnapshotJson() {}

    /**
     * @throws InvalidMetadataException if the bytes are not a Paimon snapshot
     */
    public static Snapshot parse(byte[] json)
    {
        requireNonNull(json, "json is null");
        JsonNode root = parseObject(MAPPER, json);
        try {
            return new Snapshot(
                    root.has("version") ? (int) requiredLong(root, "version") : 1,
                    optionalText(root, "uuid"),
                    requiredLong(root, "id"),
                    requiredLong(root, "schemaId"),
                    requiredText(root, "baseManifestList"),
                    optionalLong(root, "baseManifestListSize"),
                    requiredText(root, "deltaManifestList"),
                    optionalLong(root, "deltaManifestListSize"),
                    optionalText(root, "changelogManifestList"),
                    optionalLong(root, "changelogManifestListSize"),
                    optionalText(root, "indexManifest"),
                    requiredText(root, "commitUser"),
                    requiredLong(root, "commitIdentifier"),
                    commitKind(requiredText(root, "commitKind")),
                    requiredLong(root, "timeMillis"),
                    logOffsets(root.get("logOffsets")),
                    optionalLong(root, "totalRecordCount"),
                    optionalLong(root, "deltaRecordCount"),
                    optionalLong(root, "changelogRecordCount"),
                    optionalLong(root, "watermark"),
                    optionalText(root, "statistics"),
                    properties(root.get("properties")),
                    optionalLong(root, "nextRowId"),
                    unknownMembers(root));
        }
        catch (IllegalArgumentException e) {
            throw new InvalidMetadataException(e.getMessage(), e);
        }
    }

    public static byte[] toJson(Snapshot snapshot)
    {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", snapshot.version());
        snapshot.uuid().ifPresent(value -> root.put("uuid", value));
        root.put("id", snapshot.id());
        root.put("schemaId", snapshot.schemaId());
        root.put("baseManifestList", snapshot.baseManifestList());
        snapshot.baseManifestListSize().ifPresent(value -> root.put("baseManifestListSize", value));
        root.put("deltaManifestList", snapshot.deltaManifestList());
        snapshot.deltaManifestListSize().ifPresent(value -> root.put("deltaManifestListSize", value));
        snapshot.changelogManifestList().ifPresent(value -> root.put("changelogManifestList", value));
        snapshot.changelogManifestListSize().ifPresent(value -> root.put("changelogManifestListSize", value));
        snapshot.indexManifest().ifPresent(value -> root.put("indexManifest", value));
        root.put("commitUser", snapshot.commitUser());
        root.put("commitIdentifier", snapshot.commitIdentifier());
        root.put("commitKind", snapshot.commitKind().name());
        root.put("timeMillis", snapshot.timeMillis());
        snapshot.logOffsets().ifPresent(offsets -> {
            ObjectNode node = root.putObject("logOffsets");
            offsets.forEach((bucket, offset) -> node.put(String.valueOf(bucket), offset));
        });
        snapshot.totalRecordCount().ifPresent(value -> root.put("totalRecordCount", value));
        snapshot.deltaRecordCount().ifPresent(value -> root.put("deltaRecordCount", value));
        snapshot.changelogRecordCount().ifPresent(value -> root.put("changelogRecordCount", value));
        snapshot.watermark().ifPresent(value -> root.put("watermark", value));
        snapshot.statistics().ifPresent(value -> root.put("statistics", value));
        snapshot.properties().ifPresent(properties -> {
            ObjectNode node = root.putObject("properties");
            properties.forEach(node::put);
        });
        snapshot.nextRowId().ifPresent(value -> root.put("nextRowId", value));
        try {
            for (Map.Entry<String, String> member : snapshot.unknownMembers().entrySet()) {
                root.set(member.getKey(), MAPPER.readTree(member.getValue()));
            }
            return MAPPER.writeValueAsString(root).getBytes(UTF_8);
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode snapshot %s as JSON".formatted(snapshot.id()), e);
        }
    }

    // members of newer Paimon versions, as JSON text
    private static Map<String, String> unknownMembers(JsonNode root)
    {
        ImmutableMap.Builder<String, String> members = ImmutableMap.builder();
        Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!KNOWN_MEMBERS.contains(field.getKey())) {
                members.put(field.getKey(), field.getValue().toString());
            }
        }
        return members.buildOrThrow();
    }

    private static CommitKind commitKind(String text)
    {
        try {
            return CommitKind.valueOf(text.toUpperCase(Locale.ENGLISH));
        }
        catch (IllegalArgumentException e) {
            throw new InvalidMetadataException("unknown commitKind '%s'".formatted(text));
        }
    }

    private static Optional<Map<Integer, Long>> logOffsets(JsonNode node)
    {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw new InvalidMetadataException("'logOffsets' is not an object");
        }
        ImmutableMap.Builder<Integer, Long> offsets = ImmutableMap.builder();
        for (Iterator<Map.Entry<String, JsonNode>> iterator = node.fields(); iterator.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = iterator.next();
            try {
                offsets.put(Integer.parseInt(entry.getKey()), entry.getValue().asLong());
            }
            catch (NumberFormatException e) {
                throw new InvalidMetadataException("'logOffsets' has a non-numeric bucket '%s'".formatted(entry.getKey()));
            }
        }
        return Optional.of(offsets.buildOrThrow());
    }

    private static Optional<Map<String, String>> properties(JsonNode node)
    {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw new InvalidMetadataException("'properties' is not an object");
        }
        ImmutableMap.Builder<String, String> properties = ImmutableMap.builder();
        node.fields().forEachRemaining(entry -> properties.put(entry.getKey(), entry.getValue().asText()));
        return Optional.of(properties.buildOrThrow());
    }
}
