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
package io.trino.plugin.paimon.catalog;

import com.google.common.collect.ImmutableSet;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Gives a compaction commit up when a commit since the snapshot it compacted deleted one of the files it replaces
 * (another compaction of the bucket, an overwrite, a dropped partition), or one whose rows its new deletion vectors
 * mark, as Paimon's commit checks that the files a compaction deletes still exist. New files in the compacted buckets
 * do not conflict: a compaction keeps its records' sequence numbers, so records written meanwhile still win over them.
 * Snapshots are checked once each, also across retries.
 */
public final class CompactionConflictCheck
        implements Consumer<Optional<Snapshot>>
{
    private final String tableName;
    private final SnapshotFiles snapshots;
    private final SnapshotScan scan;
    private final Set<ManifestEntry.Identifier> compacted;
    private long checkedUpTo;

    public CompactionConflictCheck(TrinoFileSystem fileSystem, PaimonTable table, OptionalLong baseSnapshotId, Set<ManifestEntry.Identifier> compacted)
    {
        this.tableName = requireNonNull(table, "table is null").displayName();
        this.snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        this.scan = new SnapshotScan(fileSystem, table.location());
        this.compacted = ImmutableSet.copyOf(compacted);
        this.checkedUpTo = baseSnapshotId.orElse(0);
    }

    @Override
    public void accept(Optional<Snapshot> latest)
    {
        long latestId = latest.map(Snapshot::id).orElse(0L);
        for (long id = checkedUpTo + 1; id <= latestId; id++) {
            if (!snapshots.snapshotExists(id)) {
                throw conflict("snapshot %s, committed since the compaction read the table, is gone (expired), so what it changed cannot be checked".formatted(id));
            }
            Snapshot snapshot = snapshots.readSnapshot(id);
            for (ManifestFileMeta manifest : scan.readManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize())) {
                for (ManifestEntry entry : scan.readManifest(manifest)) {
                    if (entry.kind() == FileKind.DELETE && compacted.contains(entry.identifier())) {
                        throw conflict("snapshot %s (%s by %s) removed file %s, which this compaction replaces or marks rows of".formatted(id, snapshot.commitKind(), snapshot.commitUser(), entry.file().fileName()));
                    }
                }
            }
            checkedUpTo = id;
        }
    }

    private TrinoException conflict(String reason)
    {
        return new TrinoException(TRANSACTION_CONFLICT, "Compaction of Paimon table %s conflicts with a concurrent commit: %s; run it again".formatted(tableName, reason));
    }
}
