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
package io.trino.plugin.paimon.write;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.List;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;

/**
 * Writes the output of a compaction of an append table's files: their rows, in the order read, into files of the
 * table's target size, at level 0 with file source COMPACT. As Paimon's rewrite of append files, the rows are numbered
 * from the smallest sequence number of the files they come from.
 */
public final class AppendCompactionWriter
{
    private final DataFiles files;
    private final AppendBucketWriter writer;

    public AppendCompactionWriter(TrinoFileSystem fileSystem, PaimonTable table, TypeMapping typeMapping, BinaryRow partition, int bucket, Location bucketDirectory, long firstSequenceNumber, MetadataFileNames names)
    {
        String tableName = table.name().toString();
        WriteOptions options = WriteOptions.of(tableName, table.schema().options(), false);
        this.files = new DataFiles(fileSystem, DataFileLayout.of(tableName, table.schema(), typeMapping), table.schema().id(), options.dataFormat(0), options.changelogFormat(), options.targetFileSize(), false, names);
        this.writer = new AppendBucketWriter(partition, bucket, bucketDirectory, files, options.targetFileSize(), firstSequenceNumber);
    }

    /** Appends rows: a page of every table column, in table order. */
    public void write(Page page)
    {
        int positions = page.getPositionCount();
        if (positions > 0) {
            writer.add(page, IntStream.range(0, positions).toArray(), positions, KeyValueLayout.INSERT);
        }
    }

    /** Bytes the open file's writer buffers. */
    public long memoryUsage()
    {
        return writer.memoryUsage();
    }

    /** Closes the last file; the files written, in order. */
    public List<DataFileMeta> finish()
    {
        return CompactedRunWriter.describe(writer.finish(), 0, DataFileMeta.FILE_SOURCE_COMPACT);
    }

    /** Stops writing and deletes every file this writer created. */
    public void abort()
    {
        writer.abort();
        for (Location location : files.created()) {
            try {
                files.fileSystem().deleteFile(location);
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete compaction output file " + location, e);
            }
        }
    }
}
