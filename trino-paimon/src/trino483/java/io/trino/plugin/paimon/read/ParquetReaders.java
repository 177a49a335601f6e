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

import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.parquet.reader.PageReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A file's footer and its reader, as Trino 483's Parquet reader builds them, for files without Parquet modular encryption (Paimon
 * writes none).
 */
final class ParquetReaders
{
    private ParquetReaders() {}

    static ParquetMetadata footer(FileMetaData fileMetaData, ParquetDataSourceId dataSourceId)
            throws ParquetCorruptionException
    {
        return new ParquetMetadata(fileMetaData, dataSourceId, Optional.empty());
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    static ParquetReader reader(
            Optional<String> createdBy,
            List<Column> columns,
            boolean appendRowNumberColumn,
            List<RowGroupInfo> rowGroups,
            ParquetDataSource dataSource,
            DateTimeZone timeZone,
            AggregatedMemoryContext memoryContext,
            ParquetReaderOptions options,
            Function<Exception, RuntimeException> exceptionTransform,
            Optional<TupleDomainParquetPredicate> predicate)
            throws IOException
    {
        return new ParquetReader(
                createdBy,
                columns,
                appendRowNumberColumn,
                rowGroups,
                dataSource,
                timeZone,
                memoryContext,
                options,
                exceptionTransform,
                predicate,
                Optional.empty(),
                Optional.empty());
    }

    /**
     * The pages of one column chunk, as the column readers take them: with {@code offsetIndex}, only the pages it lists,
     * which {@code input} holds (after the dictionary page, if any).
     */
    static PageReader pageReader(
            ParquetDataSourceId dataSourceId,
            ChunkedInputStream input,
            ColumnChunkMetadata metadata,
            ColumnDescriptor descriptor,
            OffsetIndex offsetIndex,
            Optional<String> createdBy,
            ParquetReaderOptions options)
    {
        return PageReader.createPageReader(dataSourceId, input, metadata, descriptor, offsetIndex, createdBy, Optional.empty(), options.getMaxPageReadSize().toBytes());
    }
}
