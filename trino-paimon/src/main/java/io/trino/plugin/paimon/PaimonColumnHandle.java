package io.trino.plugin.paimon;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

/**
 * A top-level column, identified by its Paimon field id (stable across renames) and carrying its Paimon name
 * (which may differ in case from the lower-cased Trino column name).
 */
public record PaimonColumnHandle(int fieldId, String name, Type type, boolean nullable)
        implements ColumnHandle
{
    public PaimonColumnHandle
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
