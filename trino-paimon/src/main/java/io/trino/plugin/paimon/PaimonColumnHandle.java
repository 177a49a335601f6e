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
