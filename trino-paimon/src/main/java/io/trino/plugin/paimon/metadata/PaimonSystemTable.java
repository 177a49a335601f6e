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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A {@code "<table>$<name>"} table answered on the coordinator from the table's metadata files.
 */
abstract class PaimonSystemTable
        implements SystemTable
{
    protected final PaimonCatalog catalog;
    protected final PaimonTable table;
    private final List<ColumnMetadata> columns;
    private final ConnectorTableMetadata tableMetadata;

    PaimonSystemTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName, List<ColumnMetadata> columns)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.table = requireNonNull(table, "table is null");
        this.columns = ImmutableList.copyOf(columns);
        this.tableMetadata = new ConnectorTableMetadata(systemTableName, this.columns);
    }

    @Override
    public Distribution getDistribution()
    {
        return Distribution.SINGLE_COORDINATOR;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata()
    {
        return tableMetadata;
    }

    protected InMemoryRecordSet.Builder rows()
    {
        return InMemoryRecordSet.builder(columns.stream().map(ColumnMetadata::getType).toList());
    }

    /**
     * The rows that {@code reader} finds in the table's current snapshot, read once for the whole listing so that
     * a commit meanwhile cannot mix two versions; none while nothing was committed yet.
     */
    protected RecordCursor fromCurrentSnapshot(ConnectorSession session, SnapshotRows reader)
    {
        InMemoryRecordSet.Builder rows = rows();
        TrinoFileSystem fileSystem = catalog.fileSystem(session, table.name());
        Optional<Snapshot> snapshot = new SnapshotFiles(fileSystem, table.metadataLocation(), catalog.metadataCache()).latestSnapshot();
        if (snapshot.isPresent()) {
            reader.addRows(rows, fileSystem, snapshot.get());
        }
        return rows.build().cursor();
    }

    @FunctionalInterface
    protected interface SnapshotRows
    {
        void addRows(InMemoryRecordSet.Builder rows, TrinoFileSystem fileSystem, Snapshot snapshot);
    }
}
