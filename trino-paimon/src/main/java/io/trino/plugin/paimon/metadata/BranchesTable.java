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
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$branches"}: the table's branches other than the main branch, by name, as Paimon's own
 * {@code $branches} lists them. A branch folder without a schema is not a branch (Paimon creates the schema first).
 * The creation time is that of the branch's oldest schema file, written when the branch was created (Paimon shows
 * the branch folder's modification time, in the JVM's zone).
 */
public final class BranchesTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("branch_name", VARCHAR),
            new ColumnMetadata("create_time", TIMESTAMP_TZ_MILLIS));

    public BranchesTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, COLUMNS);
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = rows();
        TrinoFileSystem fileSystem = catalog.fileSystem(session, table.name());
        for (String branch : catalog.listBranches(session, table)) {
            Location schemas = PaimonTable.branchLocation(table.location(), Optional.of(branch)).appendPath(SchemaFiles.SCHEMA_DIRECTORY);
            Optional<Long> created = oldestFileMillis(fileSystem, schemas);
            if (created.isPresent()) {
                rows.addRow(branch, packDateTimeWithZone(created.get(), UTC_KEY));
            }
        }
        return rows.build().cursor();
    }

    private Optional<Long> oldestFileMillis(TrinoFileSystem fileSystem, Location directory)
    {
        Optional<Long> oldest = Optional.empty();
        try {
            FileIterator files = fileSystem.listFiles(directory);
            while (files.hasNext()) {
                FileEntry file = files.next();
                long millis = file.lastModified().toEpochMilli();
                if (oldest.isEmpty() || millis < oldest.get()) {
                    oldest = Optional.of(millis);
                }
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Cannot list the schema files of a branch of table %s in %s".formatted(table.name(), directory), e);
        }
        return oldest;
    }
}
