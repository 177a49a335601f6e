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
package io.trino.plugin.paimon.compaction;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.read.BucketCompactionReader;
import io.trino.plugin.paimon.read.CompactionChangelog;
import io.trino.plugin.paimon.read.DeletionVectorIndex;
import io.trino.plugin.paimon.read.PaimonDataFile;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.plugin.paimon.write.AppendCompactionWriter;
import io.trino.plugin.paimon.write.CompactedRunWriter;
import io.trino.plugin.paimon.write.OutputBufferLimit;
import io.trino.plugin.paimon.write.SortedRunMerger;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Compacts sorted runs of one bucket into one run: the runs' records are merged by the reader's merge core
 * ({@link BucketCompactionReader}) and written as files of the output level ({@link CompactedRunWriter}). Pure work on
 * files: which runs to take is decided by {@link UniversalCompaction}, and the commit by the caller.
 */
public final class BucketCompactor
        implements SortedRunMerger
{
    private final TableFileSystemFactory fileSystemFactory;
    private final PaimonPageSourceProvider reader;
    private final TypeMapping typeMapping;
    // the names of each rewrite's files: a writer's own UUID each, or a page sink's statement names
    private final Supplier<MetadataFileNames> fileNames;

    @Inject
    public BucketCompactor(TableFileSystemFactory fileSystemFactory, PaimonPageSourceProvider reader, TypeManager typeManager)
    {
        this(fileSystemFactory, reader, new TypeMapping(typeManager.getTypeOperators()), MetadataFileNames::new);
    }

    private BucketCompactor(TableFileSystemFactory fileSystemFactory, PaimonPageSourceProvider reader, TypeMapping typeMapping, Supplier<MetadataFileNames> fileNames)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.typeMapping = requireNonNull(typeMapping, "typeMapping is null");
        this.fileNames = requireNonNull(fileNames, "fileNames is null");
    }

    /**
     * This compactor writing files of the given names: a page sink's compactions name their files after the statement,
     * as its data files, so that under fault-tolerant execution the coordinator tells those of a discarded task
     * attempt from the committed ones ({@link MetadataFileNames#ofStatement}).
     */
    public BucketCompactor namingFiles(MetadataFileNames names)
    {
        requireNonNull(names, "names is null");
        return new BucketCompactor(fileSystemFactory, reader, typeMapping, () -> names);
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
     * Merges the runs a statement's write flushed into one run of level 0, keeping retractions: older runs of the
     * bucket may hold the keys they retract.
     */
    @Override
    public List<DataFileMeta> merge(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<DataFileMeta> runs, MetadataFileNames names)
    {
        List<PaimonDataFile> files = runs.stream()
                .map(file -> PaimonDataFile.of(file, bucketDirectory.appendPath(file.fileName()), Optional.empty()))
                .toList();
        CompactedRunWriter writer = new CompactedRunWriter(fileSystemFactory.create(session, table.name()), table, typeMapping, bucketDirectory, 0, DataFileMeta.FILE_SOURCE_APPEND, names);
        return write(reader.createCompactionReader(session, table, files, false), writer, UnaryOperator.identity());
    }

    /**
     * {@link #compactFully}, a page at a time where the table has no changelog producer that compacts (none or
     * {@code input}); with {@code lookup} or {@code full-compaction}, whose changelog compares the merged records
     * with other readers' as it goes, in one step, whose data and changelog files buffer at most
     * {@link OutputBufferLimit#FLOOR} each.
     */
    public BucketCompaction startFully(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<PaimonDataFile> files, int maxLevel)
    {
        return switch (table.options().changelogProducer()) {
            case NONE, INPUT -> startMergedRun(session, table, bucketDirectory, files, maxLevel);
            case LOOKUP, FULL_COMPACTION -> {
                PaimonTable limited = OutputBufferLimit.apply(table, OutputBufferLimit.FLOOR);
                // the data file and the changelog file are open together
                yield new OneStepCompaction(() -> compactFully(session, limited, bucketDirectory, files, maxLevel), 2 * OutputBufferLimit.FLOOR);
            }
        };
    }

    // the bucket's merged records, retractions dropped, as one run of the output level
    private BucketCompaction startMergedRun(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<PaimonDataFile> files, int outputLevel)
    {
        BucketCompactionReader records = reader.createCompactionReader(session, table, files, true);
        try {
            return new MergedRunCompaction(records, new CompactedRunWriter(fileSystemFactory.create(session, table.name()), table, typeMapping, bucketDirectory, outputLevel, fileNames.get()));
        }
        catch (RuntimeException e) {
            records.close();
            throw e;
        }
    }

    // runs a compaction to its end in one call; gives it up when it fails
    private static CompactionOutput runWhole(BucketCompaction compaction)
    {
        try {
            while (!compaction.advance()) {
                // each step writes a page
            }
            return compaction.finish();
        }
        catch (RuntimeException e) {
            try {
                compaction.abort();
            }
            catch (RuntimeException abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw e;
        }
    }

    /** {@link #compactAppend}, a page at a time. */
    public BucketCompaction startAppend(ConnectorSession session, PaimonTable table, BinaryRow partition, int bucket, Location bucketDirectory, List<PaimonDataFile> files)
    {
        long firstSequenceNumber = files.stream().mapToLong(PaimonDataFile::minSequenceNumber).min().orElse(0);
        ConnectorPageSource rows = reader.createAppendCompactionSource(session, table, files);
        try {
            AppendCompactionWriter writer = new AppendCompactionWriter(fileSystemFactory.create(session, table.name()), table, typeMapping, partition, bucket, bucketDirectory, firstSequenceNumber, fileNames.get());
            return new AppendRewrite(rows, writer, bucketDirectory);
        }
        catch (RuntimeException e) {
            closeQuietly(rows, e);
            throw e;
        }
    }

    /**
     * Compacts every file of a bucket of a {@code changelog-producer} = {@code full-compaction} table to the highest
     * level, writing the changelog of the full compaction ({@link CompactionChangelog}).
     *
     * @param files all live files of the bucket
     */
    public CompactionOutput compactWithFullChangelog(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<PaimonDataFile> files, int maxLevel)
    {
        List<PaimonDataFile> highestLevel = files.stream().filter(file -> file.level() == maxLevel).toList();
        List<PaimonDataFile> otherLevels = files.stream().filter(file -> file.level() != maxLevel).toList();
        return compactWithChangelog(
                session,
                table,
                bucketDirectory,
                CompactionChangelog.Producer.FULL_COMPACTION,
                reader.createCompactionReader(session, table, files, false),
                UnaryOperator.identity(),
                true,
                reader.createCompactionReader(session, table, highestLevel, false),
                reader.createCompactionReader(session, table, otherLevels, false),
                maxLevel);
    }

    /**
     * A full compaction of a bucket ({@code optimize}): every file to the highest level, with the changelog the table's
     * producer asks of it: that of a full compaction, or under {@code lookup} that of the keys with level-0 records
     * against their shallowest record above level 0.
     *
     * @param files all live files of the bucket
     */
    public CompactionOutput compactFully(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<PaimonDataFile> files, int maxLevel)
    {
        TableOptions options = table.options();
        return switch (options.changelogProducer()) {
            case FULL_COMPACTION -> compactWithFullChangelog(session, table, bucketDirectory, files, maxLevel);
            case LOOKUP -> compactWithChangelog(
                    session,
                    table,
                    bucketDirectory,
                    options.lookupResolution() == TableOptions.LookupResolution.KEEP_FOUND ? CompactionChangelog.Producer.FIRST_ROW : CompactionChangelog.Producer.LOOKUP,
                    reader.createCompactionReader(session, table, files, false),
                    UnaryOperator.identity(),
                    true,
                    reader.createCompactionReader(session, table, files.stream().filter(file -> file.level() > 0).toList(), false),
                    reader.createCompactionReader(session, table, files.stream().filter(file -> file.level() == 0).toList(), false),
                    maxLevel);
            case NONE, INPUT -> runWhole(startMergedRun(session, table, bucketDirectory, files, maxLevel));
        };
    }

    /**
     * Writes merged records as files of the output level with the changelog the producer makes of them
     * ({@link CompactionChangelog}), and closes the readers.
     *
     * @param merged the compaction's merged records, retractions included
     * @param filter what of each page of merged records is the output
     * @param before the records streaming readers last saw of the compacted keys
     * @param triggers records whose keys get a changelog
     */
    CompactionOutput compactWithChangelog(
            ConnectorSession session,
            PaimonTable table,
            Location bucketDirectory,
            CompactionChangelog.Producer producer,
            BucketCompactionReader merged,
            UnaryOperator<Page> filter,
            boolean dropRetracts,
            BucketCompactionReader before,
            BucketCompactionReader triggers,
            int outputLevel)
    {
        List<Type> keyTypes = table.trimmedPrimaryKeyFields().stream().map(typeMapping::toTrinoType).toList();
        List<DataField> columns = table.schema().fields();
        Set<String> ignored = Set.copyOf(table.options().changelogRowDeduplicateIgnoreFields());
        int[] comparedColumns = IntStream.range(0, columns.size())
                .filter(i -> !ignored.contains(columns.get(i).name()))
                .toArray();
        CompactionChangelog changelog = new CompactionChangelog(producer, keyTypes, columns.stream().map(typeMapping::toTrinoType).toList(), table.options().changelogRowDeduplicate(), comparedColumns);

        CompactedRunWriter writer = new CompactedRunWriter(fileSystemFactory.create(session, table.name()), table, typeMapping, bucketDirectory, outputLevel, fileNames.get());
        try (merged; before; triggers) {
            changelog.compact(merged::nextPage, filter, dropRetracts, before::nextPage, triggers::nextPage, writer::write, writer::writeChangelog);
            return new CompactionOutput(writer.finish(), writer.finishChangelog());
        }
        catch (RuntimeException e) {
            throw abort(writer::abort, e);
        }
    }

    /**
     * Rewrites files of an append table into files of the target size at level 0, their deletion vectors applied:
     * rows are copied, not merged ({@link AppendCompaction} picks the files).
     *
     * @param files the files in sequence order
     */
    public List<DataFileMeta> compactAppend(ConnectorSession session, PaimonTable table, BinaryRow partition, int bucket, Location bucketDirectory, List<PaimonDataFile> files)
    {
        return runWhole(startAppend(session, table, partition, bucket, bucketDirectory, files)).dataFiles();
    }

    private static void closeQuietly(ConnectorPageSource source, RuntimeException failure)
    {
        try {
            source.close();
        }
        catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    // the merged records of a bucket written as one run of the output level
    private static final class MergedRunCompaction
            implements BucketCompaction
    {
        private final BucketCompactionReader records;
        private final CompactedRunWriter writer;

        MergedRunCompaction(BucketCompactionReader records, CompactedRunWriter writer)
        {
            this.records = requireNonNull(records, "records is null");
            this.writer = requireNonNull(writer, "writer is null");
        }

        @Override
        public boolean advance()
        {
            Page page = records.nextPage();
            if (page == null) {
                return true;
            }
            if (page.getPositionCount() > 0) {
                writer.write(page);
            }
            return false;
        }

        @Override
        public long memoryUsage()
        {
            return records.memoryUsage() + writer.memoryUsage();
        }

        @Override
        public CompactionOutput finish()
        {
            records.close();
            return new CompactionOutput(writer.finish(), List.of());
        }

        @Override
        public void abort()
        {
            RuntimeException failure = null;
            try {
                records.close();
            }
            catch (RuntimeException e) {
                failure = e;
            }
            try {
                writer.abort();
            }
            catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
                else {
                    failure.addSuppressed(e);
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    // an append bucket's rows copied into new files
    private static final class AppendRewrite
            implements BucketCompaction
    {
        private final ConnectorPageSource rows;
        private final AppendCompactionWriter writer;
        private final Location bucketDirectory;

        AppendRewrite(ConnectorPageSource rows, AppendCompactionWriter writer, Location bucketDirectory)
        {
            this.rows = requireNonNull(rows, "rows is null");
            this.writer = requireNonNull(writer, "writer is null");
            this.bucketDirectory = requireNonNull(bucketDirectory, "bucketDirectory is null");
        }

        @Override
        public boolean advance()
        {
            if (rows.isFinished()) {
                return true;
            }
            SourcePage page = rows.getNextSourcePage();
            if (page != null) {
                writer.write(page.getPage());
            }
            return false;
        }

        @Override
        public long memoryUsage()
        {
            return rows.getMemoryUsage() + writer.memoryUsage();
        }

        @Override
        public CompactionOutput finish()
        {
            try {
                rows.close();
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to close the files compacted into " + bucketDirectory, e);
            }
            return new CompactionOutput(writer.finish(), List.of());
        }

        @Override
        public void abort()
        {
            RuntimeException failure = new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to give up the compaction of " + bucketDirectory);
            closeQuietly(rows, failure);
            try {
                writer.abort();
            }
            catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        }
    }

    // a compaction that runs whole in its first step; what it holds is not seen while it runs
    /**
     * A compaction that runs whole in one call, where Trino does not see its memory grow: Trino reads a page source's
     * memory between calls only, so the first call does nothing but report what the compaction's output may buffer,
     * and the second runs it. A query without that much memory to spare fails before the compaction starts.
     */
    private static final class OneStepCompaction
            implements BucketCompaction
    {
        private final Supplier<CompactionOutput> compaction;
        private final long reservation;
        private boolean reserved;
        private CompactionOutput output;

        OneStepCompaction(Supplier<CompactionOutput> compaction, long reservation)
        {
            this.compaction = requireNonNull(compaction, "compaction is null");
            this.reservation = reservation;
        }

        @Override
        public boolean advance()
        {
            if (!reserved) {
                reserved = true;
                return false;
            }
            // the compaction deletes its own output when it fails
            output = compaction.get();
            return true;
        }

        @Override
        public long memoryUsage()
        {
            return output == null ? reservation : 0;
        }

        @Override
        public CompactionOutput finish()
        {
            return requireNonNull(output, "the compaction has not run");
        }

        @Override
        public void abort()
        {
            if (output != null) {
                throw new IllegalStateException("a compaction that ran whole is committed or deleted by its caller");
            }
        }
    }

    // deletes what a failed rewrite wrote; a failure to delete travels with the rewrite's own
    private static RuntimeException abort(Runnable abortWriter, RuntimeException failure)
    {
        try {
            abortWriter.run();
        }
        catch (RuntimeException abortFailure) {
            failure.addSuppressed(abortFailure);
        }
        return failure;
    }

    /** The files a compaction wrote: the data files of its output level, in key order, and its changelog files. */
    public record CompactionOutput(List<DataFileMeta> dataFiles, List<DataFileMeta> changelogFiles)
    {
        public CompactionOutput
        {
            dataFiles = ImmutableList.copyOf(dataFiles);
            changelogFiles = ImmutableList.copyOf(changelogFiles);
        }
    }

    /**
     * Writes merged records as files of the output level, and closes the reader.
     *
     * @param filter what of each page of records is written
     * @return the files written, in key order
     */
    public List<DataFileMeta> write(ConnectorSession session, PaimonTable table, Location bucketDirectory, BucketCompactionReader records, int outputLevel, UnaryOperator<Page> filter)
    {
        return write(records, new CompactedRunWriter(fileSystemFactory.create(session, table.name()), table, typeMapping, bucketDirectory, outputLevel, fileNames.get()), filter);
    }

    private static List<DataFileMeta> write(BucketCompactionReader records, CompactedRunWriter writer, UnaryOperator<Page> filter)
    {
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
            throw abort(writer::abort, e);
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
