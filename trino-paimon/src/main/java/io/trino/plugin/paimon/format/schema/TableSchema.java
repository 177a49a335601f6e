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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.util.Objects.requireNonNull;

/**
 * One version of a table's schema ({@code schema/schema-<id>}): columns with their field ids, partition and
 * primary keys, and the options the user set (Paimon stores only those; defaults stay implicit).
 */
public record TableSchema(
        int version,
        long id,
        List<DataField> fields,
        int highestFieldId,
        List<String> partitionKeys,
        List<String> primaryKeys,
        Map<String, String> options,
        Optional<String> comment,
        long timeMillis)
{
    public static final int CURRENT_VERSION = 3;

    public TableSchema
    {
        checkArgument(id >= 0, "schema id is negative: %s", id);
        fields = ImmutableList.copyOf(requireNonNull(fields, "fields is null"));
        partitionKeys = ImmutableList.copyOf(requireNonNull(partitionKeys, "partitionKeys is null"));
        primaryKeys = ImmutableList.copyOf(requireNonNull(primaryKeys, "primaryKeys is null"));
        options = ImmutableMap.copyOf(requireNonNull(options, "options is null"));
        requireNonNull(comment, "comment is null");
        Set<String> names = fields.stream().map(DataField::name).collect(toImmutableSet());
        for (String key : partitionKeys) {
            checkArgument(names.contains(key), "partition key '%s' is not a column", key);
        }
        for (String key : primaryKeys) {
            checkArgument(names.contains(key), "primary key '%s' is not a column", key);
        }
    }

    /** This schema with the given options set over its own, as the writers of one task may need them. */
    public TableSchema withOptions(Map<String, String> changed)
    {
        Map<String, String> merged = new HashMap<>(options);
        merged.putAll(changed);
        return new TableSchema(version, id, fields, highestFieldId, partitionKeys, primaryKeys, merged, comment, timeMillis);
    }

    public List<DataField> partitionFields()
    {
        return fields(partitionKeys);
    }

    /**
     * The primary key without the partition keys, as Paimon keys the records of a bucket: a bucket lies inside one
     * partition, so the partition columns are constant there and left out of the key (paimon-format.md §7.1).
     */
    public List<String> trimmedPrimaryKeys()
    {
        return primaryKeys.stream()
                .filter(key -> !partitionKeys.contains(key))
                .collect(toImmutableList());
    }

    public List<DataField> trimmedPrimaryKeyFields()
    {
        return fields(trimmedPrimaryKeys());
    }

    public Optional<DataField> field(String name)
    {
        return fields.stream()
                .filter(field -> field.name().equals(name))
                .findFirst();
    }

    // the keys were checked to name columns when the schema was built
    private List<DataField> fields(List<String> names)
    {
        return names.stream()
                .map(name -> field(name).orElseThrow())
                .collect(toImmutableList());
    }

    public List<String> fieldNames()
    {
        return fields.stream()
                .map(DataField::name)
                .collect(toImmutableList());
    }
}
