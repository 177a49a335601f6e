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
package io.trino.plugin.paimon.format.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.MetadataPaths;
import io.trino.plugin.paimon.format.stats.AnalyzedStatistics.ColumnStats;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static io.trino.plugin.paimon.format.JsonFields.optionalLong;
import static io.trino.plugin.paimon.format.JsonFields.optionalText;
import static io.trino.plugin.paimon.format.JsonFields.parseObject;
import static io.trino.plugin.paimon.format.JsonFields.requiredInt;
import static io.trino.plugin.paimon.format.JsonFields.requiredLong;
import static java.util.Objects.requireNonNull;

/**
 * The {@code statistics/stat-<uuid>-<n>} files of a table: JSON that a snapshot names in its {@code statistics}
 * member. Each file is written once under a new name and never changed.
 */
public final class StatisticsFiles
{
    public static final String STATISTICS_DIRECTORY = "statistics";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private final TrinoFileSystem fileSystem;
    private final Location tableLocation;

    public StatisticsFiles(TrinoFileSystem fileSystem, Location tableLocation)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.tableLocation = requireNonNull(tableLocation, "tableLocation is null");
    }

    public Location location(String fileName)
    {
        return MetadataPaths.child(tableLocation.appendPath(STATISTICS_DIRECTORY), fileName, "statistics file");
    }

    public AnalyzedStatistics read(String fileName)
    {
        Location location = location(fileName);
        try {
            return parse(MetadataFiles.readFile(fileSystem, location));
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid statistics file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /** Writes the statistics to a new file and returns its name, for the snapshot to name. */
    public String write(AnalyzedStatistics statistics)
    {
        String fileName = "stat-" + UUID.randomUUID() + "-0";
        Location location = location(fileName);
        try {
            try (OutputStream out = fileSystem.newOutputFile(location).create()) {
                out.write(toJson(statistics));
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write statistics file " + location, e);
        }
        return fileName;
    }

    /** Removes a file no snapshot names, such as one whose commit failed. */
    public void delete(String fileName)
    {
        try {
            fileSystem.deleteFile(location(fileName));
        }
        catch (IOException _) {
            // an unnamed statistics file is harmless; orphan removal finds it
        }
    }

    static AnalyzedStatistics parse(byte[] json)
    {
        JsonNode root = parseObject(MAPPER, json);
        ImmutableMap.Builder<String, ColumnStats> columns = ImmutableMap.builder();
        JsonNode columnsNode = root.get("colStats");
        if (columnsNode != null && !columnsNode.isNull()) {
            if (!columnsNode.isObject()) {
                throw new InvalidMetadataException("'colStats' is not an object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> entries = columnsNode.fields(); entries.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = entries.next();
                JsonNode column = entry.getValue();
                columns.put(entry.getKey(), new ColumnStats(
                        requiredInt(column, "colId"),
                        optionalLong(column, "distinctCount"),
                        optionalText(column, "min"),
                        optionalText(column, "max"),
                        optionalLong(column, "nullCount"),
                        optionalLong(column, "avgLen"),
                        optionalLong(column, "maxLen")));
            }
        }
        return new AnalyzedStatistics(
                requiredLong(root, "snapshotId"),
                requiredLong(root, "schemaId"),
                optionalLong(root, "mergedRecordCount"),
                optionalLong(root, "mergedRecordSize"),
                columns.buildOrThrow());
    }

    // members as Paimon writes them, absent values left out
    static byte[] toJson(AnalyzedStatistics statistics)
    {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("snapshotId", statistics.snapshotId());
        root.put("schemaId", statistics.schemaId());
        putIfPresent(root, "mergedRecordCount", statistics.mergedRecordCount());
        putIfPresent(root, "mergedRecordSize", statistics.mergedRecordSize());
        ObjectNode columns = root.putObject("colStats");
        statistics.columns().forEach((name, column) -> {
            ObjectNode node = columns.putObject(name);
            node.put("colId", column.fieldId());
            putIfPresent(node, "distinctCount", column.distinctCount());
            column.min().ifPresent(min -> node.put("min", min));
            column.max().ifPresent(max -> node.put("max", max));
            putIfPresent(node, "nullCount", column.nullCount());
            putIfPresent(node, "avgLen", column.averageLength());
            putIfPresent(node, "maxLen", column.maxLength());
        });
        try {
            return MAPPER.writeValueAsBytes(root);
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode statistics of snapshot %s as JSON".formatted(statistics.snapshotId()), e);
        }
    }

    private static void putIfPresent(ObjectNode node, String name, OptionalLong value)
    {
        if (value.isPresent()) {
            node.put(name, value.getAsLong());
        }
    }
}
