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

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.format.MetadataCache;
import io.trino.plugin.paimon.format.manifest.BucketFiles;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.merge.Section;
import io.trino.plugin.paimon.table.CompactionOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.UnsupportedOptions;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static io.trino.plugin.paimon.PaimonSessionProperties.dynamicFilteringWaitTimeout;
import static io.trino.plugin.paimon.PaimonSessionProperties.maxSplitSize;
import static java.util.Objects.requireNonNull;

/**
 * One split per (partition, bucket) of the pinned snapshot, carrying the bucket's files (a bucket larger than the
 * session's {@code max_split_size} is cut between its sections into several); for append tables one split per file. Partitions, buckets and files whose key range the table handle's constraint excludes are left out. As in
 * Paimon's batch scan, deletion-vector and first-row tables do not read level-0 files (only compacted data is visible
 * there, merge-semantics §2.1), and postpone buckets are not read at all. Splits are planned when the join's dynamic
 * filters are known or the session's {@code dynamic_filtering_wait_timeout} is over, and those filters prune as the
 * constraint does. With a pushed-down limit, planning stops once the splits hold that many rows for sure.
 */
public class PaimonSplitManager
        extends SplitManagerAdapter
{
    // a bucket of this many bytes weighs as much as a standard split
    private static final long STANDARD_SPLIT_BYTES = 128L * 1024 * 1024;

    private final TableFileSystemFactory fileSystemFactory;
    private final MetadataCache metadataCache;

    @Inject
    public PaimonSplitManager(TableFileSystemFactory fileSystemFactory, MetadataCache metadataCache)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.metadataCache = requireNonNull(metadataCache, "metadataCache is null");
    }

    @Override
    public ConnectorSplitSource splitSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle, ScanDynamicFilter dynamicFilter, Constraint constraint)
    {
        PaimonTableHandle handle = (PaimonTableHandle) tableHandle;
        // options that change how rows merge or where they lie, which no read here follows
        UnsupportedOptions.check(handle.table().name().toString(), handle.table().schema().options());
        if (handle.snapshotId().isEmpty() || handle.constraint().isNone()) {
            return new FixedSplitSource(ImmutableList.of());
        }
        if (handle.view() == PaimonTableHandle.View.CHANGES) {
            return new FixedSplitSource(TableChangesSplits.plan(fileSystemFactory.create(session, handle.table().name()), metadataCache, handle));
        }
        return new PaimonSplitSource(dynamicFilter, dynamicFilteringWaitTimeout(session), dynamicPredicate -> splits(session, handle, dynamicPredicate));
    }

    // the dynamic filter prunes as the query's own predicate does: partitions, buckets, and files by key range
    private List<ConnectorSplit> splits(ConnectorSession session, PaimonTableHandle handle, TupleDomain<ColumnHandle> dynamicPredicate)
    {
        TupleDomain<PaimonColumnHandle> pruning = handle.constraint().intersect(PaimonColumnHandle.wholeColumnDomains(dynamicPredicate));
        if (pruning.isNone()) {
            return ImmutableList.of();
        }
        PaimonTable table = handle.table();
        TableOptions options = table.options();
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        Snapshot snapshot = PinnedSnapshot.read(fileSystem, metadataCache, handle);
        SnapshotScan scan = new SnapshotScan(fileSystem, table.location(), metadataCache);
        FilePruning filter = FilePruning.create(table, pruning);

        DeletionVectorIndex deletionVectors = DeletionVectorIndex.of(table, scan, scan.indexFiles(snapshot, filter));

        boolean primaryKeyTable = table.hasPrimaryKey();
        // the read-optimized view of a primary-key table reads only the highest level, whose files hold each key once
        OptionalInt onlyLevel = primaryKeyTable && handle.view() == PaimonTableHandle.View.READ_OPTIMIZED
                ? OptionalInt.of(CompactionOptions.of(table.name().toString(), table.schema().options()).maxLevel())
                : OptionalInt.empty();
        List<DataType> keyTypes = table.trimmedPrimaryKeyFields().stream().map(DataField::type).toList();
        long maxSplitBytes = maxSplitSize(session).toBytes();
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        // rows the splits so far are known to return: with a pushed-down limit, no further split is needed past it
        long knownRows = 0;
        for (BucketFiles bucket : scan.liveFilesByBucket(snapshot, filter)) {
            if (handle.limit().isPresent() && knownRows >= handle.limit().getAsLong()) {
                break;
            }
            String partitionPath = table.partitionPath(bucket.partition());
            List<PaimonDataFile> files = bucket.files().stream()
                    .filter(entry -> !(primaryKeyTable && options.batchScanSkipsLevelZero() && entry.file().level() == 0))
                    .filter(entry -> onlyLevel.isEmpty() || entry.file().level() == onlyLevel.getAsInt())
                    // a key's records all lie in files whose key range holds it, so the merge stays exact for every key the predicate admits
                    .filter(entry -> !primaryKeyTable || filter.mayContainKeys(entry.file()))
                    .map(ManifestEntry::file)
                    .map(file -> PaimonDataFile.of(file, table.dataFileLocation(partitionPath, bucket.bucket(), file), deletionVectors.of(bucket.partition(), bucket.bucket(), file.fileName())))
                    .toList();
            if (files.isEmpty()) {
                continue;
            }
            if (primaryKeyTable) {
                for (List<PaimonDataFile> part : parts(files, keyTypes, maxSplitBytes)) {
                    splits.add(split(partitionPath, bucket.bucket(), part));
                    if (RawConvertible.isRawConvertible(part, options)) {
                        knownRows += knownRows(part);
                    }
                }
            }
            else {
                for (PaimonDataFile file : files) {
                    if (handle.limit().isPresent() && knownRows >= handle.limit().getAsLong()) {
                        break;
                    }
                    splits.add(split(partitionPath, bucket.bucket(), List.of(file)));
                    knownRows += knownRows(List.of(file));
                }
            }
        }
        return splits.build();
    }

    /**
     * A bucket's files as the splits that read it: one, or, when the files hold more than {@code maxSplitBytes}, runs
     * of whole sections (files of overlapping key ranges, see {@link PaimonPageSource#sections}) of about that size,
     * in key order. No key has records in two sections, so each part merges on its own and the parts of one hot
     * bucket are read in parallel. A bucket whose files all overlap is one section and stays one split.
     */
    static List<List<PaimonDataFile>> parts(List<PaimonDataFile> files, List<DataType> keyTypes, long maxSplitBytes)
    {
        if (files.size() == 1 || bytes(files) <= maxSplitBytes) {
            return List.of(files);
        }
        List<List<PaimonDataFile>> parts = new ArrayList<>();
        List<PaimonDataFile> part = new ArrayList<>();
        long partBytes = 0;
        for (Section<PaimonDataFile> section : PaimonPageSource.sections(files, keyTypes)) {
            List<PaimonDataFile> sectionFiles = section.runs().stream().flatMap(run -> run.files().stream()).toList();
            long sectionBytes = bytes(sectionFiles);
            if (!part.isEmpty() && partBytes + sectionBytes > maxSplitBytes) {
                parts.add(part);
                part = new ArrayList<>();
                partBytes = 0;
            }
            part.addAll(sectionFiles);
            partBytes += sectionBytes;
        }
        parts.add(part);
        return parts;
    }

    private static long bytes(List<PaimonDataFile> files)
    {
        return files.stream().mapToLong(PaimonDataFile::fileSize).sum();
    }

    // the rows of files read as they are, unless a deletion vector removes an unknown number of them
    private static long knownRows(List<PaimonDataFile> files)
    {
        long rows = 0;
        for (PaimonDataFile file : files) {
            if (file.deletionVector().isEmpty()) {
                rows += file.rowCount();
            }
        }
        return rows;
    }

    private static PaimonSplit split(String partitionPath, int bucket, List<PaimonDataFile> files)
    {
        SplitWeight weight = SplitWeight.fromProportion(Math.clamp((double) bytes(files) / STANDARD_SPLIT_BYTES, 0.01, 1.0));
        return new PaimonSplit(partitionPath, bucket, files, weight);
    }
}
