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
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Writes the output of a compaction of one bucket: one sorted run, given as key-value pages in key order, rolled into
 * files of the table's target file size like any written run, and described as Paimon describes compaction output:
 * at the compaction's output level, in that level's format, with file source COMPACT (paimon-format.md §4.4). The
 * runs a statement's write merged into one ({@link SortedRunMerger}) are new data, not a compaction: file source APPEND.
 */
public final class CompactedRunWriter
{
    private final DataFiles files;
    private final RollingFileWriter run;
    private final Location bucketDirectory;
    private final int outputLevel;
    private final int fileSource;
    private RollingFileWriter changelog;

    public CompactedRunWriter(TrinoFileSystem fileSystem, PaimonTable table, TypeMapping typeMapping, Location bucketDirectory, int outputLevel, MetadataFileNames names)
    {
        this(fileSystem, table, typeMapping, bucketDirectory, outputLevel, DataFileMeta.FILE_SOURCE_COMPACT, names);
    }

    /**
     * @param fileSource the file source of the run's data files: {@link DataFileMeta#FILE_SOURCE_COMPACT} or
     * {@link DataFileMeta#FILE_SOURCE_APPEND}
     * @param names the names of the files written (a page sink's are those of its statement)
     */
    public CompactedRunWriter(TrinoFileSystem fileSystem, PaimonTable table, TypeMapping typeMapping, Location bucketDirectory, int outputLevel, int fileSource, MetadataFileNames names)
    {
        String tableName = table.name().toString();
        WriteOptions options = WriteOptions.of(tableName, table.schema().options(), true);
        this.files = new DataFiles(fileSystem, DataFileLayout.of(tableName, table.schema(), typeMapping), table.schema().id(), options.dataFormat(outputLevel), options.changelogFormat(), options.targetFileSize(), false, names);
        this.bucketDirectory = requireNonNull(bucketDirectory, "bucketDirectory is null");
        this.run = files.rollingDataFiles(bucketDirectory);
        this.outputLevel = outputLevel;
        this.fileSource = fileSource;
    }

    /**
     * Appends changelog records the compaction produced ({@code changelog-producer} = {@code full-compaction}): a page
     * of the key-value layout, each record with its row kind, in key order after what was written.
     */
    public void writeChangelog(Page page)
    {
        if (changelog == null) {
            changelog = files.rollingChangelogFiles(bucketDirectory);
        }
        changelog.write(page);
    }

    /** Appends records: a page of the key-value layout with every table column, sorted after what was written. */
    public void write(Page page)
    {
        run.write(page);
    }

    public long memoryUsage()
    {
        return run.memoryUsage();
    }

    /** Closes the run; its files, in key order. */
    public List<DataFileMeta> finish()
    {
        return describe(run.close(), outputLevel, fileSource);
    }

    /** Closes the changelog; its files, described as Paimon's compaction describes them: at the output level, file source APPEND. */
    public List<DataFileMeta> finishChangelog()
    {
        if (changelog == null) {
            return List.of();
        }
        List<DataFileMeta> written = changelog.close();
        changelog = null;
        return describe(written, outputLevel, DataFileMeta.FILE_SOURCE_APPEND);
    }

    /** The files as written, described at the given level with the given file source. */
    static List<DataFileMeta> describe(List<DataFileMeta> written, int level, int fileSource)
    {
        return written.stream()
                .map(file -> new DataFileMeta(
                        file.fileName(),
                        file.fileSize(),
                        file.rowCount(),
                        file.minKey(),
                        file.maxKey(),
                        file.keyStats(),
                        file.valueStats(),
                        file.minSequenceNumber(),
                        file.maxSequenceNumber(),
                        file.schemaId(),
                        level,
                        file.extraFiles(),
                        file.creationTimeMillis(),
                        file.deleteRowCount(),
                        file.embeddedIndex(),
                        OptionalInt.of(fileSource),
                        file.valueStatsColumns(),
                        file.externalPath(),
                        file.firstRowId(),
                        file.writeColumns()))
                .collect(toImmutableList());
    }

    /** Stops writing and deletes every file this writer created, also those of a finished run that will not be committed. */
    public void abort()
    {
        run.abort();
        if (changelog != null) {
            changelog.abort();
        }
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
