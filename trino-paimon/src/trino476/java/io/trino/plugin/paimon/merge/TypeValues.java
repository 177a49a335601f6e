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
