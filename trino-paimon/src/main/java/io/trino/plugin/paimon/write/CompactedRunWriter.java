package io.trino.plugin.paimon.write;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
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
 * at the compaction's output level, in that level's format, with file source COMPACT (paimon-format.md §4.4).
 */
public final class CompactedRunWriter
{
    private final DataFiles files;
    private final RollingFileWriter run;
    private final int outputLevel;

    public CompactedRunWriter(TrinoFileSystem fileSystem, PaimonTable table, TypeMapping typeMapping, Location bucketDirectory, int outputLevel)
    {
        String tableName = table.name().toString();
        WriteOptions options = WriteOptions.of(tableName, table.schema().options(), true);
        this.files = new DataFiles(fileSystem, DataFileLayout.of(tableName, table.schema(), typeMapping), table.schema().id(), options.dataFormat(outputLevel), options.changelogFormat(), options.targetFileSize(), false);
        this.run = files.rollingDataFiles(requireNonNull(bucketDirectory, "bucketDirectory is null"));
        this.outputLevel = outputLevel;
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
        return run.close().stream()
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
                        outputLevel,
                        file.extraFiles(),
                        file.creationTimeMillis(),
                        file.deleteRowCount(),
                        file.embeddedIndex(),
                        OptionalInt.of(DataFileMeta.FILE_SOURCE_COMPACT),
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
