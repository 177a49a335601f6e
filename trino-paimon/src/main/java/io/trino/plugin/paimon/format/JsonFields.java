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
package io.trino.plugin.paimon.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Typed access to the members of Paimon's JSON metadata files, failing with {@link InvalidMetadataException}.
 */
public final class JsonFields
{
    private JsonFields() {}

    public static JsonNode parseObject(ObjectMapper mapper, byte[] json)
    {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        }
        catch (JsonProcessingException e) {
            throw new InvalidMetadataException("not valid JSON: " + e.getOriginalMessage(), e);
        }
        catch (IOException e) {
            throw new InvalidMetadataException("not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidMetadataException("expected a JSON object");
        }
        return root;
    }

    public static String requiredText(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw new InvalidMetadataException("missing string '%s'".formatted(name));
        }
        return value.asText();
    }

    public static int requiredInt(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new InvalidMetadataException("missing integer '%s'".formatted(name));
        }
        return value.intValue();
    }

    public static long requiredLong(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new InvalidMetadataException("missing integer '%s'".formatted(name));
        }
        return value.longValue();
    }

    public static OptionalLong optionalLong(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return OptionalLong.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new InvalidMetadataException("'%s' is not an integer".formatted(name));
        }
        return OptionalLong.of(value.longValue());
    }

    public static Optional<String> optionalText(JsonNode node, String name)
    {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }
}
