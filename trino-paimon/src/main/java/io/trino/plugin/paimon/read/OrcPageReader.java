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
import io.trino.orc.metadata.StripeInformation;
import io.trino.orc.metadata.statistics.StripeStatistics;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
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
import static io.trino.spi.type.IntegerType.INTEGER;
import static java.util.Objects.requireNonNull;

/**
 * Reads one ORC data file into pages through Trino's ORC reader. Paimon writes ORC with the same column names and
 * order as Parquet (paimon-format.md §7.3) and no field ids the reader needs, so columns are found by the name
 * {@link DataFileChannels} took from the file's schema. Stripes and row groups (10,000 rows) whose statistics miss
 * the channels' domains are skipped. TIME is stored as an ORC int of milliseconds of the day, also inside arrays, maps
 * and rows, which Trino's reader does not read as TIME: it is read as an integer and converted here.
 */
final class OrcPageReader
        implements DataFilePageReader
{
    // Trino's default for simplifying large IN lists before they are checked against the statistics
    private static final int DOMAIN_COMPACTION_THRESHOLD = 1000;
    private static final long PICOSECONDS_PER_MILLISECOND = 1_000_000_000L;
    private static final OrcReaderOptions OPTIONS = new OrcReaderOptions();
    private static final TypeOperators TYPE_OPERATORS = new TypeOperators();

    private final Location location;
    private final OrcDataSource dataSource;
    private final OrcRecordReader reader;
    private final AggregatedMemoryContext memoryContext;
    private final DataFileChannels channels;
    private final Block[] missingColumns;
    private final int[] readerChannels;
    private final boolean[] timeOfDayMillis;
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
        this.timeOfDayMillis = new boolean[channelCount];
        try {
            this.dataSource = new OrcFileDataSource(fileSystem.newInputFile(location, file.fileSize()), file.fileSize(), OPTIONS);
            Optional<OrcReader> orcReader = OrcReader.createOrcReader(dataSource, OPTIONS);
            if (orcReader.isEmpty()) {
                // a file of no bytes holds no rows
                this.reader = null;
                this.stripeCount = 0;
                this.stripesRead = 0;
                return;
            }
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
                Type type = column.type();
                if (containsTime(type)) {
                    timeOfDayMillis[channel] = true;
                    type = timeAsInteger(type);
                }
                Integer existing = readChannelOfName.get(orcColumn.getColumnName());
                if (existing != null && readTypes.get(existing).equals(type)) {
                    readerChannels[channel] = existing;
                }
                else {
                    readerChannels[channel] = readColumns.size();
                    readChannelOfName.put(orcColumn.getColumnName(), readColumns.size());
                    readColumns.add(orcColumn);
                    readTypes.add(type);
                }
                if (column.domain().isPresent() && !column.domain().get().isAll() && !timeOfDayMillis[channel]) {
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
                throw new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, e.getMessage()), e);
            }
            if (sourcePage == null) {
                return null;
            }
            int positions = sourcePage.getPositionCount();
            Block[] blocks = new Block[channels.size()];
            for (int channel = 0; channel < blocks.length; channel++) {
                if (readerChannels[channel] < 0) {
                    blocks[channel] = RunLengthEncodedBlock.create(missingColumns[channel], positions);
                }
                else {
                    Block block = sourcePage.getBlock(readerChannels[channel]);
                    blocks[channel] = timeOfDayMillis[channel] ? withTime(channels.get(channel).type(), block) : block;
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
        return dataSource.getReadBytes();
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

    // the values of a type holding TIME, read with each TIME as an INTEGER of milliseconds (timeAsInteger)
    private static Block withTime(Type type, Block read)
    {
        if (type instanceof TimeType time) {
            return toTime(time, read);
        }
        Type readType = timeAsInteger(type);
        int positions = read.getPositionCount();
        BlockBuilder builder = type.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            appendWithTime(type, readType, read, position, builder);
        }
        return builder.build();
    }

    private static void appendWithTime(Type type, Type readType, Block read, int position, BlockBuilder out)
    {
        if (read.isNull(position)) {
            out.appendNull();
            return;
        }
        switch (type) {
            case TimeType time -> time.writeLong(out, INTEGER.getInt(read, position) * PICOSECONDS_PER_MILLISECOND);
            case ArrayType array -> {
                Type readElement = ((ArrayType) readType).getElementType();
                Block elements = ((ArrayType) readType).getObject(read, position);
                ((ArrayBlockBuilder) out).buildEntry(elementBuilder -> {
                    for (int i = 0; i < elements.getPositionCount(); i++) {
                        appendWithTime(array.getElementType(), readElement, elements, i, elementBuilder);
                    }
                });
            }
            case MapType map -> {
                MapType readMap = (MapType) readType;
                SqlMap entries = readMap.getObject(read, position);
                int offset = entries.getRawOffset();
                ((MapBlockBuilder) out).buildEntry((keyBuilder, valueBuilder) -> {
                    for (int i = 0; i < entries.getSize(); i++) {
                        appendWithTime(map.getKeyType(), readMap.getKeyType(), entries.getRawKeyBlock(), offset + i, keyBuilder);
                        appendWithTime(map.getValueType(), readMap.getValueType(), entries.getRawValueBlock(), offset + i, valueBuilder);
                    }
                });
            }
            case RowType row -> {
                RowType readRow = (RowType) readType;
                SqlRow fields = readRow.getObject(read, position);
                int index = fields.getRawIndex();
                ((RowBlockBuilder) out).buildEntry(fieldBuilders -> {
                    for (int i = 0; i < fields.getFieldCount(); i++) {
                        appendWithTime(row.getFields().get(i).getType(), readRow.getFields().get(i).getType(), fields.getRawFieldBlock(i), index, fieldBuilders.get(i));
                    }
                });
            }
            default -> type.appendTo(read, position, out);
        }
    }

    private static Block toTime(TimeType type, Block millisOfDay)
    {
        int positions = millisOfDay.getPositionCount();
        BlockBuilder builder = type.createBlockBuilder(null, positions);
        for (int position = 0; position < positions; position++) {
            if (millisOfDay.isNull(position)) {
                builder.appendNull();
            }
            else {
                type.writeLong(builder, INTEGER.getInt(millisOfDay, position) * PICOSECONDS_PER_MILLISECOND);
            }
        }
        return builder.build();
    }

    // the type with each TIME, however deep, replaced by the INTEGER of milliseconds Paimon stores it as in ORC
    private static Type timeAsInteger(Type type)
    {
        return switch (type) {
            case TimeType _ -> INTEGER;
            case ArrayType array -> new ArrayType(timeAsInteger(array.getElementType()));
            case MapType map -> new MapType(timeAsInteger(map.getKeyType()), timeAsInteger(map.getValueType()), TYPE_OPERATORS);
            case RowType row -> RowType.from(row.getFields().stream()
                    .map(field -> new RowType.Field(field.getName(), timeAsInteger(field.getType())))
                    .toList());
            default -> type;
        };
    }

    private static boolean containsTime(Type type)
    {
        return switch (type) {
            case TimeType _ -> true;
            case ArrayType array -> containsTime(array.getElementType());
            case MapType map -> containsTime(map.getKeyType()) || containsTime(map.getValueType());
            case RowType row -> row.getFields().stream().anyMatch(field -> containsTime(field.getType()));
            default -> false;
        };
    }
}
