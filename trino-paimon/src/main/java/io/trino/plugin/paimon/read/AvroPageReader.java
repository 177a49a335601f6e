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

import com.google.common.collect.ImmutableSet;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputStream;
import io.trino.plugin.paimon.format.avro.AvroFiles;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.Type;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileStream;
import org.roaringbitmap.RoaringBitmap;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Reads one Avro data file (an object container file with Paimon's record schema, paimon-format.md §7.3) into pages,
 * record after record through {@link AvroRecordDecoder}, streaming block by block. Avro files have no statistics to
 * prune by: every record is decoded, and the whole file counts as one row group. A record's position in the file is
 * its row number for the deletion vector.
 */
final class AvroPageReader
        implements DataFilePageReader
{
    private static final int MAX_PAGE_ROWS = 4096;
    private static final long MAX_PAGE_BYTES = 1024 * 1024;
    // the Avro codecs whose decoders the plugin carries (bzip2 through commons-compress)
    private static final Set<String> READABLE_CODECS = ImmutableSet.of("null", "deflate", "snappy", "zstandard", "bzip2");

    private final Location location;
    private final TrinoInputStream input;
    private final DataFileStream<Void> stream;
    private final AvroRecordDecoder decoder;
    private final List<Type> readTypes;
    private final DataFileChannels channels;
    private final Block[] missingColumns;
    private final int[] readerChannels;
    private final Optional<RoaringBitmap> deletedRows;
    private long rowNumber;
    private long readTimeNanos;
    private long readBytes;
    private long retainedBytes;

    AvroPageReader(TrinoFileSystem fileSystem, Location location, PaimonDataFile file, DataFileChannels channels)
    {
        this.location = requireNonNull(location, "location is null");
        this.channels = requireNonNull(channels, "channels is null");
        this.deletedRows = file.deletionVector().map(reference -> DeletionVectors.read(fileSystem, reference));
        int channelCount = channels.size();
        this.missingColumns = new Block[channelCount];
        this.readerChannels = new int[channelCount];
        List<String> readNames = new ArrayList<>();
        this.readTypes = new ArrayList<>();
        Map<String, Integer> readChannelOfName = new HashMap<>();
        for (int channel = 0; channel < channelCount; channel++) {
            DataFileChannels.Channel column = channels.get(channel);
            if (column.fileName().isEmpty()) {
                readerChannels[channel] = -1;
                continue;
            }
            String name = column.fileName().get();
            Integer existing = readChannelOfName.get(name);
            if (existing != null && readTypes.get(existing).equals(column.type())) {
                readerChannels[channel] = existing;
                continue;
            }
            readerChannels[channel] = readNames.size();
            readChannelOfName.put(name, readNames.size());
            readNames.add(name);
            readTypes.add(column.type());
        }
        this.decoder = new AvroRecordDecoder(location, readNames, readTypes);
        TrinoInputStream opened = null;
        try {
            opened = fileSystem.newInputFile(location, file.fileSize()).newStream();
            this.input = opened;
            // reads the header: the writer schema builds the decoder's tree
            this.stream = AvroFiles.openStream(input, decoder);
            // Avro knows xz, but its decoder (org.tukaani:xz) is not in the plugin: fail on opening, naming it
            String codec = stream.getMetaString("avro.codec");
            if (codec != null && !READABLE_CODECS.contains(codec)) {
                throw DataFilePageReader.badData(location, "compressed with %s, which the connector cannot decompress (the plugin has no %s decoder)".formatted(codec, codec));
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // the file was there when the query planned: its snapshot expired, or the file was removed, meanwhile
            throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file is missing: %s (its snapshot may have expired while the query ran)".formatted(location), e);
        }
        catch (IOException | AvroRuntimeException e) {
            closeQuietly(opened, e);
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to open Paimon data file %s: %s".formatted(location, e.getMessage()), e);
        }
        catch (TrinoException e) {
            closeQuietly(opened, e);
            throw e;
        }
        // a column the file lacks reads as nulls, unless the file must have it
        for (int channel = 0; channel < channelCount; channel++) {
            DataFileChannels.Channel column = channels.get(channel);
            if (readerChannels[channel] >= 0 && !decoder.hasField(column.fileName().get())) {
                if (column.required()) {
                    throw DataFilePageReader.badData(location, "column %s is missing".formatted(column.fileName().get()));
                }
                readerChannels[channel] = -1;
            }
            if (readerChannels[channel] < 0) {
                missingColumns[channel] = RunLengthEncodedBlock.create(column.type(), null, 1);
            }
        }
    }

    @Override
    public Page nextPage()
    {
        long start = System.nanoTime();
        try {
            while (true) {
                Page page = readPage();
                if (page == null) {
                    return null;
                }
                if (deletedRows.isEmpty()) {
                    return page;
                }
                long firstRow = rowNumber - page.getPositionCount();
                page = DeletionVectors.withoutDeletedRows(page, deletedRows.get(), position -> firstRow + position);
                if (page.getPositionCount() > 0) {
                    return page;
                }
            }
        }
        finally {
            readTimeNanos += System.nanoTime() - start;
        }
    }

    private Page readPage()
    {
        BlockBuilder[] builders = new BlockBuilder[readTypes.size()];
        for (int i = 0; i < builders.length; i++) {
            builders[i] = readTypes.get(i).createBlockBuilder(null, MAX_PAGE_ROWS);
        }
        decoder.setBuilders(builders);
        int rows = 0;
        try {
            while (rows < MAX_PAGE_ROWS && stream.hasNext()) {
                stream.next();
                rows++;
                if (rows % 64 == 0 && sizeInBytes(builders) > MAX_PAGE_BYTES) {
                    break;
                }
            }
            readBytes = input.getPosition();
        }
        catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, e.getMessage()), e);
        }
        if (rows == 0) {
            return null;
        }
        rowNumber += rows;
        Block[] blocks = new Block[channels.size()];
        Block[] built = new Block[builders.length];
        retainedBytes = 0;
        for (int i = 0; i < builders.length; i++) {
            built[i] = builders[i].build();
            retainedBytes += built[i].getRetainedSizeInBytes();
        }
        for (int channel = 0; channel < blocks.length; channel++) {
            blocks[channel] = readerChannels[channel] < 0
                    ? RunLengthEncodedBlock.create(missingColumns[channel], rows)
                    : built[readerChannels[channel]];
        }
        return new Page(rows, blocks);
    }

    private static void closeQuietly(TrinoInputStream input, Exception failure)
    {
        if (input == null) {
            return;
        }
        try {
            input.close();
        }
        catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    private static long sizeInBytes(BlockBuilder[] builders)
    {
        long bytes = 0;
        for (BlockBuilder builder : builders) {
            bytes += builder.getSizeInBytes();
        }
        return bytes;
    }

    @Override
    public int rowGroupCount()
    {
        return 1;
    }

    @Override
    public int rowGroupsRead()
    {
        return 1;
    }

    @Override
    public long memoryUsage()
    {
        return retainedBytes;
    }

    @Override
    public long readBytes()
    {
        return readBytes;
    }

    @Override
    public long readTimeNanos()
    {
        return readTimeNanos;
    }

    @Override
    public void close()
    {
        try {
            stream.close();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to close data file " + location, e);
        }
    }
}
