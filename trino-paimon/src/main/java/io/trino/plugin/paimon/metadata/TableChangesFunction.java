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
import io.airlift.slice.Slice;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.TableChanges;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.function.table.AbstractConnectorTableFunction;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.Descriptor;
import io.trino.spi.function.table.ScalarArgument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.TABLE_NOT_FOUND;
import static io.trino.spi.function.table.ReturnTypeSpecification.GenericTable.GENERIC_TABLE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_PICOS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code system.table_changes}: the changes between two versions of a table, read as Paimon's incremental reads
 * read them (docs/changes.md). Analysis resolves the table and the range, so the call plans as a scan of the table
 * ({@link PaimonTableHandle.View#CHANGES}), with its splits, pushdown and statistics.
 */
public class TableChangesFunction
        extends AbstractConnectorTableFunction
{
    public static final String NAME = "table_changes";

    private static final String SCHEMA_NAME = "SCHEMA_NAME";
    private static final String TABLE_NAME = "TABLE_NAME";
    private static final String START_SNAPSHOT_ID = "START_SNAPSHOT_ID";
    private static final String END_SNAPSHOT_ID = "END_SNAPSHOT_ID";
    private static final String START_TAG = "START_TAG";
    private static final String END_TAG = "END_TAG";
    private static final String START_TIMESTAMP = "START_TIMESTAMP";
    private static final String END_TIMESTAMP = "END_TIMESTAMP";
    private static final String MODE = "MODE";

    private final Function<ConnectorTransactionHandle, ConnectorMetadata> transactions;
    private final PaimonCatalog catalog;

    /**
     * @param transactions the metadata of each open transaction
     */
    public TableChangesFunction(Function<ConnectorTransactionHandle, ConnectorMetadata> transactions, PaimonCatalog catalog)
    {
        super(
                "system",
                NAME,
                ImmutableList.of(
                        required(SCHEMA_NAME, VARCHAR),
                        required(TABLE_NAME, VARCHAR),
                        optional(START_SNAPSHOT_ID, BIGINT),
                        optional(END_SNAPSHOT_ID, BIGINT),
                        optional(START_TAG, VARCHAR),
                        optional(END_TAG, VARCHAR),
                        // of the highest precision, so that a time of any precision is taken without a cast
                        optional(START_TIMESTAMP, TIMESTAMP_TZ_PICOS),
                        optional(END_TIMESTAMP, TIMESTAMP_TZ_PICOS),
                        ScalarArgumentSpecification.builder().name(MODE).type(VARCHAR).defaultValue(utf8Slice("auto")).build()),
                GENERIC_TABLE);
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    private static ScalarArgumentSpecification required(String name, Type type)
    {
        return ScalarArgumentSpecification.builder().name(name).type(type).build();
    }

    private static ScalarArgumentSpecification optional(String name, Type type)
    {
        return ScalarArgumentSpecification.builder().name(name).type(type).defaultValue(null).build();
    }

    @Override
    public TableFunctionAnalysis analyze(ConnectorSession session, ConnectorTransactionHandle transaction, Map<String, Argument> arguments, ConnectorAccessControl accessControl)
    {
        String schema = text(arguments, SCHEMA_NAME).orElseThrow(() -> new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes takes a schema_name"));
        String table = text(arguments, TABLE_NAME).orElseThrow(() -> new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes takes a table_name"));
        SchemaTableName name = new SchemaTableName(schema, table);
        ConnectorMetadata metadata = transactions.apply(transaction);
        ConnectorTableHandle found = metadata.getTableHandle(session, name, Optional.empty(), Optional.empty());
        if (found == null) {
            throw new TrinoException(TABLE_NOT_FOUND, "table_changes: table %s does not exist".formatted(name));
        }
        PaimonTableHandle tableHandle = (PaimonTableHandle) found;
        if (tableHandle.view() != PaimonTableHandle.View.TABLE) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes reads a table or a branch of it, not %s".formatted(name));
        }
        Set<String> tableColumns = metadata.getColumnHandles(session, tableHandle).keySet();
        for (String changeColumn : PaimonMetadata.CHANGE_COLUMN_NAMES) {
            if (tableColumns.contains(changeColumn)) {
                throw new TrinoException(NOT_SUPPORTED, "table_changes cannot read %s: its column %s has the name of a column table_changes adds".formatted(name, changeColumn));
            }
        }
        TableChangesRange range = new TableChangesRange(
                number(arguments, START_SNAPSHOT_ID),
                text(arguments, START_TAG),
                timestampMillis(arguments, START_TIMESTAMP),
                number(arguments, END_SNAPSHOT_ID),
                text(arguments, END_TAG),
                timestampMillis(arguments, END_TIMESTAMP),
                text(arguments, MODE).orElse("auto"));
        TableChanges changes = range.resolve(catalog.fileSystem(session, tableHandle.schemaTableName()), tableHandle.table());
        PaimonTableHandle scan = tableHandle.forChanges(changes);

        List<ColumnMetadata> columns = metadata.getTableMetadata(session, scan).getColumns();
        Map<String, ColumnHandle> handles = metadata.getColumnHandles(session, scan);
        accessControl.checkCanSelectFromColumns(null, name, columns.stream().map(ColumnMetadata::getName).collect(toImmutableSet()));
        return TableFunctionAnalysis.builder()
                .returnedType(new Descriptor(columns.stream()
                        .map(column -> new Descriptor.Field(column.getName(), Optional.of(column.getType())))
                        .collect(toImmutableList())))
                .handle(new TableChangesFunctionHandle(scan, columns.stream().map(column -> (PaimonColumnHandle) handles.get(column.getName())).toList()))
                .build();
    }

    private static Optional<String> text(Map<String, Argument> arguments, String name)
    {
        return Optional.ofNullable((Slice) ((ScalarArgument) arguments.get(name)).getValue()).map(Slice::toStringUtf8);
    }

    private static Optional<Long> number(Map<String, Argument> arguments, String name)
    {
        return Optional.ofNullable((Long) ((ScalarArgument) arguments.get(name)).getValue());
    }

    private static Optional<Long> timestampMillis(Map<String, Argument> arguments, String name)
    {
        return Optional.ofNullable((LongTimestampWithTimeZone) ((ScalarArgument) arguments.get(name)).getValue()).map(LongTimestampWithTimeZone::getEpochMillis);
    }
}
