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

import io.airlift.units.Duration;

import static java.util.Objects.requireNonNull;

/** One {@code remove_orphan_files}, with its {@code retention_threshold}: files younger than it are kept. */
public record PaimonRemoveOrphanFilesHandle(Duration retentionThreshold)
        implements PaimonTableProcedureHandle
{
    public PaimonRemoveOrphanFilesHandle
    {
        requireNonNull(retentionThreshold, "retentionThreshold is null");
    }

    @Override
    public PaimonTableProcedureId id()
    {
        return PaimonTableProcedureId.REMOVE_ORPHAN_FILES;
    }
}
