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

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;

/**
 * The snapshots and tags of a table's branches ({@code branch/branch-<name>}). A branch keeps its own snapshot, tag
 * and schema files but shares the table's data, manifest, index and statistics files: a branch made from a tag starts
 * with a copy of the tag's snapshot, which names the main branch's manifest lists. Whatever cleans the table's files
 * must keep every file these snapshots reach.
 */
final class BranchSnapshots
{
    private BranchSnapshots() {}

    /**
     * The folders of the table's branches.
     *
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the branch when one has no schema: it is broken or
     * half created, and what it references cannot be known
     */
    static List<Location> branchRoots(TrinoFileSystem fileSystem, PaimonTable table)
    {
        Location directory = table.location().appendPath(PaimonTable.BRANCH_DIRECTORY);
        List<Location> branches = new ArrayList<>();
        List<Location> folders;
        try {
            folders = List.copyOf(fileSystem.listDirectories(directory));
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return List.of();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list the branches of Paimon table %s in %s".formatted(table.name(), directory), e);
        }
        for (Location folder : folders) {
            // listings may spell a folder with its trailing slash
            Location branch = Location.of(folder.toString().replaceFirst("/$", ""));
            if (!branch.fileName().startsWith(PaimonTable.BRANCH_FOLDER_PREFIX)) {
                continue;
            }
            if (new SchemaFiles(fileSystem, branch).listSchemaIds().isEmpty()) {
                throw new TrinoException(PAIMON_INVALID_METADATA, "Branch %s of Paimon table %s has no schema, so the files it uses cannot be known; check it by hand".formatted(branch, table.name()));
            }
            branches.add(branch);
        }
        return branches;
    }

    /**
     * Every snapshot and tag under a branch folder (or the table's); a snapshot that expires while they are listed is
     * left out.
     *
     * @throws TrinoException when a snapshot or tag that exists cannot be read
     */
    static List<Snapshot> snapshotsAndTags(TrinoFileSystem fileSystem, Location root)
    {
        List<Snapshot> found = new ArrayList<>();
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, root);
        for (long id : snapshots.listSnapshotIds()) {
            try {
                found.add(snapshots.readSnapshot(id));
            }
            catch (TrinoException e) {
                if (snapshots.snapshotExists(id)) {
                    throw e;
                }
            }
        }
        TagFiles tags = new TagFiles(fileSystem, root);
        for (String tag : tags.listTags()) {
            tags.readTag(tag).ifPresent(found::add);
        }
        return found;
    }
}
