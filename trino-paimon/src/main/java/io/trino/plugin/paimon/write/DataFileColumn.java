package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

/**
 * A physical column of a data file: its name and field id as Paimon writes them ({@code _KEY_id}, {@code _SEQUENCE_NUMBER},
 * a table column), its Paimon type and the Trino type of the values written to it.
 */
public record DataFileColumn(String name, int fieldId, DataType type, Type trinoType)
{
    public DataFileColumn
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(trinoType, "trinoType is null");
    }
}
