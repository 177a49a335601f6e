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
package io.trino.plugin.paimon.procedure;

import com.google.inject.Inject;
import io.airlift.json.JsonCodec;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonOptimizeHandle;
import io.trino.plugin.paimon.catalog.SnapshotPublisher;
import io.trino.plugin.paimon.compaction.CompactionCommit;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.spi.connector.ConnectorSession;

import java.util.List;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/** The coordinator's side of {@code optimize}: the commit of the buckets the workers compacted, or its undoing. */
public final class OptimizeCommit
{
    private final JsonCodec<CompactionFragment> fragmentCodec;

    @Inject
    public OptimizeCommit(JsonCodec<CompactionFragment> fragmentCodec)
    {
        this.fragmentCodec = requireNonNull(fragmentCodec, "fragmentCodec is null");
    }

    /** Commits what the workers of an {@code optimize} compacted, then removes its staging folder. */
    public void finish(ConnectorSession session, TrinoFileSystem fileSystem, SnapshotPublisher publisher, PaimonOptimizeHandle handle, List<Object> splitSourceInfo)
    {
        try {
            if (handle.baseSnapshotId().isEmpty()) {
                return;
            }
            List<CompactionFragment> fragments = Optimize.fragments(fileSystem, fragmentCodec, handle, splitSourceInfo);
            new CompactionCommit(fileSystem, publisher, handle.table()).commit(handle.baseSnapshotId().getAsLong(), fragments, UUID.randomUUID().toString(), session.getQueryId());
        }
        finally {
            Optimize.removeStaging(fileSystem, handle);
        }
    }

    /** Removes what the workers of an {@code optimize} that never reached its commit wrote. */
    public void abandon(TrinoFileSystem fileSystem, PaimonOptimizeHandle handle)
    {
        Optimize.abandon(fileSystem, fragmentCodec, handle);
    }
}
