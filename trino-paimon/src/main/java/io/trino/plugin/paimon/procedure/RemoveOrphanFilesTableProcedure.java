package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import com.google.inject.Provider;
import io.airlift.units.Duration;
import io.trino.spi.connector.TableProcedureMetadata;

import static io.trino.plugin.base.session.PropertyMetadataUtil.durationProperty;
import static io.trino.plugin.paimon.PaimonTableProcedureId.REMOVE_ORPHAN_FILES;
import static io.trino.spi.connector.TableProcedureExecutionMode.coordinatorOnly;

/**
 * {@code ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '7d')}: deletes the files of the table that
 * no snapshot, tag or branch references and that were last modified before the threshold.
 */
public class RemoveOrphanFilesTableProcedure
        implements Provider<TableProcedureMetadata>
{
    public static final String RETENTION_THRESHOLD = "retention_threshold";

    @Override
    public TableProcedureMetadata get()
    {
        return new TableProcedureMetadata(
                REMOVE_ORPHAN_FILES.name(),
                coordinatorOnly(),
                ImmutableList.of(durationProperty(
                        RETENTION_THRESHOLD,
                        "Only files last modified before the threshold are removed",
                        Duration.valueOf("7d"),
                        false)));
    }
}
