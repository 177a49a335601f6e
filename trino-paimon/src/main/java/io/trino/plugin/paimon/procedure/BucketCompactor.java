package io.trino.plugin.paimon.procedure;

import com.google.inject.Inject;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.read.BucketCompactionReader;
import io.trino.plugin.paimon.read.DeletionVectorIndex;
import io.trino.plugin.paimon.read.PaimonDataFile;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.plugin.paimon.write.CompactedRunWriter;
import io.trino.spi.Page;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;

import java.util.List;
import java.util.function.UnaryOperator;

import static java.util.Objects.requireNonNull;

/**
 * Compacts sorted runs of one bucket into one run: the runs' records are merged by the reader's merge core
 * ({@link BucketCompactionReader}) and written as files of the output level ({@link CompactedRunWriter}). Pure work on
 * files: which runs to take is decided by {@link UniversalCompaction}, and the commit by the caller.
 */
public final class BucketCompactor
{
    private final TrinoFileSystemFactory fileSystemFactory;
    private final PaimonPageSourceProvider reader;
    private final TypeMapping typeMapping;

    @Inject
    public BucketCompactor(TrinoFileSystemFactory fileSystemFactory, PaimonPageSourceProvider reader, TypeManager typeManager)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.typeMapping = new TypeMapping(typeManager.getTypeOperators());
    }

    /**
     * @param files the runs' files as a split carries them
     * @return the files written, in key order (none when every record was a dropped retraction)
     */
    public List<DataFileMeta> compact(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<PaimonDataFile> files, int outputLevel, boolean dropRetracts)
    {
        return write(session, table, bucketDirectory, reader.createCompactionReader(session, table, files, dropRetracts), outputLevel, UnaryOperator.identity());
    }

    /**
     * Writes merged records as files of the output level, and closes the reader.
     *
     * @param filter what of each page of records is written
     * @return the files written, in key order
     */
    public List<DataFileMeta> write(ConnectorSession session, PaimonTable table, Location bucketDirectory, BucketCompactionReader records, int outputLevel, UnaryOperator<Page> filter)
    {
        CompactedRunWriter writer = new CompactedRunWriter(fileSystemFactory.create(session), table, typeMapping, bucketDirectory, outputLevel);
        try (records) {
            for (Page page = records.nextPage(); page != null; page = records.nextPage()) {
                Page kept = filter.apply(page);
                if (kept.getPositionCount() > 0) {
                    writer.write(kept);
                }
            }
            return writer.finish();
        }
        catch (RuntimeException e) {
            try {
                writer.abort();
            }
            catch (RuntimeException abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw e;
        }
    }

    /** The files of a bucket as the compaction reader takes them, each with its deletion vector, so deleted rows stay deleted. */
    public static List<PaimonDataFile> dataFiles(PaimonTable table, BinaryRow partition, int bucket, List<DataFileMeta> files, DeletionVectorIndex deletionVectors)
    {
        String partitionPath = table.partitionPath(partition);
        return files.stream()
                .map(file -> PaimonDataFile.of(file, table.dataFileLocation(partitionPath, bucket, file), deletionVectors.of(partition, bucket, file.fileName())))
                .toList();
    }
}
