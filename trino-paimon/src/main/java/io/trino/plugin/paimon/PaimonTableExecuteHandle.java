package io.trino.plugin.paimon;

import com.google.common.collect.ImmutableMap;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One run of a table procedure: the table, the procedure and its arguments as text (a duration as {@code 7.00d}).
 */
public record PaimonTableExecuteHandle(
        SchemaTableName schemaTableName,
        PaimonTableProcedureId procedureId,
        Map<String, String> arguments)
        implements ConnectorTableExecuteHandle
{
    public PaimonTableExecuteHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(procedureId, "procedureId is null");
        arguments = ImmutableMap.copyOf(arguments);
    }
}
