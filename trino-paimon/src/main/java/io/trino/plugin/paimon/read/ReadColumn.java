package io.trino.plugin.paimon.read;

import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

/**
 * A column to read from data files, identified by its field id so that files written under older schemas are read
 * by what the column was called then.
 */
public record ReadColumn(int fieldId, Type type)
{
    public ReadColumn
    {
        requireNonNull(type, "type is null");
    }
}
