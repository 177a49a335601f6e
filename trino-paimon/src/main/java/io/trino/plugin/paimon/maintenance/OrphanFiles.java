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
package io.trino.plugin.paimon.maintenance;

import io.airlift.log.Logger;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.ChangelogFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.stats.StatisticsFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Removes the files of a table that nothing references, as Paimon's {@code LocalOrphanFilesClean} does: files
 * modified before a time in {@code manifest/}, {@code index/}, {@code statistics/} and the bucket folders whose
 * names no snapshot, tag, long-lived changelog file or branch of the table refers to (directly, or through its
 * manifest lists, manifests and index manifest, DELETE entries included), and stray files in the {@code snapshot/}
 * and {@code changelog/} folders (left-over temporary files of interrupted commits) other than the snapshots, the
 * changelog files and their hints. Schema files, tags, snapshots, changelog files and hints are
 * never touched, nor any folder but the staging folders of {@code optimize} executions that died before their commit
 * or rollback (every file in them older than the time). When a snapshot, tag or manifest that exists cannot be read,
 * nothing is deleted.
 */
public final class OrphanFiles
{
    private static final Logger log = Logger.get(OrphanFiles.class);
    private static final String BUCKET_PREFIX = "bucket-";
    /**
     * The folders, directly in the table folder, where the workers of one {@code optimize} execution leave their
     * results for its commit. The execution removes its folder; one whose server was killed leaves it behind.
     */
    public static final String OPTIMIZE_STAGING_PREFIX = "_trino-optimize-";

    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;
    private final SnapshotScan scan;

    public OrphanFiles(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
        this.scan = new SnapshotScan(fileSystem, table.location());
    }

    /** What a removal did: the files it deleted and their bytes. */
    public record Result(List<Location> deletedFiles, long deletedBytes) {}

    /**
     * @param olderThanMillis files modified at or after this time are kept, whatever they are
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the branch or file when the table's metadata
     * cannot be read in full, in which case nothing was deleted
     */
    public Result remove(long olderThanMillis)
    {
        List<Location> roots = new ArrayList<>();
        roots.add(table.location());
        roots.addAll(BranchSnapshots.branchRoots(fileSystem, table));

        List<FileEntry> deletable = new ArrayList<>();
        for (Location root : roots) {
            deletable.addAll(strayFiles(root.appendPath(SnapshotFiles.SNAPSHOT_DIRECTORY), "snapshot-", olderThanMillis));
            deletable.addAll(strayFiles(root.appendPath(ChangelogFiles.CHANGELOG_DIRECTORY), ChangelogFiles.CHANGELOG_PREFIX, olderThanMillis));
        }

        Map<String, FileEntry> candidates = new HashMap<>();
        List<Location> directories = new ArrayList<>(List.of(
                table.location().appendPath(SnapshotScan.MANIFEST_DIRECTORY),
                table.location().appendPath(SnapshotScan.INDEX_DIRECTORY),
                table.location().appendPath(StatisticsFiles.STATISTICS_DIRECTORY)));
        directories.addAll(bucketDirectories(table.dataLocation(), table.partitionFields().size()));
        for (Location directory : directories) {
            for (FileEntry file : listFiles(directory)) {
                if (file.lastModified().toEpochMilli() < olderThanMillis) {
                    candidates.put(file.location().fileName(), file);
                }
            }
        }
        if (!candidates.isEmpty()) {
            Set<String> used = new HashSet<>();
            for (Location root : roots) {
                for (Snapshot snapshot : BranchSnapshots.snapshotsAndTags(fileSystem, root)) {
                    addUsedFiles(snapshot, candidates.keySet(), used);
                }
                // a long-lived changelog file names the changelog (or appended data) of a snapshot that expired
                ChangelogFiles changelogs = new ChangelogFiles(fileSystem, root);
                for (long id : changelogs.listIds()) {
                    changelogs.read(id).ifPresent(changelog -> addUsedFiles(changelog, candidates.keySet(), used));
                }
            }
            candidates.keySet().removeAll(used);
            deletable.addAll(candidates.values());
        }

        List<Location> deleted = new ArrayList<>();
        long bytes = 0;
        for (FileEntry file : deletable) {
            try {
                fileSystem.deleteFile(file.location());
                deleted.add(file.location());
                bytes += file.length();
            }
            catch (IOException e) {
                log.warn(e, "Could not delete orphan file %s of %s", file.location(), table.name());
            }
        }
        for (Location staging : abandonedStagingFolders(olderThanMillis)) {
            List<FileEntry> files = listFilesRecursively(staging);
            try {
                fileSystem.deleteDirectory(staging);
                files.forEach(file -> deleted.add(file.location()));
                bytes += files.stream().mapToLong(FileEntry::length).sum();
            }
            catch (IOException e) {
                log.warn(e, "Could not delete the staging folder %s of an optimize execution of %s", staging, table.name());
            }
        }
        log.info("Removed %s orphan files (%s bytes) of %s", deleted.size(), bytes, table.name());
        return new Result(deleted, bytes);
    }

