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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableSet;
import io.trino.spi.connector.ColumnHandle;

import java.util.Set;

/**
 * What a scan's split planning learns of the join's dynamic filters: since Trino 482 only the columns they will
 * cover; the engine waits for them and hands their predicate to each batch request.
 */
public record ScanDynamicFilter(Set<ColumnHandle> columns)
{
    public ScanDynamicFilter
    {
        columns = ImmutableSet.copyOf(columns);
    }
}
