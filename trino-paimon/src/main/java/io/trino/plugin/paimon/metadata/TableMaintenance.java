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

import io.airlift.log.Logger;
import io.airlift.units.Duration;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonExpireSnapshotsHandle;
import io.trino.plugin.paimon.PaimonOptimizeHandle;
import io.trino.plugin.paimon.PaimonRemoveOrphanFilesHandle;
import io.trino.plugin.paimon.PaimonTableExecuteHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.PaimonTableProcedureHandle;
import io.trino.plugin.paimon.PaimonTableProcedureId;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.maintenance.OrphanFiles;
import io.trino.plugin.paimon.maintenance.SnapshotExpiry;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.SnapshotRetention;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonSessionProperties.EXPIRE_SNAPSHOTS_MIN_RETENTION;
import static io.trino.plugin.paimon.PaimonSessionProperties.REMOVE_ORPHAN_FILES_MIN_RETENTION;
import static io.trino.plugin.paimon.PaimonSessionProperties.expireSnapshotsMinRetention;
import static io.trino.plugin.paimon.PaimonSessionProperties.removeOrphanFilesMinRetention;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * The table procedures that run on the coordinator alone: {@code expire_snapshots} and {@code remove_orphan_files}.
 * Both take a {@code retention_threshold} that must not be shorter than the catalog's floor (the session may lower it),
 * so that a file a running query or an unfinished write may still need is not deleted.
 */
final class TableMaintenance
{
    static final String RETENTION_THRESHOLD = "retention_threshold";

    private static final Logger log = Logger.get(TableMaintenance.class);

    private final PaimonCatalog catalog;

    TableMaintenance(PaimonCatalog catalog)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    /** The handle of one run; empty for a procedure that is not one of these. */
    static Optional<ConnectorTableExecuteHandle> tableHandleForExecute(PaimonTableHandle table, String procedureName, Map<String, Object> properties)
    {
        PaimonTableProcedureId procedure;
        try {
            procedure = PaimonTableProcedureId.valueOf(procedureName.toUpperCase(Locale.ENGLISH));
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (procedure != PaimonTableProcedureId.EXPIRE_SNAPSHOTS && procedure != PaimonTableProcedureId.REMOVE_ORPHAN_FILES) {
            return Optional.empty();
        }
        Duration threshold = (Duration) properties.get(RETENTION_THRESHOLD);
        PaimonTableProcedureHandle run = procedure == PaimonTableProcedureId.EXPIRE_SNAPSHOTS ? new PaimonExpireSnapshotsHandle(threshold) : new PaimonRemoveOrphanFilesHandle(threshold);
        return Optional.of(new PaimonTableExecuteHandle(table.schemaTableName(), run));
    }

    void execute(ConnectorSession session, PaimonTableExecuteHandle handle)
    {
        switch (handle.procedure()) {
            case PaimonExpireSnapshotsHandle(Duration threshold) -> {
                checkRetention(threshold, expireSnapshotsMinRetention(session), "paimon.expire-snapshots.min-retention", EXPIRE_SNAPSHOTS_MIN_RETENTION);
                PaimonTable table = loadTable(session, handle.schemaTableName());
                SnapshotRetention retention = SnapshotRetention.fromOptions(table.name().toString(), table.schema().options());
                long olderThan = System.currentTimeMillis() - threshold.toMillis();
                // the threshold holds for the long-lived changelog too, which its own retention may keep longer
                long changelogOlderThan = Math.min(olderThan, System.currentTimeMillis() - retention.changelogTimeRetained().toMillis());
                SnapshotExpiry.Result result = new SnapshotExpiry(catalog.fileSystem(session, table.name()), table).expire(retention, olderThan, changelogOlderThan);
                log.info("expire_snapshots on %s removed %s snapshots, %s long-lived changelog files and %s files", table.name(), result.expiredSnapshots(), result.expiredChangelogs(), result.deletedFiles());
            }
            case PaimonRemoveOrphanFilesHandle(Duration threshold) -> {
                checkRetention(threshold, removeOrphanFilesMinRetention(session), "paimon.remove-orphan-files.min-retention", REMOVE_ORPHAN_FILES_MIN_RETENTION);
                PaimonTable table = loadTable(session, handle.schemaTableName());
                TrinoFileSystem fileSystem = catalog.fileSystem(session, table.name());
                OrphanFiles.Result result = new OrphanFiles(fileSystem, table).remove(System.currentTimeMillis() - threshold.toMillis());
                log.info("remove_orphan_files on %s removed %s files (%s bytes)", table.name(), result.deletedFiles().size(), result.deletedBytes());
            }
            case PaimonOptimizeHandle _ -> throw new IllegalArgumentException("optimize is not run on the coordinator alone");
        }
    }

    private PaimonTable loadTable(ConnectorSession session, SchemaTableName name)
    {
        return catalog.loadTable(session, name).orElseThrow(() -> new TableNotFoundException(name));
    }

    private static void checkRetention(Duration retention, Duration minRetention, String configProperty, String sessionProperty)
    {
        if (retention.compareTo(minRetention) < 0) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, ("Retention specified (%s) is shorter than the minimum retention configured in the system (%s). " +
                    "Minimum retention can be changed with %s configuration property or paimon.%s session property").formatted(retention, minRetention, configProperty, sessionProperty));
        }
    }
}
