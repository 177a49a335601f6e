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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.orc.OrcColumn;
import io.trino.orc.OrcDataSource;
import io.trino.orc.OrcPredicate;
import io.trino.orc.OrcReader;
import io.trino.orc.OrcReaderOptions;
import io.trino.orc.OrcRecordReader;
import io.trino.orc.TupleDomainOrcPredicate;
import io.trino.orc.metadata.OrcType;
import io.trino.orc.metadata.StripeInformation;
import io.trino.orc.metadata.statistics.StripeStatistics;
import io.trino.plugin.paimon.read.OrcColumnConversion.SecondsTruncation;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.orc.OrcProto;
import org.joda.time.DateTimeZone;
import org.roaringbitmap.RoaringBitmap;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.orc.OrcReader.INITIAL_BATCH_SIZE;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * Reads one ORC data file into pages through Trino's ORC reader. Paimon writes ORC with the same column names and
 * order as Parquet (paimon-format.md §7.3) and no field ids the reader needs, so columns are found by the name
 * {@link DataFileChannels} took from the file's schema. Stripes and row groups (10,000 rows) whose statistics miss
 * the channels' domains are skipped. Columns the reader cannot return as their own type (TIME, an ORC int of
 * milliseconds; timestamps of precisions other than 3, 6 and 9; some timestamps before 1970) are read as another
 * and converted ({@link OrcColumnConversion}), also inside arrays, maps and rows.
 */
