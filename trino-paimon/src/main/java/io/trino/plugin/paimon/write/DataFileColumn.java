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
