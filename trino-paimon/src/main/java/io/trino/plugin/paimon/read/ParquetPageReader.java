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

import com.google.common.collect.Sets;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.Column;
import io.trino.parquet.Field;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.io.ColumnIO;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.PrimitiveColumnIO;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;
import org.roaringbitmap.RoaringBitmap;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.base.Preconditions.checkState;
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
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * Reads one Parquet data file into pages. Columns are found by name (the name {@link DataFileChannels} took from
 * the file's schema by field id), as Paimon's own Parquet reader finds them. Row groups and pages whose statistics
 * (column chunk statistics, dictionaries, column index) miss the channels' domains are skipped: those rows are never
 * read.
 */
final class ParquetPageReader
        implements DataFilePageReader
{
    // Trino's default for simplifying large IN lists before they are checked against bloom filters
    private static final int DOMAIN_COMPACTION_THRESHOLD = 1000;
    // Trino 476's Parquet reader decompresses these; LZ4_RAW is decompressed here (Lz4RawColumnChunks)
    private static final Set<CompressionCodec> READABLE_CODECS = Sets.immutableEnumSet(
            CompressionCodec.UNCOMPRESSED,
            CompressionCodec.SNAPPY,
            CompressionCodec.GZIP,
            CompressionCodec.LZO,
            CompressionCodec.LZ4,
            CompressionCodec.ZSTD,
            CompressionCodec.LZ4_RAW);

    private final Location location;
    private final ParquetFileDataSource dataSource;
    // what Trino's reader is built from, on the first page: then columns a second pass alone reads can be left out
    private final List<RowGroupInfo> readerRowGroups;
    private final Optional<TupleDomainParquetPredicate> predicate;
    private ParquetReader reader;
    // per channel, its block in the reader's pages, or -1 (a column the file lacks, or one the reader leaves out)
    private int[] pageChannels;
    // per column, whether only a second pass reads it (rowRangeReader): the reader's pages leave it out
    private final boolean[] readAtRowsOnly;
    private final AggregatedMemoryContext memoryContext;
    private final int channelCount;
    // per channel, a null of its type: a column the file lacks reads as nulls
    private final Block[] nulls;
    private final int[] readerChannels;
    private final Optional<RoaringBitmap> deletedRows;
    private final int rowGroupCount;
    private final int rowGroupsRead;
    // what a second pass needs to read columns at chosen rows (see rowRangeReader)
    private final List<BlockMetadata> fileRowGroups;
    private final Optional<String> createdBy;
    private final List<Column> columns;
    private final ParquetReaderOptions options;
    private final List<Type> channelTypes;
    private SourcePage currentPage;
    private Block currentRowNumbers;

    ParquetPageReader(
            TrinoFileSystem fileSystem,
            Location location,
            PaimonDataFile file,
            DataFileChannels channels,
            ParquetReaderOptions options,
            ParquetFooterReader footers)
    {
        this.location = requireNonNull(location, "location is null");
        this.memoryContext = newSimpleAggregatedMemoryContext();
        this.deletedRows = file.deletionVector().map(reference -> DeletionVectors.read(fileSystem, reference));
        try {
            this.dataSource = new ParquetFileDataSource(fileSystem.newInputFile(location, file.fileSize()), file.fileSize(), options);
            ParquetMetadata metadata = footers.read(dataSource, options, location, file.fileSize());
            MessageType fileType = metadata.getFileMetaData().getSchema();
            MessageColumnIO messageColumnIO = getColumnIO(fileType, fileType);

            this.channelCount = channels.size();
            this.nulls = new Block[channelCount];
            this.readerChannels = new int[channelCount];
            List<Column> columns = new ArrayList<>();
            List<Type> channelTypes = new ArrayList<>();
            Map<ColumnDescriptor, Domain> parquetDomains = new HashMap<>();
            Map<String, Integer> readChannelOfName = new HashMap<>();
            Set<String> readColumns = new HashSet<>();
            for (int channel = 0; channel < channelCount; channel++) {
                DataFileChannels.Channel column = channels.get(channel);
                // a column the file lacks reads as nulls, and so does a deferred channel until it is read
                nulls[channel] = RunLengthEncodedBlock.create(column.type(), null, 1);
                channelTypes.add(column.type());
                String name = column.fileName().orElse(null);
                ColumnIO columnIO = name == null ? null : lookupColumnByName(messageColumnIO, name);
                if (columnIO == null) {
                    if (column.required()) {
                        throw badData("column %s is missing".formatted(name));
                    }
                    readerChannels[channel] = -1;
                    continue;
                }
                Type type = column.type();
                // Trino's Parquet reader names columns in lower case
                readColumns.add(columnIO.getName().toLowerCase(ENGLISH));
                // a key channel and a value channel of the same field read one column
                Integer existing = readChannelOfName.get(columnIO.getName());
                if (existing != null && columns.get(existing).field().getType().equals(type)) {
                    readerChannels[channel] = existing;
                }
                else {
                    Field field = constructField(type, columnIO)
                            .orElseThrow(() -> badData("column %s cannot be read as %s".formatted(name, type)));
                    readerChannels[channel] = columns.size();
                    readChannelOfName.put(columnIO.getName(), columns.size());
                    columns.add(new Column(name, field));
                }
                if (columnIO instanceof PrimitiveColumnIO primitive && column.domain().isPresent() && !column.domain().get().isAll()) {
                    parquetDomains.merge(primitive.getColumnDescriptor(), column.domain().get(), Domain::intersect);
                }
            }

            checkCodecs(metadata.getParquetMetadata(), readColumns);
            Optional<Lz4RawColumnChunks.Moved> moved = Lz4RawColumnChunks.move(dataSource, location, metadata.getParquetMetadata(), readColumns);
            if (moved.isPresent()) {
                // Trino reads the LZ4_RAW chunks decompressed, at the addresses the moved footer gives them
                dataSource.serve(moved.get().chunks());
                metadata = ParquetReaders.footer(moved.get().footer(), dataSource.getId());
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
            this.fileRowGroups = List.copyOf(metadata.getBlocks());
            this.createdBy = Optional.ofNullable(metadata.getFileMetaData().getCreatedBy());
            this.columns = List.copyOf(columns);
            this.options = options;
            this.channelTypes = List.copyOf(channelTypes);
            this.rowGroupsRead = rowGroups.size();
            this.readerRowGroups = List.copyOf(rowGroups);
            this.predicate = predicate;
            this.readAtRowsOnly = new boolean[columns.size()];
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // the file was there when the query planned: its snapshot expired, or the file was removed, meanwhile
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file is missing: %s (its snapshot may have expired while the query ran)".formatted(location), e);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to open Paimon data file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    @Override
    public Page nextPage()
    {
        return nextPage(null);
    }

    // Trino's reader of the columns pages need: it plans the reads of all its column chunks at once, and a chunk
    // it plans is fetched with its neighbours, decoded or not; a column only a second pass reads would be fetched twice
    private ParquetReader reader()
    {
        if (reader != null) {
            return reader;
        }
        int[] readerColumn = new int[columns.size()];
        List<Column> readerColumns = new ArrayList<>();
        for (int column = 0; column < columns.size(); column++) {
            readerColumn[column] = readAtRowsOnly[column] ? -1 : readerColumns.size();
            if (!readAtRowsOnly[column]) {
                readerColumns.add(columns.get(column));
            }
        }
        pageChannels = new int[channelCount];
        for (int channel = 0; channel < channelCount; channel++) {
            pageChannels[channel] = readerChannels[channel] < 0 ? -1 : readerColumn[readerChannels[channel]];
        }
        try {
            reader = ParquetReaders.reader(
                    createdBy,
                    readerColumns,
                    // each page's row numbers are there for the asking: the deletion vector and a second pass use them
                    true,
                    readerRowGroups,
                    dataSource,
                    DateTimeZone.UTC,
                    memoryContext,
                    options,
                    exception -> new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, exception.getMessage()), exception),
                    predicate);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to open Paimon data file %s: %s".formatted(location, e.getMessage()), e);
        }
        return reader;
    }

    @Override
    public ChannelsOfSourcePage nextSourcePage()
    {
        if (!nextReaderPage()) {
            return null;
        }
        return new ChannelsOfSourcePage(currentPage, pageChannels, nulls);
    }

    @Override
    public Page nextPage(boolean[] deferred)
    {
        if (!nextReaderPage()) {
            return null;
        }
        int positions = currentPage.getPositionCount();
        Block[] blocks = new Block[channelCount];
        for (int channel = 0; channel < channelCount; channel++) {
            if (readerChannels[channel] < 0 || (deferred != null && channel < deferred.length && deferred[channel])) {
                blocks[channel] = RunLengthEncodedBlock.create(nulls[channel], positions);
            }
            else {
                checkState(pageChannels[channel] >= 0, "channel %s is read at chosen rows only: %s", channel, location);
                blocks[channel] = currentPage.getBlock(pageChannels[channel]);
            }
        }
        return new Page(positions, blocks);
    }

    // moves the reader to its next page with rows the deletion vector keeps, its columns unread; false at the end
    private boolean nextReaderPage()
    {
        while (true) {
            SourcePage read;
            try {
                read = reader().nextPage();
            }
            catch (IOException e) {
                throw DataFileSourcePage.readFailure(location, e);
            }
            if (read == null) {
                currentPage = null;
                return false;
            }
            currentPage = new DataFileSourcePage(read, location);
            int positions = currentPage.getPositionCount();
            currentRowNumbers = null;
            if (deletedRows.isPresent()) {
                // the reader appended each row's position in the file; the rows kept are selected before any column
                // is read, so deferred channels are read for those rows only
                Block rowNumbers = currentPage.getBlock(currentPage.getChannelCount() - 1);
                int[] kept = new int[positions];
                int keptCount = DeletionVectors.keptPositions(positions, deletedRows.get(), position -> BIGINT.getLong(rowNumbers, position), kept);
                if (keptCount == 0) {
                    continue;
                }
                if (keptCount < positions) {
                    currentPage.selectPositions(kept, 0, keptCount);
                }
            }
            return true;
        }
    }

    @Override
    public Block rowNumbers()
    {
        if (currentRowNumbers == null) {
            currentRowNumbers = currentPage.getBlock(currentPage.getChannelCount() - 1);
        }
        return currentRowNumbers;
    }

    @Override
    public Optional<ParquetRowRangeReader> rowRangeReader(int[] channels, boolean[] unreadByPages)
    {
        checkState(reader == null, "a page was read before the row range reader was asked for: %s", location);
        List<Optional<Field>> fields = new ArrayList<>(channels.length);
        List<Type> types = new ArrayList<>(channels.length);
        for (int channel : channels) {
            types.add(channelTypes.get(channel));
            if (readerChannels[channel] < 0) {
                fields.add(Optional.empty());
                continue;
            }
            Column column = columns.get(readerChannels[channel]);
            if (!ParquetRowRangeReader.readableAtRows(column.field())) {
                // a shape no Paimon writer gives a file (see readableAtRows): the two passes were chosen by the table's types
                throw badData("column %s has a nested shape the two-pass merge read cannot read at chosen rows; session property two_pass_merge_read_enabled = false reads it".formatted(column.name()));
            }
            fields.add(Optional.of(column.field()));
        }
        // a column whose every channel pages leave unread is left out of them
        boolean[] readByPages = new boolean[columns.size()];
        for (int channel = 0; channel < channelCount; channel++) {
            if (readerChannels[channel] >= 0 && !(channel < unreadByPages.length && unreadByPages[channel])) {
                readByPages[readerChannels[channel]] = true;
            }
        }
        for (int column = 0; column < columns.size(); column++) {
            readAtRowsOnly[column] = !readByPages[column];
        }
        return Optional.of(new ParquetRowRangeReader(dataSource, fileRowGroups, createdBy, fields, types, options));
    }

    @Override
    public int rowGroupCount()
    {
        return rowGroupCount;
    }

    @Override
    public int rowGroupsRead()
    {
        return rowGroupsRead;
    }

    @Override
    public long memoryUsage()
    {
        return memoryContext.getBytes();
    }

    @Override
    public long readBytes()
    {
        return dataSource.fileReadBytes();
    }

    @Override
    public long readTimeNanos()
    {
        return dataSource.getReadTimeNanos();
    }

    @Override
    public void close()
    {
        try {
            if (reader != null) {
                reader.close();
            }
            else {
                dataSource.close();
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to close data file " + location, e);
        }
    }

    // fails before any page is read, naming the codec, rather than on the first page with "Could not decompress page"
    private void checkCodecs(FileMetaData footer, Set<String> readColumns)
    {
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                ColumnMetaData metadata = chunk.getMeta_data();
                if (metadata != null && !READABLE_CODECS.contains(metadata.getCodec()) && readColumns.contains(metadata.getPath_in_schema().getFirst().toLowerCase(ENGLISH))) {
                    throw badData("column %s is compressed with %s, which the connector cannot decompress (Trino's Parquet reader has no %s decoder)".formatted(
                            String.join(".", metadata.getPath_in_schema()), metadata.getCodec(), metadata.getCodec()));
                }
            }
        }
    }

    private TrinoException badData(String message)
    {
        return DataFilePageReader.badData(location, message);
    }
}
