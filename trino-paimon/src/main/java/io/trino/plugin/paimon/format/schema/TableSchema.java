package io.trino.plugin.paimon.format.schema;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
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
    }

    public Optional<DataField> field(String name)
    {
        return fields.stream()
                .filter(field -> field.name().equals(name))
                .findFirst();
    }

    public List<String> fieldNames()
    {
        return fields.stream()
                .map(DataField::name)
                .collect(ImmutableList.toImmutableList());
    }
}
