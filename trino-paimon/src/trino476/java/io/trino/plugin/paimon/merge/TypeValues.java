package io.trino.plugin.paimon.merge;

import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

/** A value as Java object for messages; Trino 476 still asks for a session, which no type we show needs. */
public final class TypeValues
{
    private TypeValues() {}

    public static Object objectValue(Type type, Block block, int position)
    {
        return type.getObjectValue(null, block, position);
    }
}
