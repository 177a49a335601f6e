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

import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.TableChanges;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;

import java.util.OptionalLong;

/**
 * The row count of a {@code table_changes} read in {@code delta} or {@code changelog} mode, from the record counts
 * each snapshot file carries ({@code deltaRecordCount}, {@code changelogRecordCount}): the snapshots are read for the
 * splits anyway, their manifests are not. It counts the records of the range's files before predicates other than
 * one on {@code _change_version_id}. None for a {@code diff} (its size depends on how the two states differ), for a
 * delta of a table whose batch reads skip level-0 files, and when a snapshot of the range does not carry its count.
 */
public final class TableChangesStatistics
{
    private TableChangesStatistics() {}

    public static TableStatistics estimate(TrinoFileSystem fileSystem, MetadataCache metadataCache, PaimonTableHandle handle)
    {
        TableChanges changes = handle.changes().orElseThrow();
        PaimonTable table = handle.table();
        if (changes.mode() == TableChanges.Mode.DIFF
                || (changes.mode() == TableChanges.Mode.DELTA && table.hasPrimaryKey() && table.options().batchScanSkipsLevelZero())) {
            return TableStatistics.empty();
        }
        if (changes.isEmpty() || handle.constraint().isNone()) {
            return TableStatistics.builder().setRowCount(Estimate.zero()).build();
        }
        Domain versions = TableChangesSplits.versions(handle.constraint());
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation(), metadataCache);
        long records = 0;
        for (long id = changes.start().snapshotId() + 1; id <= changes.end().snapshotId(); id++) {
            if (!versions.includesNullableValue(id)) {
                continue;
            }
            Snapshot snapshot = snapshots.readSnapshot(id);
            OptionalLong count;
            if (changes.mode() == TableChanges.Mode.DELTA) {
                if (snapshot.commitKind() != Snapshot.CommitKind.APPEND) {
                    continue;
                }
                count = snapshot.deltaRecordCount();
            }
            else {
                if (snapshot.commitKind() == Snapshot.CommitKind.OVERWRITE || snapshot.changelogManifestList().isEmpty()) {
                    continue;
                }
                count = snapshot.changelogRecordCount();
            }
            if (count.isEmpty()) {
                return TableStatistics.empty();
            }
            records += count.getAsLong();
        }
        return TableStatistics.builder().setRowCount(Estimate.of(records)).build();
    }
}