final class OrcPageReader
        implements DataFilePageReader
{
    // Trino's default for simplifying large IN lists before they are checked against the statistics
    private static final int DOMAIN_COMPACTION_THRESHOLD = 1000;
    private static final OrcReaderOptions OPTIONS = new OrcReaderOptions();

    private final Location location;
    private final OrcDataSource dataSource;
    // the source reading the file itself, whose bytes are the input (dataSource, unless it is an LzoOrcFile)
    private final OrcDataSource inputSource;
    private final OrcRecordReader reader;
    private final AggregatedMemoryContext memoryContext;
    private final DataFileChannels channels;
    private final Block[] missingColumns;
    private final int[] readerChannels;
    private final OrcColumnConversion[] conversions;
    private final Optional<RoaringBitmap> deletedRows;
    private final int stripeCount;
    private final int stripesRead;

    OrcPageReader(TrinoFileSystem fileSystem, Location location, PaimonDataFile file, DataFileChannels channels)
    {
        this.location = requireNonNull(location, "location is null");
        this.channels = requireNonNull(channels, "channels is null");
        this.memoryContext = newSimpleAggregatedMemoryContext();
        this.deletedRows = file.deletionVector().map(reference -> DeletionVectors.read(fileSystem, reference));
        int channelCount = channels.size();
        this.missingColumns = new Block[channelCount];
        this.readerChannels = new int[channelCount];
        this.conversions = new OrcColumnConversion[channelCount];
        try {
            OrcDataSource readSource = new OrcFileDataSource(fileSystem.newInputFile(location, file.fileSize()), file.fileSize(), OPTIONS);
            Optional<OrcReader> orcReader;
            try {
                orcReader = OrcReader.createOrcReader(readSource, OPTIONS);
            }
            catch (IllegalStateException e) {
                // Trino's ORC reader refuses the codecs it has no decoder for (LZO, BROTLI) as it reads the postscript,
                // and closes the file
                OrcDataSource fileSource = new OrcFileDataSource(fileSystem.newInputFile(location, file.fileSize()), file.fileSize(), OPTIONS);
                OrcProto.PostScript postScript = LzoOrcFile.postScript(fileSource, location);
                if (postScript.getCompression() != OrcProto.CompressionKind.LZO) {
                    fileSource.close();
                }
                switch (postScript.getCompression()) {
                    case LZO -> readSource = LzoOrcFile.open(fileSource, location, postScript, OPTIONS);
                    case NONE, ZLIB, SNAPPY, LZ4, ZSTD -> throw e;
                    default -> throw DataFilePageReader.badData(location, "compressed with %s, which the connector cannot decompress (Trino's ORC reader has no %s decoder)".formatted(postScript.getCompression(), postScript.getCompression()));
                }
                orcReader = OrcReader.createOrcReader(readSource, OPTIONS);
            }
            this.dataSource = readSource;
            this.inputSource = readSource instanceof LzoOrcFile lzoFile ? lzoFile.file() : readSource;
            if (orcReader.isEmpty()) {
                // a file of no bytes holds no rows
                this.reader = null;
                this.stripeCount = 0;
                this.stripesRead = 0;
                return;
            }
            SecondsTruncation truncation = SecondsTruncation.of(orcReader.get().getFooter());
            Map<String, OrcColumn> fileColumns = new HashMap<>();
            for (OrcColumn column : orcReader.get().getRootColumn().getNestedColumns()) {
                fileColumns.put(column.getColumnName(), column);
            }

            List<OrcColumn> readColumns = new ArrayList<>();
            List<Type> readTypes = new ArrayList<>();
            Map<String, Integer> readChannelOfName = new HashMap<>();
            TupleDomainOrcPredicate.TupleDomainOrcPredicateBuilder predicate = TupleDomainOrcPredicate.builder()
                    .setDomainCompactionThreshold(DOMAIN_COMPACTION_THRESHOLD);
            boolean hasDomain = false;
            for (int channel = 0; channel < channelCount; channel++) {
                DataFileChannels.Channel column = channels.get(channel);
                OrcColumn orcColumn = column.fileName().map(fileColumns::get).orElse(null);
                if (orcColumn == null) {
                    if (column.required()) {
                        throw DataFilePageReader.badData(location, "column %s is missing".formatted(column.fileName().orElseThrow()));
                    }
                    readerChannels[channel] = -1;
                    missingColumns[channel] = RunLengthEncodedBlock.create(column.type(), null, 1);
                    continue;
                }
                conversions[channel] = OrcColumnConversion.of(column.type(), truncation).orElse(null);
                Type type = conversions[channel] == null ? column.type() : conversions[channel].readType();
                Integer existing = readChannelOfName.get(orcColumn.getColumnName());
                if (existing != null && readTypes.get(existing).equals(type)) {
                    readerChannels[channel] = existing;
                }
                else {
                    readerChannels[channel] = readColumns.size();
                    readChannelOfName.put(orcColumn.getColumnName(), readColumns.size());
                    readColumns.add(readPart(orcColumn, type));
                    readTypes.add(type);
                }
                // statistics are checked against a domain of the type they are read as
                if (column.domain().isPresent() && !column.domain().get().isAll() && type.equals(column.type())) {
                    predicate.addColumn(orcColumn.getColumnId(), column.domain().get());
                    hasDomain = true;
                }
            }
            OrcPredicate orcPredicate = hasDomain ? predicate.build() : OrcPredicate.TRUE;

            List<StripeInformation> stripes = orcReader.get().getFooter().getStripes();
            List<Optional<StripeStatistics>> stripeStatistics = orcReader.get().getMetadata().getStripeStatsList();
            int matching = 0;
            for (int stripe = 0; stripe < stripes.size(); stripe++) {
                Optional<StripeStatistics> statistics = stripe < stripeStatistics.size() ? stripeStatistics.get(stripe) : Optional.empty();
                if (statistics.isEmpty() || orcPredicate.matches(stripes.get(stripe).getNumberOfRows(), statistics.get().getColumnStatistics())) {
                    matching++;
                }
            }
            this.stripeCount = stripes.size();
            this.stripesRead = matching;
            this.reader = orcReader.get().createRecordReader(
                    readColumns,
                    readTypes,
                    deletedRows.isPresent(),
                    orcPredicate,
                    DateTimeZone.UTC,
                    memoryContext,
                    INITIAL_BATCH_SIZE,
                    exception -> new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, exception.getMessage()), exception));
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // the file was there when the query planned: its snapshot expired, or the file was removed, meanwhile
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file is missing: %s (its snapshot may have expired while the query ran)".formatted(location), e);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to open Paimon data file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    /**
     * The part of a column that a read as {@code type} needs: a {@code ROW} read with fewer fields than the file's
     * struct has (a projection of nested fields) keeps only those fields, so that Trino's reader fetches the
     * streams of those alone. Fields are matched by name, ignoring case, as Trino's struct reader matches them.
     */
    private static OrcColumn readPart(OrcColumn column, Type type)
    {
        if (!(type instanceof RowType row) || column.getColumnType().getOrcTypeKind() != OrcType.OrcTypeKind.STRUCT) {
            return column;
        }
        Map<String, Type> fieldTypes = new HashMap<>();
        for (RowType.Field field : row.getFields()) {
            field.getName().ifPresent(name -> fieldTypes.put(name.toLowerCase(ENGLISH), field.getType()));
        }
        List<OrcColumn> nested = new ArrayList<>();
        boolean pruned = false;
        for (OrcColumn field : column.getNestedColumns()) {
            Type fieldType = fieldTypes.get(field.getColumnName().toLowerCase(ENGLISH));
            if (fieldType == null) {
                pruned = true;
                continue;
            }
            OrcColumn part = readPart(field, fieldType);
            pruned |= part != field;
            nested.add(part);
        }
        if (!pruned) {
            return column;
        }
        return new OrcColumn(column.getPath(), column.getColumnId(), column.getColumnName(), column.getColumnType(), column.getOrcDataSourceId(), nested, column.getAttributes());
    }

    @Override
    public Page nextPage()
    {
        if (reader == null) {
            return null;
        }
        while (true) {
            SourcePage sourcePage;
            try {
                sourcePage = reader.nextPage();
            }
            catch (IOException e) {
                throw DataFileSourcePage.readFailure(location, e);
            }
            if (sourcePage == null) {
                return null;
            }
            sourcePage = new DataFileSourcePage(sourcePage, location);
            int positions = sourcePage.getPositionCount();
            Block[] blocks = new Block[channels.size()];
            for (int channel = 0; channel < blocks.length; channel++) {
                if (readerChannels[channel] < 0) {
                    blocks[channel] = RunLengthEncodedBlock.create(missingColumns[channel], positions);
                }
                else {
                    Block block = sourcePage.getBlock(readerChannels[channel]);
                    blocks[channel] = conversions[channel] == null ? block : conversions[channel].convert(block);
                }
            }
            Page page = new Page(positions, blocks);
            if (deletedRows.isEmpty()) {
                return page;
            }
            // the reader appended each row's position in the file
            Block rowNumbers = sourcePage.getBlock(sourcePage.getChannelCount() - 1);
            page = DeletionVectors.withoutDeletedRows(page, deletedRows.get(), position -> BIGINT.getLong(rowNumbers, position));
            if (page.getPositionCount() > 0) {
                return page;
            }
        }
    }

    @Override
    public int rowGroupCount()
    {
        return stripeCount;
    }

    @Override
    public int rowGroupsRead()
    {
        return stripesRead;
    }

    @Override
    public long memoryUsage()
    {
        return memoryContext.getBytes();
    }

    @Override
    public long readBytes()
    {
        return inputSource.getReadBytes();
    }

    @Override
    public long readTimeNanos()
    {
        return inputSource.getReadTimeNanos();
    }

    @Override
    public void close()
    {
        try {
            // the record reader closes its data source
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
}
