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

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A column or a nested ROW field. Field ids are unique across all nesting levels of a table and survive
 * renames, so files written under an older schema are matched to columns by id, never by name.
 */
public record DataField(int id, String name, DataType type, Optional<String> description, Optional<String> defaultValue)
{
    public DataField
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(description, "description is null");
        requireNonNull(defaultValue, "defaultValue is null");
    }

    public DataField(int id, String name, DataType type)
    {
        this(id, name, type, Optional.empty(), Optional.empty());
    }
}
