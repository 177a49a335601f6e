package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.airlift.log.Logger;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.catalog.CompactionConflictCheck;
import io.trino.plugin.paimon.catalog.IndexManifestUpdate;
import io.trino.plugin.paimon.catalog.SnapshotCommitter;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.Snapshot.CommitKind;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.procedure.CompactionFragment;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_COMMIT_STATE_UNKNOWN;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Commits compactions of buckets as one COMPACT snapshot, as Paimon's commit of compaction results does
 * (paimon-format.md §11): a DELETE entry for every file replaced, at the level it had, and an ADD entry for every file
 * written. A commit since the compacted snapshot that removed a replaced file fails it with TRANSACTION_CONFLICT
 * ({@link CompactionConflictCheck}); new files in the same buckets do not. Nothing compacted: no snapshot. When the
 * commit surely did not land, the written files are deleted.
 */
final class CompactionCommit
{
    private static final Logger log = Logger.get(CompactionCommit.class);

    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;

    CompactionCommit(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
    }

    /**
     * @param baseSnapshotId the snapshot whose files were compacted
     * @param commitIdentifier the commit user of the snapshot (a statement's APPEND and COMPACT snapshots share it)
     * @return the committed snapshot, if anything was compacted
     */
    Optional<Snapshot> commit(long baseSnapshotId, List<CompactionFragment> fragments, String commitIdentifier, String queryId)
    {
        if (fragments.isEmpty()) {
            return Optional.empty();
        }
        String tableName = table.name().toString();
        Location location = table.location();
        Snapshot base = new SnapshotFiles(fileSystem, location).readSnapshot(baseSnapshotId);
        Map<String, ManifestEntry> live = new HashMap<>();
        for (ManifestEntry entry : new SnapshotScan(fileSystem, location).liveFiles(base, ScanFilter.ALL)) {
            live.put(fileKey(entry.partition().bytes(), entry.bucket(), entry.file().fileName()), entry);
        }
        ImmutableList.Builder<ManifestEntry> deleted = ImmutableList.builder();
        ImmutableList.Builder<ManifestEntry> added = ImmutableList.builder();
        for (CompactionFragment fragment : fragments) {
            byte[] partition = BinaryRow.deserialize(fragment.partition()).bytes();
            for (String fileName : fragment.compactedFiles()) {
                ManifestEntry entry = live.get(fileKey(partition, fragment.bucket(), fileName));
                if (entry == null) {
                    throw new TrinoException(GENERIC_INTERNAL_ERROR, "Table %s: compacted file %s is not live in snapshot %s".formatted(tableName, fileName, baseSnapshotId));
                }
                deleted.add(new ManifestEntry(FileKind.DELETE, entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file()));
            }
            for (WrittenFile file : fragment.writtenFiles()) {
                added.add(file.toManifestEntry());
            }
        }
        List<ManifestEntry> deletes = deleted.build();
        List<ManifestEntry> adds = added.build();
        CompactionConflictCheck check = new CompactionConflictCheck(fileSystem, location, tableName, OptionalLong.of(baseSnapshotId), deletes.stream().map(ManifestEntry::identifier).collect(toImmutableSet()));
        SnapshotCommitter committer = new SnapshotCommitter(fileSystem, location, table.schema(), commitIdentifier, table.options().commitMaxRetries());
        Map<String, String> properties = ImmutableMap.of(InsertCommit.COMMIT_ID_PROPERTY, commitIdentifier, InsertCommit.QUERY_ID_PROPERTY, queryId);
        try {
            List<ManifestEntry> changes = ImmutableList.<ManifestEntry>builder().addAll(deletes).addAll(adds).build();
            return Optional.of(committer.commit(CommitKind.COMPACT, changes, List.of(), IndexManifestUpdate.NONE, false, properties, check));
        }
        catch (RuntimeException e) {
            if (e instanceof TrinoException trinoException && !trinoException.getErrorCode().equals(PAIMON_COMMIT_STATE_UNKNOWN.toErrorCode())) {
                deleteWritten(adds, e);
            }
            else {
                log.warn(e, "Compaction commit to %s failed with an unknown outcome; its data files are left in place", tableName);
            }
            throw e;
        }
    }

    private void deleteWritten(List<ManifestEntry> files, RuntimeException failure)
    {
        for (ManifestEntry entry : files) {
            Location file = table.bucketLocation(entry.partition(), entry.bucket()).appendPath(entry.file().fileName());
            try {
                fileSystem.deleteFile(file);
            }
            catch (IOException e) {
                failure.addSuppressed(new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete compacted data file " + file, e));
            }
        }
    }

    private static String fileKey(byte[] partition, int bucket, String fileName)
    {
        return HexFormat.of().formatHex(partition) + "/" + bucket + "/" + fileName;
    }
}
