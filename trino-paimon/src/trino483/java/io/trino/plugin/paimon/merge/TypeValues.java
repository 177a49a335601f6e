package io.trino.plugin.paimon.merge;

import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

/** A value as Java object for messages (Trino 477 dropped the session argument). */
public final class TypeValues
{
    private TypeValues() {}

    public static Object objectValue(Type type, Block block, int position)
    {
        return type.getObjectValue(block, position);
    }
}
