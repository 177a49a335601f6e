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
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.index.DeletionVectorIndexFile;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.read.CompactionChangelog;
import io.trino.plugin.paimon.read.DeletionVectorIndex;
import io.trino.plugin.paimon.read.DeletionVectors;
import io.trino.plugin.paimon.read.KeyLookup;
import io.trino.plugin.paimon.read.PaimonDataFile;
import io.trino.plugin.paimon.read.PaimonPageSourceProvider;
import io.trino.plugin.paimon.table.CompactionOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableFileSystemFactory;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.DeletionVectorFile;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static java.util.Objects.requireNonNull;

/**
 * The compaction on write of a bucket whose level-0 files batch reads skip (deletion-vector and first-row tables), as
 * Paimon's writer does it (its {@code LookupMergeTreeCompactRewriter}): level 0 is moved up
 * ({@link UniversalCompaction#pickLevelZero}), and each key it holds is looked up in the levels above the output
 * ({@link KeyLookup}). A row found there is merged in where the merge engine needs its values (partial-update,
 * aggregation, a sequence field) and marked deleted in the file's deletion vector, which is not rewritten; under
 * deduplicate the newer record wins without it. Under first-row the row found wins: the newer record is dropped and
 * nothing is marked, so the table needs no deletion vectors. The levels above 0 thus hold each key at most once live.
 * <p>
 * Where the lookup does not apply the bucket is compacted whole to the highest level, its files read with their
 * deletion vectors and its vectors dropped, as {@code optimize} does: when its deletion vectors lie in an external
 * path (this connector writes index files only in the table's {@code index/} folder), and when the compaction would
 * merge more than {@value #MAX_LOOKUP_RECORDS} records, whose keys the lookup holds in memory.
 */
public final class LookupCompactor
{
    static final long MAX_LOOKUP_RECORDS = 250_000;

    private final TableFileSystemFactory fileSystemFactory;
    private final PaimonPageSourceProvider reader;
    private final BucketCompactor compactor;
    // the names of the deletion-vector index files, as the compactor's of its data files
    private final Supplier<MetadataFileNames> fileNames;

    @Inject
    public LookupCompactor(TableFileSystemFactory fileSystemFactory, PaimonPageSourceProvider reader, BucketCompactor compactor)
    {
        this(fileSystemFactory, reader, compactor, MetadataFileNames::new);
    }

