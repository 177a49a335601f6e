package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import com.google.inject.Provider;
import io.trino.spi.connector.TableProcedureMetadata;

import static io.trino.plugin.paimon.PaimonTableProcedureId.OPTIMIZE;
import static io.trino.spi.connector.TableProcedureExecutionMode.distributedWithFilteringAndRepartitioning;

/** {@code ALTER TABLE t EXECUTE optimize [WHERE <partition predicate>]}: a full compaction of the selected buckets. */
public class OptimizeTableProcedure
        implements Provider<TableProcedureMetadata>
{
    @Override
    public TableProcedureMetadata get()
    {
        return new TableProcedureMetadata(OPTIMIZE.name(), distributedWithFilteringAndRepartitioning(), ImmutableList.of());
    }
}
