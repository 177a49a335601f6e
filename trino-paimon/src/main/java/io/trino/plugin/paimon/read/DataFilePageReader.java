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
import io.trino.parquet.ParquetReaderOptions;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;

import java.io.Closeable;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;

/**
 * One Paimon data file read into pages with every block loaded, whatever its format: for key-value files the trimmed
 * key fields (read from the table columns, see {@link DataFileChannels}), {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND},
 * then the value columns asked for;
 * for append files only the value columns (see {@link DataFileChannels}). Rows the file's deletion vector marks are
 * already dropped. This is all the merge core sees of a file. A file read straight through, with no merge, may give
 * its pages unread instead ({@link #nextSourcePage()}).
 */
interface DataFilePageReader
        extends Closeable
{
    String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
    String VALUE_KIND = "_VALUE_KIND";

    /**
     * Opens a file with the reader of its format, told by the file's own extension and not by the table's
     * {@code file.format}: with {@code file.format.per.level} one bucket holds files of several formats, and a table
     * whose format was changed keeps its older files (paimon-format.md §7.3).
     */
    static DataFilePageReader open(
            TrinoFileSystem fileSystem,
            PaimonDataFile file,
            TableSchema fileSchema,
            List<ReadColumn> keyColumns,
            boolean keyValueFile,
            List<ReadColumn> valueColumns,
            RowGroupDomains domains,
            ParquetReaderOptions parquetOptions,
            ParquetFooterReader parquetFooters)
    {
        Location location = Location.of(file.path());
        DataFileChannels channels = DataFileChannels.of(location, fileSchema, keyColumns, keyValueFile, valueColumns, domains);
        return switch (DataFileFormat.of(location)) {
            case PARQUET -> new ParquetPageReader(fileSystem, location, file, channels, parquetOptions, parquetFooters);
            case ORC -> new OrcPageReader(fileSystem, location, file, channels);
            case AVRO -> new AvroPageReader(fileSystem, location, file, channels);
        };
    }

    /** The next page, or null at the end of the file; a page may have no rows. */
    Page nextPage();

    /**
     * The next page as {@link #nextPage()} gives it, with each channel read only when the engine asks for its block
     * (after its filters chose the rows, for a reader that can defer): for a run read straight through, whose pages
     * go to the engine as they are; null at the end of the file.
     */
    default ChannelsOfSourcePage nextSourcePage()
    {
        Page page = nextPage();
        return page == null ? null : ChannelsOfSourcePage.of(page);
    }

    /**
     * The next page as {@link #nextPage()} gives it, except that the channels marked in {@code deferred} may be left
     * unread, with nulls standing in for them: the first pass of a two-pass merge reads keys only and the values of
     * the rows it returns in its second pass. Channels past the end of {@code deferred} are read at once, and so are
     * all channels of a reader that cannot read chosen rows ({@link #rowRangeReader}).
     */
    default Page nextPage(boolean[] deferred)
    {
        return nextPage();
    }

    /**
     * The position in the file of each row of the page last returned by {@link #nextPage(boolean[])} (rows its
     * deletion vector drops are not there, and neither are rows that statistics skipped): a {@code BIGINT} block.
     * Only readers that give a {@link #rowRangeReader} have them.
     */
    default Block rowNumbers()
    {
        throw new UnsupportedOperationException("row numbers are not tracked");
    }

    /**
     * A reader of {@code channels} at chosen rows of the file, for the second pass of a two-pass merge; it stays
     * usable until this reader is closed. Empty where the format or a channel's type cannot be read so. Asked for
     * before the first page: the channels marked in {@code unreadByPages} are never read by {@link #nextPage} (they
     * are always deferred and never loaded), so their columns need not be fetched for pages.
     */
    default Optional<ParquetRowRangeReader> rowRangeReader(int[] channels, boolean[] unreadByPages)
    {
        return Optional.empty();
    }

    /** Row groups (Parquet) or stripes (ORC) of the file, and those left to read after pruning; an Avro file counts as one. */
    int rowGroupCount();

    int rowGroupsRead();

    long memoryUsage();

    long readBytes();

    long readTimeNanos();

    @Override
    void close();

    static TrinoException badData(Location location, String message)
    {
        return new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: %s".formatted(location, message));
    }
}
