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
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.SourcePage;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.ObjLongConsumer;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A column read after the reader returned its page fails, when the file went away meanwhile, as Trino's local file
 * system reports it (an {@link EOFException} from a file read as empty): named, with the file and the likely cause.
 */
final class TestDataFileSourcePage
{
    private static final Location FILE = Location.of("local:///warehouse/s.db/t/bucket-0/data-1.parquet");

    @Test
    void aFileGoneUnderALazyReadIsNamed()
    {
        SourcePage page = new DataFileSourcePage(new FailingPage(new UncheckedIOException(new EOFException("Cannot read at 174. File size is 0: " + FILE))), FILE);
        assertTrinoExceptionThrownBy(() -> page.getBlock(0))
                .hasErrorCode(PAIMON_BAD_DATA)
                .hasMessage("Paimon data file is missing or shorter than its manifest says: %s (its snapshot may have expired while the query ran)".formatted(FILE));
        assertTrinoExceptionThrownBy(page::getPage)
                .hasErrorCode(PAIMON_BAD_DATA)
                .hasMessageContaining("its snapshot may have expired");
    }

    @Test
    void otherReadFailuresNameTheFile()
    {
        SourcePage page = new DataFileSourcePage(new FailingPage(new UncheckedIOException(new IOException("disk on fire"))), FILE);
        assertTrinoExceptionThrownBy(() -> page.getBlock(0))
                .hasErrorCode(PAIMON_BAD_DATA)
                .hasMessage("Failed to read Paimon data file %s: disk on fire".formatted(FILE));
    }

    @Test
    void readableColumnsPassThrough()
    {
        BlockBuilder builder = INTEGER.createFixedSizeBlockBuilder(1);
        INTEGER.writeInt(builder, 7);
        Block block = builder.build();
        SourcePage page = new DataFileSourcePage(SourcePage.create(new Page(block)), FILE);
        assertThat(page.getPositionCount()).isEqualTo(1);
        assertThat(INTEGER.getInt(page.getBlock(0), 0)).isEqualTo(7);
    }

    private record FailingPage(UncheckedIOException failure)
            implements SourcePage
    {
        @Override
        public int getPositionCount()
        {
            return 1;
        }

        @Override
        public long getSizeInBytes()
        {
            return 0;
        }

        @Override
        public long getRetainedSizeInBytes()
        {
            return 0;
        }

        @Override
        public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer) {}

        @Override
        public int getChannelCount()
        {
            return 1;
        }

        @Override
        public Block getBlock(int channel)
        {
            throw failure;
        }

        @Override
        public Page getPage()
        {
            throw failure;
        }

        @Override
        public void selectPositions(int[] positions, int offset, int size) {}
    }
}