    /** The files of a folder of numbered metadata files that are neither those files nor their hints. */
    private List<FileEntry> strayFiles(Location directory, String prefix, long olderThanMillis)
    {
        return listFiles(directory).stream()
                .filter(file -> {
                    String name = file.location().fileName();
                    return !name.startsWith(prefix) && !name.equals(SnapshotFiles.LATEST_HINT) && !name.equals(SnapshotFiles.EARLIEST_HINT);
                })
                .filter(file -> file.lastModified().toEpochMilli() < olderThanMillis)
                .toList();
    }

    private void addUsedFiles(Snapshot snapshot, Set<String> candidates, Set<String> used)
    {
        List<ManifestFileMeta> manifests = new ArrayList<>();
        used.add(snapshot.baseManifestList());
        manifests.addAll(readIfPresent(snapshot.baseManifestList(), snapshot.baseManifestListSize()));
        used.add(snapshot.deltaManifestList());
        manifests.addAll(readIfPresent(snapshot.deltaManifestList(), snapshot.deltaManifestListSize()));
        if (snapshot.changelogManifestList().isPresent()) {
            used.add(snapshot.changelogManifestList().get());
            manifests.addAll(readIfPresent(snapshot.changelogManifestList().get(), snapshot.changelogManifestListSize()));
        }
        for (ManifestFileMeta manifest : manifests) {
            used.add(manifest.fileName());
            for (ManifestEntry entry : readManifestIfPresent(manifest)) {
                if (candidates.contains(entry.file().fileName())) {
                    used.add(entry.file().fileName());
                }
                for (String extraFile : entry.file().extraFiles()) {
                    if (candidates.contains(extraFile)) {
                        used.add(extraFile);
                    }
                }
            }
        }
        snapshot.indexManifest().ifPresent(indexManifest -> {
            used.add(indexManifest);
            if (exists(scan.manifestLocation(indexManifest))) {
                scan.readIndexManifest(indexManifest).forEach(entry -> used.add(entry.fileName()));
            }
        });
        snapshot.statistics().ifPresent(used::add);
    }

    // a metadata file of a snapshot that expired while this runs is gone; one that exists must be read
    private List<ManifestFileMeta> readIfPresent(String manifestList, OptionalLong size)
    {
        return exists(scan.manifestLocation(manifestList)) ? scan.readManifestList(manifestList, size) : List.of();
    }

    private List<ManifestEntry> readManifestIfPresent(ManifestFileMeta manifest)
    {
        return exists(scan.manifestLocation(manifest.fileName())) ? scan.readManifest(manifest) : List.of();
    }

    /**
     * The staging folders of {@code optimize} executions whose files are all older than the time: a running
     * execution keeps a recent file there (its marker, or the results of its latest buckets).
     */
    private List<Location> abandonedStagingFolders(long olderThanMillis)
    {
        List<Location> abandoned = new ArrayList<>();
        for (Location folder : listDirectories(table.location())) {
            if (folder.fileName().startsWith(OPTIMIZE_STAGING_PREFIX)
                    && listFilesRecursively(folder).stream().allMatch(file -> file.lastModified().toEpochMilli() < olderThanMillis)) {
                abandoned.add(folder);
            }
        }
        return abandoned;
    }

    /** The bucket folders under the partition folders ({@code key=value}) of each level. */
    private List<Location> bucketDirectories(Location directory, int partitionLevels)
    {
        List<Location> buckets = new ArrayList<>();
        for (Location child : listDirectories(directory)) {
            String name = child.fileName();
            if (partitionLevels == 0 && name.startsWith(BUCKET_PREFIX)) {
                buckets.add(child);
            }
            else if (partitionLevels > 0 && name.contains("=")) {
                buckets.addAll(bucketDirectories(child, partitionLevels - 1));
            }
        }
        return buckets;
    }

    /** The files directly in a folder; none when it does not exist. */
    private List<FileEntry> listFiles(Location directory)
    {
        // only the folder's own files: the listing is recursive
        return listFilesRecursively(directory).stream()
                .filter(file -> sameFolder(file.location(), directory))
                .toList();
    }

    /** The files in a folder and the folders below it; none when it does not exist. */
    private List<FileEntry> listFilesRecursively(Location directory)
    {
        List<FileEntry> files = new ArrayList<>();
        try {
            FileIterator iterator = fileSystem.listFiles(directory);
            while (iterator.hasNext()) {
                files.add(iterator.next());
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return List.of();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list %s of table %s".formatted(directory, table.name()), e);
        }
        return files;
    }

    // listings may spell a folder with or without its trailing slash
    private static boolean sameFolder(Location file, Location directory)
    {
        String parent = file.parentDirectory().toString();
        String folder = directory.toString();
        return stripSlash(parent).equals(stripSlash(folder));
    }

    private static String stripSlash(String path)
    {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private List<Location> listDirectories(Location directory)
    {
        try {
            return List.copyOf(fileSystem.listDirectories(directory)).stream()
                    .map(location -> Location.of(stripSlash(location.toString())))
                    .toList();
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return List.of();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list %s of table %s".formatted(directory, table.name()), e);
        }
    }

    private boolean exists(Location location)
    {
        try {
            return fileSystem.newInputFile(location).exists();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to check %s of table %s".formatted(location, table.name()), e);
        }
    }
}
