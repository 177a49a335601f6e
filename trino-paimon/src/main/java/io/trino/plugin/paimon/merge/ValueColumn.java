package io.trino.plugin.paimon.merge;

import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

/**
 * A value field as it lies in the pages being merged: the table field's name, its Trino type and its channel.
 */
public record ValueColumn(String field, Type type, int channel)
{
    public ValueColumn
    {
        requireNonNull(field, "field is null");
        requireNonNull(type, "type is null");
    }
}
