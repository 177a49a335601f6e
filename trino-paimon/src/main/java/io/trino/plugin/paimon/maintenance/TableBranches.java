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

import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.PaimonTableName;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * The branches of a table as Paimon's branch manager makes them over the table's files ({@code create_branch},
 * {@code delete_branch}): a branch is the folder {@code branch/branch-<name>} with its own schemas, snapshots and
 * tags; its data files live in the table's own folders. A new branch is empty (the table's schemas), or starts at a
 * tag (the tag, its snapshot and the schemas up to the snapshot's).
 */
public final class TableBranches
{
    private static final String FALLBACK_BRANCH = "scan.fallback-branch";

    private final TrinoFileSystem fileSystem;
    private final PaimonTable table;

    /**
     * The branches of the table.
     *
     * @param table the table on the branch the new branches come from
     */
    public TableBranches(TrinoFileSystem fileSystem, PaimonTable table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
    }

    /**
     * Checks a new branch's name as Paimon does: not {@code main}, not blank, not only digits (Paimon reads those as
     * snapshot ids), and a folder name.
     */
    public static void checkNewBranchName(String tableName, String branch)
    {
        if (branch == null || branch.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Invalid branch name '%s' for Paimon table %s: it is blank".formatted(branch, tableName));
        }
        if (branch.equals(PaimonTableName.MAIN_BRANCH)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Invalid branch name 'main' for Paimon table %s: it names the main branch".formatted(tableName));
        }
        if (branch.chars().allMatch(Character::isDigit)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Invalid branch name '%s' for Paimon table %s: a branch name is not only digits".formatted(branch, tableName));
        }
        if (!TagFiles.isValidName(branch) || branch.contains("$")) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Invalid branch name '%s' for Paimon table %s: a branch name holds no '/', '\\' or '$'".formatted(branch, tableName));
        }
    }

    /**
     * Creates the branch. Its first schema file is created only if absent, so of two creations of one branch one
     * fails; a creation that fails halfway deletes the folder it made.
     */
    public void create(String branch, Optional<String> fromTag)
    {
        String tableName = table.name().toString();
        checkNewBranchName(tableName, branch);
        Location branchLocation = PaimonTable.branchLocation(table.location(), Optional.of(branch));
        SchemaFiles sourceSchemas = new SchemaFiles(fileSystem, table.metadataLocation());
        SchemaFiles branchSchemas = new SchemaFiles(fileSystem, branchLocation);
        Optional<Snapshot> tagged = Optional.empty();
        long lastSchemaId;
        if (fromTag.isPresent()) {
            tagged = new TagFiles(fileSystem, table.metadataLocation()).readTag(fromTag.get());
            if (tagged.isEmpty()) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot create branch '%s' of Paimon table %s: it has no tag '%s'".formatted(branch, tableName, fromTag.get()));
            }
            lastSchemaId = tagged.get().schemaId();
        }
        else {
            List<Long> ids = sourceSchemas.listSchemaIds();
            lastSchemaId = ids.isEmpty() ? -1 : ids.getLast();
        }
        List<Long> schemaIds = sourceSchemas.listSchemaIds().stream().filter(id -> id <= lastSchemaId).toList();
        if (!branchSchemas.listSchemaIds().isEmpty() || schemaIds.isEmpty()
                || !MetadataFiles.createAtomically(fileSystem, branchSchemas.schemaLocation(schemaIds.getFirst()), MetadataFiles.readFile(fileSystem, sourceSchemas.schemaLocation(schemaIds.getFirst())))) {
            throw new TrinoException(ALREADY_EXISTS, "Branch '%s' of Paimon table %s already exists".formatted(branch, tableName));
        }
        try {
            for (long id : schemaIds.subList(1, schemaIds.size())) {
                MetadataFiles.overwrite(fileSystem, branchSchemas.schemaLocation(id), MetadataFiles.readFile(fileSystem, sourceSchemas.schemaLocation(id)));
            }
            if (tagged.isPresent()) {
                TagFiles sourceTags = new TagFiles(fileSystem, table.metadataLocation());
                byte[] tag = sourceTags.readTagFile(fromTag.get()).orElseThrow();
                MetadataFiles.overwrite(fileSystem, new TagFiles(fileSystem, branchLocation).tagLocation(fromTag.get()), tag);
                // the snapshot's own file where it still exists; else the tag's snapshot (Paimon fails there)
                SnapshotFiles sourceSnapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
                byte[] snapshot = MetadataFiles.readIfExists(fileSystem, sourceSnapshots.snapshotLocation(tagged.get().id()))
                        .orElseGet(() -> sourceTags.snapshotFileOf(fromTag.get()).orElseThrow());
                MetadataFiles.overwrite(fileSystem, new SnapshotFiles(fileSystem, branchLocation).snapshotLocation(tagged.get().id()), snapshot);
            }
        }
        catch (RuntimeException e) {
            deleteFolder(branchLocation, e);
            throw e;
        }
    }

    /** Deletes the branch's folder: its schemas, snapshots, tags and changelog. Its data files are left for orphan file removal, as in Paimon. */
    public void delete(String branch)
    {
        String tableName = table.name().toString();
        if (branch == null || branch.equals(PaimonTableName.MAIN_BRANCH) || !TagFiles.isValidName(branch)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot delete branch '%s' of Paimon table %s: only a branch other than main can be deleted".formatted(branch, tableName));
        }
        if (branch.equals(table.schema().options().get(FALLBACK_BRANCH))) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot delete branch '%s' of Paimon table %s: it is the table's '%s'; unset that option first".formatted(branch, tableName, FALLBACK_BRANCH));
        }
        Location branchLocation = PaimonTable.branchLocation(table.location(), Optional.of(branch));
        if (new SchemaFiles(fileSystem, branchLocation).listSchemaIds().isEmpty()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Paimon table %s has no branch '%s'".formatted(tableName, branch));
        }
        try {
            fileSystem.deleteDirectory(branchLocation);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete branch '%s' of Paimon table %s in %s".formatted(branch, tableName, branchLocation), e);
        }
    }

    /**
     * {@code fast_forward}: the table, on the branch it is loaded on (normally main), takes the branch's history, as
     * Paimon's branch manager does: its snapshots from the branch's earliest one on, its schemas from that snapshot's
     * on and its tags of those snapshots are deleted, then every snapshot, schema and tag file of the branch (hints
     * included) is copied over. Data files are shared and stay.
     */
    public void fastForward(String branch)
    {
        String tableName = table.name().toString();
        if (branch == null || branch.isBlank() || branch.equals(PaimonTableName.MAIN_BRANCH) || !TagFiles.isValidName(branch)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot fast-forward Paimon table %s to branch '%s': name a branch other than main".formatted(tableName, branch));
        }
        if (table.branch().equals(Optional.of(branch))) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot fast-forward branch '%s' of Paimon table %s to itself".formatted(branch, tableName));
        }
        Location branchLocation = PaimonTable.branchLocation(table.location(), Optional.of(branch));
        if (new SchemaFiles(fileSystem, branchLocation).listSchemaIds().isEmpty()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Paimon table %s has no branch '%s'".formatted(tableName, branch));
        }
        SnapshotFiles branchSnapshots = new SnapshotFiles(fileSystem, branchLocation);
        long earliest = branchSnapshots.earliestSnapshotId().orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                "Cannot fast-forward Paimon table %s to branch '%s': the branch has no snapshot".formatted(tableName, branch)));
        long earliestSchemaId = branchSnapshots.readSnapshot(earliest).schemaId();

        Location target = table.metadataLocation();
        SnapshotFiles targetSnapshots = new SnapshotFiles(fileSystem, target);
        SchemaFiles targetSchemas = new SchemaFiles(fileSystem, target);
        TagFiles targetTags = new TagFiles(fileSystem, target);
        List<Location> replaced = new ArrayList<>();
        targetSnapshots.listSnapshotIds().stream().filter(id -> id >= earliest).forEach(id -> replaced.add(targetSnapshots.snapshotLocation(id)));
        targetSchemas.listSchemaIds().stream().filter(id -> id >= earliestSchemaId).forEach(id -> replaced.add(targetSchemas.schemaLocation(id)));
        for (String tag : targetTags.listTags()) {
            if (targetTags.readTag(tag).map(snapshot -> snapshot.id() >= earliest).orElse(false)) {
                replaced.add(targetTags.tagLocation(tag));
            }
        }
        replaced.add(target.appendPath(SnapshotFiles.SNAPSHOT_DIRECTORY).appendPath(SnapshotFiles.LATEST_HINT));
        for (Location location : replaced) {
            deleteIfExists(location);
        }
        for (String directory : List.of(SnapshotFiles.SNAPSHOT_DIRECTORY, SchemaFiles.SCHEMA_DIRECTORY, TagFiles.TAG_DIRECTORY)) {
            copyFiles(branchLocation.appendPath(directory), target.appendPath(directory));
        }
    }

    private void copyFiles(Location from, Location to)
    {
        List<Location> files = new ArrayList<>();
        try {
            FileIterator listing = fileSystem.listFiles(from);
            while (listing.hasNext()) {
                files.add(listing.next().location());
            }
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return;
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to list %s of Paimon table %s".formatted(from, table.name()), e);
        }
        for (Location file : files) {
            // listings are recursive: a file in a sub-folder is not a metadata file of this folder
            if (from.appendPath(file.fileName()).equals(file)) {
                MetadataFiles.overwrite(fileSystem, to.appendPath(file.fileName()), MetadataFiles.readFile(fileSystem, file));
            }
        }
    }

    private void deleteIfExists(Location location)
    {
        try {
            fileSystem.deleteFile(location);
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            // nothing to replace
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete %s of Paimon table %s".formatted(location, table.name()), e);
        }
    }

    private void deleteFolder(Location folder, RuntimeException failure)
    {
        try {
            fileSystem.deleteDirectory(folder);
        }
        catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
