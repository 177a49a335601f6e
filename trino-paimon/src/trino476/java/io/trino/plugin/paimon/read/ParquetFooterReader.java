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
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.reader.MetadataReader;

import java.io.IOException;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Reads a Parquet data file's footer. Trino 476's Parquet reader has no footer cache: every open reads the footer
 * from the file, and {@code paimon.parquet-footer-cache.max-size} is accepted but unused.
 */
public final class ParquetFooterReader
{
    public static final ParquetFooterReader UNCACHED = new ParquetFooterReader(0);

    public ParquetFooterReader(long maxBytes)
    {
        checkArgument(maxBytes >= 0, "maxBytes is negative: %s", maxBytes);
    }

    ParquetMetadata read(ParquetDataSource dataSource, ParquetReaderOptions options, Location location, long fileSize)
            throws IOException
    {
        return MetadataReader.readFooter(dataSource, Optional.empty());
    }
}
