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

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.MergeEngineOptions;
import io.trino.plugin.paimon.table.SchemaValidation;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.Type;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_PROPERTY;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TypeMapping.toPaimonType;

/**
 * The first schema ({@code schema-0}) of a table Trino creates, built from CREATE TABLE's columns, comment and
 * properties as Paimon 1.4.2's catalog builds it from an equivalent {@code Schema}: field ids 0..n-1 in column order
 * (then the fields nested in the column's type, as Paimon's {@code ReassignFieldId} numbers them), primary-key columns NOT NULL unless
 * {@code primary-key.nullable} is set, only the options given, and every rule Paimon checks before it writes the file.
 * Pure: nothing is read or written, so CREATE TABLE and CREATE TABLE AS share it.
 */
public final class NewTableSchema
{
    private static final String PRIMARY_KEY_OPTION = "primary-key";
    private static final String PARTITION_OPTION = "partition";

    private NewTableSchema() {}

    /**
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_PROPERTY} naming the table and the property or option Paimon
     * would refuse, or {@code NOT_SUPPORTED} naming the column whose type Paimon cannot store
     */
    public static TableSchema create(ConnectorTableMetadata metadata, long timeMillis)
    {
        SchemaTableName tableName = metadata.getTable();
        Map<String, String> options = new LinkedHashMap<>(PaimonTableProperties.toOptions(tableName, metadata.getProperties()));
        // Paimon also takes the keys as options 'primary-key' and 'partition', which it moves into the schema
        List<String> primaryKeys = keys(tableName, PaimonTableProperties.primaryKeys(metadata.getProperties()), options, PRIMARY_KEY_OPTION, "primary key");
        List<String> partitionKeys = keys(tableName, PaimonTableProperties.partitionKeys(metadata.getProperties()), options, PARTITION_OPTION, "partition");
        boolean primaryKeyNullable = booleanOption(tableName.toString(), options, "primary-key.nullable", false);
        validated(() -> SchemaValidation.checkLocationOptions(tableName.toString(), options.keySet()));

        List<String> columnNames = metadata.getColumns().stream()
                .filter(column -> !column.isHidden())
                .map(ColumnMetadata::getName)
                .collect(toImmutableList());
        validated(() -> SchemaValidation.checkKeys(tableName.toString(), columnNames, partitionKeys, primaryKeys));

        AtomicInteger highestFieldId = new AtomicInteger(-1);
        ImmutableList.Builder<DataField> fields = ImmutableList.builder();
        for (ColumnMetadata column : metadata.getColumns()) {
            if (column.isHidden()) {
                continue;
            }
            int id = highestFieldId.incrementAndGet();
            boolean nullable = column.isNullable() && (primaryKeyNullable || !primaryKeys.contains(column.getName()));
            DataType type;
            try {
                type = toPaimonType(column.getType(), nullable, highestFieldId);
            }
            catch (TrinoException e) {
                throw new TrinoException(e::getErrorCode, "Table %s column '%s': %s".formatted(tableName, column.getName(), e.getMessage()), e);
            }
            fields.add(new DataField(id, column.getName(), type, ConnectorMetadataAdapter.comment(column), Optional.empty()));
        }
        Map<String, Type> columnTypes = new LinkedHashMap<>();
        metadata.getColumns().forEach(column -> columnTypes.put(column.getName(), column.getType()));
        TableSchema schema = new TableSchema(
                TableSchema.CURRENT_VERSION,
                0,
                fields.build(),
                highestFieldId.get(),
                partitionKeys,
                primaryKeys,
                options,
                metadata.getComment(),
                timeMillis);

        validated(() -> SchemaValidation.validate(tableName.toString(), schema, (name, validated, tableOptions) -> {
            MergeEngineOptions.checkNewTable(validated, tableOptions, columnTypes::get);
        }));
        return schema;
    }

    // a refusal of the table's options is a refusal of the properties given to CREATE TABLE or ALTER TABLE
    static void validated(Runnable check)
    {
        try {
            check.run();
        }
        catch (TrinoException e) {
            if (e.getErrorCode().equals(PAIMON_INVALID_TABLE_OPTION.toErrorCode())) {
                throw new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, e.getMessage(), e);
            }
            throw e;
        }
    }

    private static List<String> keys(SchemaTableName tableName, List<String> fromProperty, Map<String, String> options, String option, String kind)
    {
        String fromOption = options.remove(option);
        if (fromOption == null) {
            return fromProperty;
        }
        if (!fromProperty.isEmpty()) {
            throw new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, "Table %s: Cannot define %s on DDL and table options at the same time.".formatted(tableName, kind));
        }
        return Splitter.on(',').trimResults().omitEmptyStrings().splitToList(fromOption);
    }
}