    private LookupCompactor(TableFileSystemFactory fileSystemFactory, PaimonPageSourceProvider reader, BucketCompactor compactor, Supplier<MetadataFileNames> fileNames)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.compactor = requireNonNull(compactor, "compactor is null");
        this.fileNames = requireNonNull(fileNames, "fileNames is null");
    }

    /** This compactor writing data and index files of the given names ({@link BucketCompactor#namingFiles}). */
    public LookupCompactor namingFiles(MetadataFileNames names)
    {
        requireNonNull(names, "names is null");
        return new LookupCompactor(fileSystemFactory, reader, compactor.namingFiles(names), () -> names);
    }

    /**
     * @param files the bucket's live files
     * @param deletionVectors the vectors of the snapshot the files are from
     * @param vectorIndex the bucket's deletion-vector index entry in that snapshot, if any
     * @param changelogWanted whether the compaction writes the changelog of a {@code changelog-producer} = {@code lookup}
     * table (not after an overwrite, whose commit drops the changelog)
     * @return what was compacted, or empty when level 0 is empty
     */
    public Optional<CompactionFragment> compact(
            ConnectorSession session,
            PaimonTable table,
            CompactionOptions options,
            BinaryRow partition,
            int bucket,
            int totalBuckets,
            List<DataFileMeta> files,
            DeletionVectorIndex deletionVectors,
            Optional<IndexManifestEntry> vectorIndex,
            boolean changelogWanted)
    {
        TableOptions tableOptions = table.options();
        boolean lookupChangelog = changelogWanted && tableOptions.changelogProducer() == TableOptions.ChangelogProducer.LOOKUP;
        List<UniversalCompaction.LevelRun> runs = UniversalCompaction.levelSortedRuns(files);
        int numLevels = UniversalCompaction.numLevels(options, files);
        Optional<UniversalCompaction.Unit> picked = UniversalCompaction.pickLevelZero(options, numLevels, runs);
        if (picked.isEmpty()) {
            return Optional.empty();
        }
        UniversalCompaction.Unit unit = picked.get();
        long compactedRecords = unit.files().stream().mapToLong(DataFileMeta::rowCount).sum();
        boolean whole = compactedRecords > MAX_LOOKUP_RECORDS || vectorIndex.flatMap(IndexManifestEntry::externalPath).isPresent();
        if (whole && !lookupChangelog) {
            return Optional.of(compactWhole(session, table, partition, bucket, totalBuckets, files, numLevels, deletionVectors));
        }
        // a bucket compacted whole needs no lookup: nothing lies above its output
        int outputLevel = whole ? numLevels - 1 : unit.outputLevel();
        List<DataFileMeta> compacted = whole ? files : unit.files();
        // with deletion vectors a retraction is not kept at any level above 0: the row it retracts is marked deleted
        boolean dropRetracts = whole || (tableOptions.deletionVectorsEnabled() ? outputLevel > 0 : unit.dropRetracts());
        List<DataFileMeta> above = files.stream().filter(file -> file.level() > outputLevel).toList();
        List<PaimonDataFile> compactedFiles = BucketCompactor.dataFiles(table, partition, bucket, compacted, deletionVectors);
        List<PaimonDataFile> aboveFiles = BucketCompactor.dataFiles(table, partition, bucket, above, deletionVectors);
        KeyLookup lookup = reader.createKeyLookup(session, table);
        KeyLookup.Hits hits = lookup.find(compactedFiles, aboveFiles);

        Map<String, RoaringBitmap> deletedByFile = new LinkedHashMap<>();
        List<PaimonDataFile> mergedFiles = compactedFiles;
        Map<String, RoaringBitmap> selectedRows = Map.of();
        UnaryOperator<Page> filter = UnaryOperator.identity();
        if (tableOptions.lookupResolution() == TableOptions.LookupResolution.KEEP_FOUND) {
            if (!hits.keys().isEmpty()) {
                filter = page -> withoutKeys(page, lookup, hits.keys());
            }
        }
        else {
            if (tableOptions.deletionVectorsEnabled()) {
                for (int i = 0; i < above.size(); i++) {
                    RoaringBitmap found = hits.rows().get(aboveFiles.get(i).path());
                    if (found != null) {
                        deletedByFile.put(above.get(i).fileName(), found);
                    }
                }
            }
            if (tableOptions.lookupResolution() == TableOptions.LookupResolution.MERGE_FOUND) {
                mergedFiles = ImmutableList.<PaimonDataFile>builder()
                        .addAll(compactedFiles)
                        .addAll(aboveFiles.stream().filter(file -> hits.rows().containsKey(file.path())).toList())
                        .build();
                selectedRows = hits.rows();
            }
        }
        Location bucketDirectory = table.bucketLocation(partition, bucket);
        List<DataFileMeta> output;
        List<DataFileMeta> changelog = List.of();
        if (lookupChangelog) {
            // before: the shallowest record above level 0, in the compaction or found above it; triggers: level 0
            List<PaimonDataFile> compactedAboveZero = compactedFiles.stream().filter(file -> file.level() > 0).toList();
            List<PaimonDataFile> levelZero = compactedFiles.stream().filter(file -> file.level() == 0).toList();
            boolean firstRow = tableOptions.lookupResolution() == TableOptions.LookupResolution.KEEP_FOUND;
            List<PaimonDataFile> beforeFiles = firstRow
                    ? compactedAboveZero
                    : ImmutableList.<PaimonDataFile>builder()
                            .addAll(compactedAboveZero)
                            .addAll(aboveFiles.stream().filter(file -> hits.rows().containsKey(file.path())).toList())
                            .build();
            BucketCompactor.CompactionOutput written = compactor.compactWithChangelog(
                    session,
                    table,
                    bucketDirectory,
                    firstRow ? CompactionChangelog.Producer.FIRST_ROW : CompactionChangelog.Producer.LOOKUP,
                    reader.createCompactionReader(session, table, mergedFiles, selectedRows, false),
                    filter,
                    dropRetracts,
                    reader.createCompactionReader(session, table, beforeFiles, firstRow ? Map.of() : hits.rows(), false),
                    reader.createCompactionReader(session, table, levelZero, false),
                    outputLevel);
            output = written.dataFiles();
            changelog = written.changelogFiles();
        }
        else {
            output = compactor.write(session, table, bucketDirectory, reader.createCompactionReader(session, table, mergedFiles, selectedRows, dropRetracts), outputLevel, filter);
        }
        Optional<DeletionVectorFile> vectors;
        try {
            vectors = deletionVectors(session, table, partition, bucket, compacted, deletedByFile, deletionVectors, vectorIndex);
        }
        catch (RuntimeException e) {
            TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
            for (DataFileMeta file : ImmutableList.<DataFileMeta>builder().addAll(output).addAll(changelog).build()) {
                try {
                    fileSystem.deleteFile(bucketDirectory.appendPath(file.fileName()));
                }
                catch (IOException deleteFailure) {
                    e.addSuppressed(deleteFailure);
                }
            }
            throw e;
        }
        return Optional.of(new CompactionFragment(
                partition.serialize(),
                bucket,
                compacted.stream().map(DataFileMeta::fileName).toList(),
                output.stream().map(file -> WrittenFile.of(partition, bucket, totalBuckets, file)).toList(),
                vectors,
                changelog.stream().map(file -> WrittenFile.of(partition, bucket, totalBuckets, file)).toList()));
    }

    private CompactionFragment compactWhole(ConnectorSession session, PaimonTable table, BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files, int numLevels, DeletionVectorIndex deletionVectors)
    {
        int maxLevel = numLevels - 1;
        List<DataFileMeta> output = compactor.compact(session, table, table.bucketLocation(partition, bucket), BucketCompactor.dataFiles(table, partition, bucket, files, deletionVectors), maxLevel, true);
        return new CompactionFragment(
                partition.serialize(),
                bucket,
                files.stream().map(DataFileMeta::fileName).toList(),
                output.stream().map(file -> WrittenFile.of(partition, bucket, totalBuckets, file)).toList());
    }

    /**
     * The bucket's vectors after the compaction: those of the files it replaced go, the rows it superseded are added
     * to the vectors of their files. Unchanged: the bucket's index file as it is; no vector left: none.
     */
    private Optional<DeletionVectorFile> deletionVectors(
            ConnectorSession session,
            PaimonTable table,
            BinaryRow partition,
            int bucket,
            List<DataFileMeta> compacted,
            Map<String, RoaringBitmap> newlyDeleted,
            DeletionVectorIndex deletionVectors,
            Optional<IndexManifestEntry> vectorIndex)
    {
        Set<String> compactedNames = new HashSet<>();
        compacted.forEach(file -> compactedNames.add(file.fileName()));
        List<IndexManifestEntry.DeletionVectorRange> ranges = vectorIndex.flatMap(IndexManifestEntry::deletionVectorRanges).orElse(List.of());
        boolean dropsVectors = ranges.stream().anyMatch(range -> compactedNames.contains(range.dataFileName()));
        if (newlyDeleted.isEmpty() && !dropsVectors) {
            return vectorIndex.map(DeletionVectorFile::of);
        }
        TrinoFileSystem fileSystem = fileSystemFactory.create(session, table.name());
        Map<String, RoaringBitmap> vectors = new HashMap<>();
        for (IndexManifestEntry.DeletionVectorRange range : ranges) {
            if (!compactedNames.contains(range.dataFileName())) {
                PaimonDataFile.DeletionVectorReference reference = deletionVectors.of(partition, bucket, range.dataFileName())
                        .orElseThrow(() -> new TrinoException(PAIMON_INVALID_METADATA, "Table %s: the deletion vector of data file %s in %s is not in the snapshot's index".formatted(table.name(), range.dataFileName(), vectorIndex.get().fileName())));
                vectors.put(range.dataFileName(), DeletionVectors.read(fileSystem, reference));
            }
        }
        newlyDeleted.forEach((fileName, rows) -> vectors.merge(fileName, rows, (older, newer) -> RoaringBitmap.or(older, newer)));
        if (vectors.isEmpty()) {
            return Optional.empty();
        }
        DeletionVectorIndexFile.Encoded encoded = DeletionVectorIndexFile.encode(vectors, table.options().deletionVectorsBitmap64());
        String fileName = fileNames.get().indexFile();
        long size = DeletionVectorIndexFile.write(fileSystem, DeletionVectorIndexFile.location(table.location(), fileName), encoded);
        return Optional.of(new DeletionVectorFile(fileName, size, encoded.ranges(), Optional.empty(), true));
    }

    private static Page withoutKeys(Page page, KeyLookup lookup, Set<List<Object>> keys)
    {
        int[] kept = new int[page.getPositionCount()];
        int keptCount = 0;
        for (int position = 0; position < page.getPositionCount(); position++) {
            if (!keys.contains(lookup.key(page, position))) {
                kept[keptCount++] = position;
            }
        }
        return keptCount == page.getPositionCount() ? page : page.getPositions(kept, 0, keptCount);
    }
}
