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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonConfig;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.TableChanges;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.table.MergeRowId;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonSessionProperties.isLateMaterializationEnabled;
import static io.trino.plugin.paimon.PaimonSessionProperties.isTwoPassMergeReadEnabled;
import static io.trino.plugin.paimon.PaimonSessionProperties.twoPassMergeReadMaxGapRows;
import static io.trino.plugin.paimon.PaimonSessionProperties.twoPassMergeReadWindowRows;
import static java.util.Objects.requireNonNull;

/**
 * Builds the page source of a split: which columns to read from the files (key, sequence, kind, the requested
 * columns and the sequence fields the merge needs), in what order records are merged, and with which merge
 * function.
 */
public class PaimonPageSourceProvider
        extends PageSourceProviderAdapter
{
    private final TableFileSystemFactory fileSystemFactory;
    private final TypeMapping typeMapping;
    private final ParquetReaderOptions parquetOptions = ParquetReaderOptions.defaultOptions();
    private final ParquetReaderOptions parquetOptionsWithoutColumnIndex = ParquetReaderOptions.builder(parquetOptions).withUseColumnIndex(false).build();
    private final DataFileSchemas dataFileSchemas = new DataFileSchemas();
    private final ParquetFooterReader footers;

    @Inject
    public PaimonPageSourceProvider(TableFileSystemFactory fileSystemFactory, TypeManager typeManager, PaimonConfig config)
    {
        this(fileSystemFactory, typeManager, new ParquetFooterReader(config.getParquetFooterCacheMaxSize().toBytes()));
    }

    /** Without a footer cache, for tools and tests that open files outside a catalog. */
    public PaimonPageSourceProvider(TableFileSystemFactory fileSystemFactory, TypeManager typeManager)
    {
        this(fileSystemFactory, typeManager, ParquetFooterReader.UNCACHED);
    }

    private PaimonPageSourceProvider(TableFileSystemFactory fileSystemFactory, TypeManager typeManager, ParquetFooterReader footers)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.typeMapping = new TypeMapping(typeManager.getTypeOperators());
        this.footers = requireNonNull(footers, "footers is null");
    }

    @Override
    public ConnectorPageSource openPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit connectorSplit,
            ConnectorTableHandle connectorTable,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter)
    {
        PaimonTableHandle handle = (PaimonTableHandle) connectorTable;
        PaimonTable table = handle.table();
        if (channelOfField(columns, MergeRowId.FIELD_ID) >= 0) {
            return withRowId(transaction, session, connectorSplit, connectorTable, columns, dynamicFilter, table);
        }
        if (handle.view() == PaimonTableHandle.View.AUDIT_LOG) {
            return auditLog(transaction, session, connectorSplit, handle, columns, dynamicFilter);
        }
        if (connectorSplit instanceof TableChangesSplit changes) {
            return tableChanges(session, changes, handle, columns.stream().map(PaimonColumnHandle.class::cast).toList());
        }
        if (columns.stream().anyMatch(column -> ((PaimonColumnHandle) column).isProjection())) {
            // fields of ROW columns: each column is read once, pruned to the fields asked for, and the fields are
            // taken out of the merged rows
            NestedProjections projections = NestedProjections.of(columns.stream().map(PaimonColumnHandle.class::cast).toList());
            ConnectorPageSource columnsRead = openPageSource(transaction, session, connectorSplit, connectorTable, ImmutableList.copyOf(projections.columns()), dynamicFilter);
            return new NestedFieldPageSource(columnsRead, projections);
        }
        PaimonSplit split = (PaimonSplit) connectorSplit;
        // the join's dynamic filter as it stands now: its domains are Trino's to enforce, they only prune here
        TupleDomain<PaimonColumnHandle> predicate = handle.constraint().intersect(PaimonColumnHandle.wholeColumnDomains(dynamicFilter.getCurrentPredicate()));
        if (predicate.isNone()) {
            return new EmptyPageSource();
        }
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        TableOptions options = table.options();

        List<PaimonColumnHandle> columnHandles = columns.stream().map(PaimonColumnHandle.class::cast).toList();
        List<ReadColumn> requested = columnHandles.stream()
                .map(column -> new ReadColumn(column.fieldId(), column.type()))
                .toList();
        List<Type> outputTypes = requested.stream().map(ReadColumn::type).toList();

        boolean rawConvertible = table.hasPrimaryKey() && RawConvertible.isRawConvertible(split.files(), options);
        RowGroupDomains rowGroupDomains = RowGroupDomains.of(table, predicate, !table.hasPrimaryKey() || rawConvertible);
        long rowLimit = handle.limit().orElse(Long.MAX_VALUE);
        FileOpener fileOpener = (file, keyColumns, keyValueFile, valueColumns) -> DataFilePageReader.open(
                fileSystem,
                file,
                dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                keyColumns,
                keyValueFile,
                valueColumns,
                rowGroupDomains,
                parquetOptions, footers);

        if (!table.hasPrimaryKey()) {
            return PaimonPageSource.ofAppendFiles(split.files(), outputTypes, rowLimit, file -> fileOpener.open(file, ImmutableList.of(), false, requested));
        }
        MergePlan plan = MergePlan.of(table, typeMapping, columnHandles.stream().map(PaimonColumnHandle::name).toList(), requested);
        boolean readValuesLate = plan.newestRecordWins() && isLateMaterializationEnabled(session);
        boolean twoPass = plan.oneRecordWins() && isLateMaterializationEnabled(session) && isTwoPassMergeReadEnabled(session);
        if (twoPass && !rawConvertible) {
            // the second pass finds rows by the row numbers Trino's Parquet reader gives each page, which do not
            // account for rows a column index skips: the first pass prunes row groups only
            return PaimonPageSource.ofKeyValueFiles(split.files(), plan, outputTypes, rawConvertible, readValuesLate, Optional.of(new WinningRows.Settings(twoPassMergeReadWindowRows(session), twoPassMergeReadMaxGapRows(session))), rowLimit,
                    file -> DataFilePageReader.open(
                            fileSystem,
                            file,
                            dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                            plan.keyColumns(),
                            true,
                            plan.valueColumns(),
                            rowGroupDomains,
                            parquetOptionsWithoutColumnIndex, footers));
        }
        return PaimonPageSource.ofKeyValueFiles(split.files(), plan, outputTypes, rawConvertible, readValuesLate, Optional.empty(), rowLimit,
                file -> fileOpener.open(file, plan.keyColumns(), true, plan.valueColumns()));
    }

    /**
     * The rows of files of an append table, for a compaction that rewrites them: every table column, in table order,
     * file after file in the order given, without the rows their deletion vectors mark.
     */
    public ConnectorPageSource createAppendCompactionSource(ConnectorSession session, PaimonTable table, List<PaimonDataFile> files)
    {
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        List<ReadColumn> columns = table.schema().fields().stream()
                .map(field -> new ReadColumn(field.id(), typeMapping.toTrinoType(field)))
                .toList();
        return PaimonPageSource.ofAppendFiles(files, columns.stream().map(ReadColumn::type).toList(), Long.MAX_VALUE, file -> DataFilePageReader.open(
                fileSystem,
                file,
                dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                ImmutableList.of(),
                false,
                columns,
                // a compaction rewrites every row
                RowGroupDomains.NONE,
                parquetOptions, footers));
    }

    /**
     * The merged records of files of one bucket of a primary-key table, for a compaction that rewrites them: every
     * table column is read as a value column, in table order, and merged with the table's merge function as a read
     * merges it.
     */
    public BucketCompactionReader createCompactionReader(ConnectorSession session, PaimonTable table, List<PaimonDataFile> files, boolean dropRetracts)
    {
        return createCompactionReader(session, table, files, Map.of(), dropRetracts);
    }

    /**
     * @param selectedRows for files of which only some rows join the merge (the rows a key lookup found in the levels
     * above a lookup compaction), their positions, by file path
     */
    public BucketCompactionReader createCompactionReader(ConnectorSession session, PaimonTable table, List<PaimonDataFile> files, Map<String, RoaringBitmap> selectedRows, boolean dropRetracts)
    {
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        MergePlan plan = compactionPlan(table);
        List<ReadColumn> keyColumns = plan.keyColumns();
        List<ReadColumn> valueColumns = plan.valueColumns();
        int[] keyValueColumns = table.trimmedPrimaryKeyFields().stream().mapToInt(field -> MergePlan.indexOfField(valueColumns, field.id())).toArray();
        return new BucketCompactionReader(
                files,
                plan,
                keyValueColumns,
                dropRetracts,
                file -> {
                    RoaringBitmap selected = selectedRows.get(file.path());
                    if (selected == null) {
                        return DataFilePageReader.open(
                                fileSystem,
                                file,
                                dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                                keyColumns,
                                true,
                                valueColumns,
                                // a compaction rewrites every row
                                RowGroupDomains.NONE,
                                parquetOptions, footers);
                    }
                    // the selected rows are live: read the file whole, so that positions count from its first row
                    DataFilePageReader whole = DataFilePageReader.open(
                            fileSystem,
                            file.withoutDeletionVector(),
                            dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                            keyColumns,
                            true,
                            valueColumns,
                            RowGroupDomains.NONE,
                            parquetOptions, footers);
                    return new SelectedRowsPageReader(whole, selected);
                });
    }

    // every table column read as a value column, in table order, merged with the table's merge function
    private MergePlan compactionPlan(PaimonTable table)
    {
        List<DataField> fields = table.schema().fields();
        return MergePlan.of(
                table,
                typeMapping,
                fields.stream().map(DataField::name).toList(),
                fields.stream().map(field -> new ReadColumn(field.id(), typeMapping.toTrinoType(field))).toList());
    }

    /**
     * The changes of a split of {@code table_changes}: for a delta or changelog range its files' records as they
     * were written, with their kinds (an append table's rows are all inserts); for a diff the keys whose merged rows
     * differ between the bucket's two states ({@link BucketDiff}), or of an append table the rows of the files added.
     */
    private ConnectorPageSource tableChanges(ConnectorSession session, TableChangesSplit split, PaimonTableHandle handle, List<PaimonColumnHandle> columns)
    {
        PaimonTable table = handle.table();
        int[] outputChannels = new int[columns.size()];
        if (handle.changes().orElseThrow().mode() == TableChanges.Mode.DIFF && table.hasPrimaryKey()) {
            MergePlan plan = compactionPlan(table);
            int firstValueChannel = plan.layout().firstValueChannel();
            for (int i = 0; i < columns.size(); i++) {
                int fieldId = columns.get(i).fieldId();
                outputChannels[i] = fieldId < 0 ? fieldId : firstValueChannel + MergePlan.indexOfField(plan.valueColumns(), fieldId);
            }
            BucketDiff diff = new BucketDiff(
                    createCompactionReader(session, table, split.startFiles(), false),
                    createCompactionReader(session, table, split.files(), false),
                    plan.comparator(),
                    plan.layout(),
                    plan.valueColumns().stream().map(ReadColumn::type).toList());
            return new TableChangesPageSource(diff, plan.layout().kindChannel(), outputChannels, split.snapshotId(), split.commitMillis());
        }
        // key-value files hold the sequence number and the kind before the values; append files only values
        boolean keyValueFiles = table.hasPrimaryKey();
        int firstValueChannel = keyValueFiles ? KeyValueLayout.firstValueChannel(0) : 0;
        List<ReadColumn> values = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            PaimonColumnHandle column = columns.get(i);
            if (column.fieldId() < 0) {
                outputChannels[i] = column.fieldId();
                continue;
            }
            outputChannels[i] = firstValueChannel + values.size();
            values.add(new ReadColumn(column.fieldId(), column.type()));
        }
        // records are read as written, so a predicate on any column may skip row groups
        RowGroupDomains rowGroupDomains = RowGroupDomains.of(table, handle.constraint().filter((column, _) -> column.fieldId() >= 0), true);
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        RecordPages records = TableChangesPageSource.filesAsWritten(split.files(), file -> DataFilePageReader.open(
                fileSystem,
                file,
                dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                ImmutableList.of(),
                keyValueFiles,
                values,
                rowGroupDomains,
                parquetOptions, footers));
        // with no key channels read, the sequence number is channel 0 and the kind channel 1
        return new TableChangesPageSource(records, keyValueFiles ? 1 : -1, outputChannels, split.snapshotId(), split.commitMillis());
    }

    /** The key lookup of a lookup compaction of the table: it reads the key columns of files, nothing else. */
    public KeyLookup createKeyLookup(ConnectorSession session, PaimonTable table)
    {
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        List<DataField> keyFields = table.trimmedPrimaryKeyFields();
        List<ReadColumn> keyColumns = keyFields.stream()
                .map(field -> new ReadColumn(field.id(), typeMapping.toTrinoType(field)))
                .toList();
        return new KeyLookup(
                keyFields.stream().map(DataField::type).toList(),
                keyColumns.stream().map(ReadColumn::type).toList(),
                file -> DataFilePageReader.open(
                        fileSystem,
                        file,
                        dataFileSchemas.schema(session.getQueryId(), fileSystem, table, file.schemaId()),
                        keyColumns,
                        true,
                        List.of(),
                        RowGroupDomains.NONE,
                        parquetOptions, footers),
                fileSystem);
    }

    // a primary-key bucket merged as a compaction merges it, keeping retractions; an append table's rows as they are
    private ConnectorPageSource auditLog(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit split,
            PaimonTableHandle handle,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter)
    {
        PaimonTable table = handle.table();
        // the audit log reads whole columns: its scan takes no projection (PaimonMetadata.applyProjection)
        checkArgument(columns.stream().noneMatch(column -> ((PaimonColumnHandle) column).isProjection()), "projection of a nested field in an audit log scan: %s", columns);
        int[] outputChannels = new int[columns.size()];
        if (!table.hasPrimaryKey()) {
            List<ColumnHandle> read = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                boolean rowKind = ((PaimonColumnHandle) columns.get(i)).fieldId() == AuditLogPageSource.ROW_KIND_FIELD_ID;
                outputChannels[i] = rowKind ? -1 : read.size();
                if (!rowKind) {
                    read.add(columns.get(i));
                }
            }
            ConnectorPageSource rows = openPageSource(transaction, session, split, handle.withView(PaimonTableHandle.View.TABLE), read, dynamicFilter);
            return AuditLogPageSource.ofInserts(rows, outputChannels);
        }
        // the records come in a data file's key-value layout: key channels, sequence number, row kind, every table column
        int keyCount = table.trimmedPrimaryKeyFields().size();
        List<DataField> fields = table.schema().fields();
        for (int i = 0; i < columns.size(); i++) {
            int fieldId = ((PaimonColumnHandle) columns.get(i)).fieldId();
            outputChannels[i] = -1;
            for (int field = 0; field < fields.size(); field++) {
                if (fields.get(field).id() == fieldId) {
                    outputChannels[i] = KeyValueLayout.firstValueChannel(keyCount) + field;
                }
            }
        }
        BucketCompactionReader reader = createCompactionReader(session, table, ((PaimonSplit) split).files(), false);
        return AuditLogPageSource.ofMergedRecords(reader, keyCount + 1, outputChannels);
    }

    // UPDATE, DELETE and MERGE read the row id: its fields are read as columns and put together after the merge
    private ConnectorPageSource withRowId(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit split,
            ConnectorTableHandle table,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter,
            PaimonTable paimonTable)
    {
        List<ColumnHandle> read = new ArrayList<>();
        int[] outputChannels = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            PaimonColumnHandle column = (PaimonColumnHandle) columns.get(i);
            if (column.fieldId() == MergeRowId.FIELD_ID) {
                outputChannels[i] = -1;
            }
            else {
                outputChannels[i] = read.size();
                read.add(column);
            }
        }
        List<DataField> rowIdFields = MergeRowId.fields(paimonTable.schema(), paimonTable.options());
        int[] rowIdFieldChannels = new int[rowIdFields.size()];
        for (int i = 0; i < rowIdFieldChannels.length; i++) {
            DataField field = rowIdFields.get(i);
            int channel = channelOfField(read, field.id());
            if (channel < 0) {
                channel = read.size();
                read.add(new PaimonColumnHandle(field.id(), field.name(), typeMapping.toTrinoType(field), field.type().nullable()));
            }
            rowIdFieldChannels[i] = channel;
        }
        return new MergeRowIdPageSource(openPageSource(transaction, session, split, table, read, dynamicFilter), outputChannels, rowIdFieldChannels);
    }

    private static int channelOfField(List<ColumnHandle> columns, int fieldId)
    {
        for (int i = 0; i < columns.size(); i++) {
            PaimonColumnHandle column = (PaimonColumnHandle) columns.get(i);
            if (column.fieldId() == fieldId && !column.isProjection()) {
                return i;
            }
        }
        return -1;
    }

    private interface FileOpener
    {
        DataFilePageReader open(PaimonDataFile file, List<ReadColumn> keyColumns, boolean keyValueFile, List<ReadColumn> valueColumns);
    }
}
