package io.trino.plugin.paimon.read;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.Column;
import io.trino.parquet.Field;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ColumnIO;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.PrimitiveColumnIO;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;
import org.roaringbitmap.RoaringBitmap;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnByName;
import static io.trino.parquet.metadata.PrunedBlockMetadata.createPrunedColumnsMetadata;
import static io.trino.parquet.predicate.PredicateUtils.buildPredicate;
import static io.trino.parquet.predicate.PredicateUtils.getFilteredRowGroups;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Reads one Paimon data file (Parquet) into pages with every block loaded: for key-value files the trimmed key
 * columns ({@code _KEY_<k>}), {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then the value columns asked for;
 * for append files only the value columns. Columns are found by field id in the schema the file was written with;
 * a column the file does not have reads as nulls. Deleted rows (the file's deletion vector) are dropped here,
 * before any merge. Row groups and pages whose statistics (column chunk statistics, dictionaries, column index)
 * miss the {@link RowGroupDomains} are skipped: those rows are never read.
 */
final class DataFilePageReader
        implements Closeable
{
    static final String KEY_PREFIX = "_KEY_";
    static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
    static final String VALUE_KIND = "_VALUE_KIND";
    // Trino's default for simplifying large IN lists before they are checked against bloom filters
    private static final int DOMAIN_COMPACTION_THRESHOLD = 1000;

    private final Location location;
    private final ParquetDataSource dataSource;
    private final ParquetReader reader;
    private final AggregatedMemoryContext memoryContext;
    private final int channelCount;
    private final Block[] missingColumns;
    private final int[] readerChannels;
    private final Optional<RoaringBitmap> deletedRows;
    private final int rowGroupCount;
    private final int rowGroupsRead;

    DataFilePageReader(
            TrinoFileSystem fileSystem,
            Location location,
            PaimonDataFile file,
            TableSchema fileSchema,
            List<ReadColumn> keyColumns,
            boolean keyValueFile,
            List<ReadColumn> valueColumns,
            RowGroupDomains domains,
            ParquetReaderOptions options)
    {
        this.location = requireNonNull(location, "location is null");
        this.memoryContext = newSimpleAggregatedMemoryContext();
        this.deletedRows = file.deletionVector().map(reference -> DeletionVectors.read(fileSystem, reference));
        try {
            this.dataSource = new ParquetFileDataSource(fileSystem.newInputFile(location, file.fileSize()), file.fileSize(), options);
            ParquetMetadata metadata = MetadataReader.readFooter(dataSource, Optional.empty());
            MessageType fileType = metadata.getFileMetaData().getSchema();
            MessageColumnIO messageColumnIO = getColumnIO(fileType, fileType);

            // channels of the output page, in order; a column missing from the file becomes a null block
            List<String> names = new ArrayList<>();
            List<Type> types = new ArrayList<>();
            List<Optional<Domain>> channelDomains = new ArrayList<>();
            if (keyValueFile) {
                for (ReadColumn key : keyColumns) {
                    DataField field = field(fileSchema, key.fieldId()).orElseThrow(() -> badData("key field %s is missing from the schema of the file".formatted(key.fieldId())));
                    names.add(KEY_PREFIX + field.name());
                    types.add(key.type());
                    channelDomains.add(domains.keyDomain(key.fieldId(), field.type()));
                }
                names.add(SEQUENCE_NUMBER);
                types.add(BIGINT);
                channelDomains.add(Optional.empty());
                names.add(VALUE_KIND);
                types.add(TINYINT);
                channelDomains.add(Optional.empty());
            }
            for (ReadColumn value : valueColumns) {
                Optional<DataField> field = field(fileSchema, value.fieldId());
                names.add(field.map(DataField::name).orElse(null));
                types.add(value.type());
                channelDomains.add(field.flatMap(fileField -> domains.valueDomain(value.fieldId(), fileField.type())));
            }

            this.channelCount = names.size();
            this.missingColumns = new Block[channelCount];
            this.readerChannels = new int[channelCount];
            List<Column> columns = new ArrayList<>();
            Map<ColumnDescriptor, Domain> parquetDomains = new HashMap<>();
            for (int channel = 0; channel < channelCount; channel++) {
                String name = names.get(channel);
                ColumnIO columnIO = name == null ? null : lookupColumnByName(messageColumnIO, name);
                if (columnIO == null) {
                    if (keyValueFile && channel < keyColumns.size() + 2) {
                        throw badData("column %s is missing".formatted(name));
                    }
                    readerChannels[channel] = -1;
                    missingColumns[channel] = RunLengthEncodedBlock.create(types.get(channel), null, 1);
                    continue;
                }
                Type type = types.get(channel);
                Field field = constructField(type, columnIO)
                        .orElseThrow(() -> badData("column %s cannot be read as %s".formatted(name, type)));
                readerChannels[channel] = columns.size();
                columns.add(new Column(name, field));
                if (columnIO instanceof PrimitiveColumnIO primitive && channelDomains.get(channel).isPresent() && !channelDomains.get(channel).get().isAll()) {
                    parquetDomains.put(primitive.getColumnDescriptor(), channelDomains.get(channel).get());
                }
            }

            Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(fileType, fileType);
            List<RowGroupInfo> rowGroups;
            Optional<TupleDomainParquetPredicate> predicate = Optional.empty();
            if (parquetDomains.isEmpty()) {
                rowGroups = new ArrayList<>();
                long rowOffset = 0;
                for (BlockMetadata block : metadata.getBlocks()) {
                    rowGroups.add(new RowGroupInfo(createPrunedColumnsMetadata(block, dataSource.getId(), descriptors), rowOffset, Optional.empty()));
                    rowOffset += block.rowCount();
                }
            }
            else {
                // the reader also takes the predicate, to skip the pages the column indexes rule out
                TupleDomain<ColumnDescriptor> parquetDomain = TupleDomain.withColumnDomains(parquetDomains);
                predicate = Optional.of(buildPredicate(fileType, parquetDomain, descriptors, DateTimeZone.UTC));
                rowGroups = getFilteredRowGroups(0, file.fileSize(), dataSource, metadata, List.of(parquetDomain), List.of(predicate.get()), descriptors, DateTimeZone.UTC, DOMAIN_COMPACTION_THRESHOLD, options);
            }
            this.rowGroupCount = metadata.getBlocks().size();
            this.rowGroupsRead = rowGroups.size();
            this.reader = new ParquetReader(
                    Optional.ofNullable(metadata.getFileMetaData().getCreatedBy()),
                    columns,
                    deletedRows.isPresent(),
                    rowGroups,
                    dataSource,
                    DateTimeZone.UTC,
                    memoryContext,
                    options,
                    exception -> new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, exception.getMessage()), exception),
                    predicate,
                    Optional.empty());
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // the file was there when the query planned: its snapshot expired, or the file was removed, meanwhile
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file is missing: %s (its snapshot may have expired while the query ran)".formatted(location), e);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to open Paimon data file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /** The next page with every block loaded, or null at the end of the file. */
    Page nextPage()
    {
        while (true) {
            SourcePage sourcePage;
            try {
                sourcePage = reader.nextPage();
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, e.getMessage()), e);
            }
            if (sourcePage == null) {
                return null;
            }
            int positions = sourcePage.getPositionCount();
            Block[] blocks = new Block[channelCount];
            for (int channel = 0; channel < channelCount; channel++) {
                blocks[channel] = readerChannels[channel] < 0
                        ? RunLengthEncodedBlock.create(missingColumns[channel], positions)
                        : sourcePage.getBlock(readerChannels[channel]);
            }
            Page page = new Page(positions, blocks);
            if (deletedRows.isEmpty()) {
                return page;
            }
            // the reader appended each row's position in the file: drop the rows the deletion vector marks
            Block rowNumbers = sourcePage.getBlock(sourcePage.getChannelCount() - 1);
            int[] kept = new int[positions];
            int keptCount = 0;
            for (int position = 0; position < positions; position++) {
                if (!deletedRows.get().contains((int) BIGINT.getLong(rowNumbers, position))) {
                    kept[keptCount++] = position;
                }
            }
            if (keptCount == positions) {
                return page;
            }
            if (keptCount > 0) {
                return page.getPositions(kept, 0, keptCount);
            }
        }
    }

    /** Row groups of the file, and those left to read after pruning. */
    int rowGroupCount()
    {
        return rowGroupCount;
    }

    int rowGroupsRead()
    {
        return rowGroupsRead;
    }

    long memoryUsage()
    {
        return memoryContext.getBytes();
    }

    long readBytes()
    {
        return dataSource.getReadBytes();
    }

    long readTimeNanos()
    {
        return dataSource.getReadTimeNanos();
    }

    @Override
    public void close()
    {
        try {
            reader.close();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to close data file " + location, e);
        }
    }

    private static Optional<DataField> field(TableSchema schema, int fieldId)
    {
        return schema.fields().stream()
                .filter(field -> field.id() == fieldId)
                .findFirst();
    }

    private TrinoException badData(String message)
    {
        return new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: %s".formatted(location, message));
    }
}
