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
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.schema.TableSchemaJson;
import io.trino.plugin.paimon.format.schema.TableSchemaJson.FlatSchema;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$schemas"}: every schema version of the table, oldest first, with its columns, keys and options as
 * JSON, as Paimon's own {@code $schemas} shows them. The update time is an instant (Paimon shows it in the JVM's zone).
 */
public final class SchemasTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("schema_id", BIGINT),
            new ColumnMetadata("fields", VARCHAR),
            new ColumnMetadata("partition_keys", VARCHAR),
            new ColumnMetadata("primary_keys", VARCHAR),
            new ColumnMetadata("options", VARCHAR),
            new ColumnMetadata("comment", VARCHAR),
            new ColumnMetadata("update_time", TIMESTAMP_TZ_MILLIS));

    public SchemasTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, COLUMNS);
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = rows();
        SchemaFiles schemas = new SchemaFiles(catalog.fileSystem(session, table.name()), table.metadataLocation());
        for (long id : schemas.listSchemaIds()) {
            TableSchema schema = schemas.readSchema(id);
            FlatSchema json = TableSchemaJson.toFlatJson(schema);
            rows.addRow(
                    schema.id(),
                    json.fields(),
                    json.partitionKeys(),
                    json.primaryKeys(),
                    json.options(),
                    schema.comment().orElse(null),
                    packDateTimeWithZone(schema.timeMillis(), UTC_KEY));
        }
        return rows.build().cursor();
    }
}
