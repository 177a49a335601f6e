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
package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableMap;
import io.airlift.json.JsonCodec;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.plugin.paimon.compaction.BucketCompaction;
import io.trino.plugin.paimon.compaction.BucketCompactor;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.read.PaimonDataFile;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * The unit of work of {@code optimize}: compacts the bucket of its split and returns no rows.
 * <p>
 * Why the work happens here and not in a page sink: Trino hands the page sink of a table procedure only the table's
 * visible columns, so the rows reaching it could not carry what a compacted file must keep (each record's sequence
 * number and row kind, and the bucket a dynamic-bucket row lives in). The page source has all of it: it merges the
 * bucket's runs with the reader's merge core and writes the output run itself, then leaves a
 * {@link CompactionFragment} in the execution's staging folder ({@code PaimonTableHandle.optimizeStaging}), named by the bucket, where {@code finishTableExecute}
 * collects one per split and commits them together. The scan stays distributed, one split per bucket.
 * <p>
 * Each call compacts one page of records and returns none, so that Trino sees between pages the memory the compaction
 * holds (the runs' pages, the output file's buffered row group) and can cancel it; a cancelled compaction deletes what
 * it wrote.
 */
public final class OptimizePageSource
        implements ConnectorPageSource
{
    /** Connector metrics of an {@code optimize} (summed over its splits in the query's statistics): files it replaced. */
    public static final String FILES_REWRITTEN_METRIC = "paimon.optimize.filesRewritten";
    /** The bytes of the files it replaced. */
    public static final String BYTES_REWRITTEN_METRIC = "paimon.optimize.bytesRewritten";
    /** Data files it wrote. */
    public static final String FILES_WRITTEN_METRIC = "paimon.optimize.filesWritten";
    /** The bytes of the data files it wrote. */
    public static final String BYTES_WRITTEN_METRIC = "paimon.optimize.bytesWritten";
    /** Changelog files it wrote (changelog-producer tables). */
    public static final String CHANGELOG_FILES_WRITTEN_METRIC = "paimon.optimize.changelogFilesWritten";

    private final ConnectorSession session;
    private final BucketCompactor compactor;
    private final TrinoFileSystem fileSystem;
    private final JsonCodec<CompactionFragment> codec;
    private final PaimonTable table;
    private final OptimizeSplit split;
    private final Location stagingLocation;
    private long completedBytes;
    private long readTimeNanos;
    private boolean finished;
    // the bucket's compaction while it runs, null before and after
    private BucketCompaction compaction;
    private Metrics metrics = Metrics.EMPTY;

    public OptimizePageSource(ConnectorSession session, BucketCompactor compactor, TrinoFileSystem fileSystem, JsonCodec<CompactionFragment> codec, PaimonTable table, OptimizeSplit split, Location stagingLocation)
    {
        this.session = requireNonNull(session, "session is null");
        this.compactor = requireNonNull(compactor, "compactor is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.codec = requireNonNull(codec, "codec is null");
        this.table = requireNonNull(table, "table is null");
        this.split = requireNonNull(split, "split is null");
        this.stagingLocation = requireNonNull(stagingLocation, "stagingLocation is null");
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        Location bucketDirectory = table.bucketLocation(split.partitionPath(), split.bucket());
        BinaryRow partition = BinaryRow.deserialize(split.partition());
        if (compaction == null) {
            compaction = table.hasPrimaryKey()
                    ? compactor.startFully(session, table, bucketDirectory, split.files(), split.outputLevel())
                    : compactor.startAppend(session, table, partition, split.bucket(), bucketDirectory, split.files());
        }
        BucketCompactor.CompactionOutput output;
        try {
            if (!compaction.advance()) {
                readTimeNanos += System.nanoTime() - start;
                return null;
            }
            output = compaction.finish();
        }
        catch (RuntimeException e) {
            giveUp(e);
            throw e;
        }
        compaction = null;
        CompactionFragment fragment = new CompactionFragment(
                split.partition(),
                split.bucket(),
                split.files().stream().map(file -> Location.of(file.path()).fileName()).toList(),
                output.dataFiles().stream().map(file -> WrittenFile.of(partition, split.bucket(), split.totalBuckets(), file)).toList(),
                Optional.empty(),
                output.changelogFiles().stream().map(file -> WrittenFile.of(partition, split.bucket(), split.totalBuckets(), file)).toList());
        Location fragmentLocation = Optimize.fragmentLocation(stagingLocation, split.bucketId());
        try {
            fileSystem.newOutputFile(fragmentLocation).createOrOverwrite(codec.toJsonBytes(fragment));
        }
        catch (IOException e) {
            // without its fragment the rollback cannot find what this bucket wrote
            TrinoException failure = new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write compaction fragment " + fragmentLocation, e);
            deleteWritten(bucketDirectory, fragment, failure);
            throw failure;
        }
        if (Optimize.isAbandoned(fileSystem, stagingLocation)) {
            // the query failed elsewhere and its rollback may have listed the staging folder before this fragment
            TrinoException failure = new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to remove the output of abandoned compaction of " + split.bucketId());
            deleteWritten(bucketDirectory, fragment, failure);
            try {
                fileSystem.deleteFile(fragmentLocation);
            }
            catch (IOException e) {
                failure.addSuppressed(e);
            }
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        }
        completedBytes = split.files().stream().mapToLong(PaimonDataFile::fileSize).sum();
        readTimeNanos += System.nanoTime() - start;
        metrics = new Metrics(ImmutableMap.of(
                FILES_REWRITTEN_METRIC, new LongCount(split.files().size()),
                BYTES_REWRITTEN_METRIC, new LongCount(completedBytes),
                FILES_WRITTEN_METRIC, new LongCount(output.dataFiles().size()),
                BYTES_WRITTEN_METRIC, new LongCount(output.dataFiles().stream().mapToLong(DataFileMeta::fileSize).sum()),
                CHANGELOG_FILES_WRITTEN_METRIC, new LongCount(output.changelogFiles().size())));
        finished = true;
        return null;
    }

    /** What this bucket's compaction did, shown with the query's statistics (the Web UI's operator details). */
    @Override
    public Metrics getMetrics()
    {
        return metrics;
    }

    private void deleteWritten(Location bucketDirectory, CompactionFragment fragment, TrinoException failure)
    {
        for (WrittenFile file : fragment.allWrittenFiles()) {
            try {
                fileSystem.deleteFile(bucketDirectory.appendPath(file.fileName()));
            }
            catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
    }

    @Override
    public long getCompletedBytes()
    {
        return completedBytes;
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(0);
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos;
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        return compaction == null ? 0 : compaction.memoryUsage();
    }

    @Override
    public void close()
    {
        finished = true;
        if (compaction != null) {
            // cancelled, or failed elsewhere, before the compaction ended: nothing of it may stay behind
            BucketCompaction abandoned = compaction;
            compaction = null;
            abandoned.abort();
        }
    }

    private void giveUp(RuntimeException failure)
    {
        BucketCompaction failed = compaction;
        compaction = null;
        finished = true;
        try {
            failed.abort();
        }
        catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
