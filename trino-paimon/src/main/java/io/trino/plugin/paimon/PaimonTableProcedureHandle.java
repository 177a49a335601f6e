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

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What one run of a table procedure needs, typed by procedure: {@link PaimonOptimizeHandle},
 * {@link PaimonExpireSnapshotsHandle}, {@link PaimonRemoveOrphanFilesHandle}. The JSON of a handle names its procedure,
 * so the coordinator and the workers decode the same type.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "@procedure")
@JsonSubTypes({
        @JsonSubTypes.Type(value = PaimonOptimizeHandle.class, name = "optimize"),
        @JsonSubTypes.Type(value = PaimonExpireSnapshotsHandle.class, name = "expire_snapshots"),
        @JsonSubTypes.Type(value = PaimonRemoveOrphanFilesHandle.class, name = "remove_orphan_files"),
})
public sealed interface PaimonTableProcedureHandle
        permits PaimonOptimizeHandle, PaimonExpireSnapshotsHandle, PaimonRemoveOrphanFilesHandle
{
    PaimonTableProcedureId id();
}
