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
package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.OptionalLong;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$snapshots"}: one row per snapshot still present, oldest first.
 */
public final class SnapshotsTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("snapshot_id", BIGINT),
            new ColumnMetadata("schema_id", BIGINT),
            new ColumnMetadata("commit_user", VARCHAR),
            new ColumnMetadata("commit_identifier", BIGINT),
            new ColumnMetadata("commit_kind", VARCHAR),
            new ColumnMetadata("commit_time", TIMESTAMP_TZ_MILLIS),
            new ColumnMetadata("base_manifest_list", VARCHAR),
            new ColumnMetadata("delta_manifest_list", VARCHAR),
            new ColumnMetadata("changelog_manifest_list", VARCHAR),
            new ColumnMetadata("index_manifest", VARCHAR),
            new ColumnMetadata("total_record_count", BIGINT),
            new ColumnMetadata("delta_record_count", BIGINT),
            new ColumnMetadata("watermark", BIGINT));

    public SnapshotsTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, COLUMNS);
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = rows();
        SnapshotFiles snapshots = new SnapshotFiles(catalog.fileSystem(session, table.name()), table.metadataLocation());
        for (long id : snapshots.listSnapshotIds()) {
            Snapshot snapshot = snapshots.readSnapshot(id);
            rows.addRow(
                    snapshot.id(),
                    snapshot.schemaId(),
                    snapshot.commitUser(),
                    snapshot.commitIdentifier(),
                    snapshot.commitKind().name(),
                    packDateTimeWithZone(snapshot.timeMillis(), UTC_KEY),
                    snapshot.baseManifestList(),
                    snapshot.deltaManifestList(),
                    snapshot.changelogManifestList().orElse(null),
                    snapshot.indexManifest().orElse(null),
                    boxed(snapshot.totalRecordCount()),
                    boxed(snapshot.deltaRecordCount()),
                    boxed(snapshot.watermark()));
        }
        return rows.build().cursor();
    }

    private static Long boxed(OptionalLong value)
    {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
