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
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.SourcePage;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.function.ObjLongConsumer;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static java.util.Objects.requireNonNull;

/**
 * A page of a file reader whose columns are read when asked for, after the reader returned it. A read then fails
 * with an unnamed {@link UncheckedIOException}; this names the file, and says when it is gone: another engine's
 * snapshot expiry may delete a data file while a query reads it, and a local file system then reads it as empty.
 */
final class DataFileSourcePage
        implements SourcePage
{
    private final SourcePage page;
    private final Location location;

    DataFileSourcePage(SourcePage page, Location location)
    {
        this.page = requireNonNull(page, "page is null");
        this.location = requireNonNull(location, "location is null");
    }

    @Override
    public int getPositionCount()
    {
        return page.getPositionCount();
    }

    @Override
    public long getSizeInBytes()
    {
        return page.getSizeInBytes();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return page.getRetainedSizeInBytes();
    }

    @Override
    public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer)
    {
        page.retainedBytesForEachPart(consumer);
    }

    @Override
    public int getChannelCount()
    {
        return page.getChannelCount();
    }

    @Override
    public Block getBlock(int channel)
    {
        return reading(() -> page.getBlock(channel));
    }

    @Override
    public Page getPage()
    {
        return reading(page::getPage);
    }

    @Override
    public void selectPositions(int[] positions, int offset, int size)
    {
        page.selectPositions(positions, offset, size);
    }

    private <T> T reading(Supplier<T> read)
    {
        try {
            return read.get();
        }
        catch (UncheckedIOException e) {
            throw readFailure(location, e.getCause());
        }
    }

    /** The error of a read of the data file that failed: missing (or read as empty: deleted under the read) or another failure. */
    static TrinoException readFailure(Location location, Exception cause)
    {
        if (cause instanceof FileNotFoundException || cause instanceof NoSuchFileException || cause instanceof EOFException) {
            return new TrinoException(PAIMON_BAD_DATA, "Paimon data file is missing or shorter than its manifest says: %s (its snapshot may have expired while the query ran)".formatted(location), cause);
        }
        return new TrinoException(PAIMON_BAD_DATA, "Failed to read Paimon data file %s: %s".formatted(location, cause.getMessage()), cause);
    }
}
