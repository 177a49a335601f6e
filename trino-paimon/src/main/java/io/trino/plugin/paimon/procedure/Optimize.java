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

import com.google.common.collect.ImmutableList;
import io.airlift.json.JsonCodec;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonOptimizeHandle;
import io.trino.plugin.paimon.PaimonTableExecuteHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.maintenance.OrphanFiles;
import io.trino.plugin.paimon.table.AppendCompactionOptions;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.WriteRestrictions;
import io.trino.plugin.paimon.write.WrittenFile;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.BeginTableExecuteResult;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableHandle;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The coordinator's part of {@code ALTER TABLE t EXECUTE optimize [WHERE ...]}: which tables it takes, the snapshot
 * and staging folder of one execution, and collecting the workers' {@link CompactionFragment}s for the commit.
 */
public final class Optimize
{
    /**
     * The file in the staging folder that says the execution may still commit. Trino cleans up a failed query while
     * tasks of its other buckets may still run, so a rollback removes this first, and a worker that finds it gone
     * after leaving its fragment removes its own files: either the rollback listed the fragment, or the worker sees
     * the rollback.
     */
    private static final String OPEN_MARKER = "OPEN";
    private static final String FRAGMENT_SUFFIX = ".json";

    private Optimize() {}

    /** Tables that this connector can write, primary-key and append tables (compaction writes data files as a write does). */
    public static PaimonTableExecuteHandle executeHandle(PaimonTable table)
    {
        String tableName = table.name().toString();
        if (!table.hasPrimaryKey() && AppendCompactionOptions.of(tableName, table.schema().options()).incrementalClustering()) {
            // Paimon compacts such tables by clustering columns into levels; a plain rewrite would undo the clustering
            throw new TrinoException(NOT_SUPPORTED, "Table %s: optimize of an append table with incremental clustering (clustering.incremental) is not supported".formatted(tableName));
        }
        WriteRestrictions.checkInsertable(tableName, table.schema(), table.options());
        return new PaimonTableExecuteHandle(table.name(), new PaimonOptimizeHandle(table, OptionalLong.empty(), Optional.empty()));
    }

    /**
     * Pins the snapshot the scan planned and names a fresh staging folder. A {@code WHERE} clause may only select
     * partitions: a compaction rewrites whole buckets.
     */
    public static BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> begin(PaimonTableExecuteHandle handle, PaimonTableHandle source)
    {
        PaimonTable table = source.table();
        Set<String> partitionColumns = table.partitionFields().stream().map(DataField::name).collect(toImmutableSet());
        source.constraint().getDomains().ifPresent(domains -> {
            for (PaimonColumnHandle column : domains.keySet()) {
                if (!partitionColumns.contains(column.name())) {
                    throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Table %s: the WHERE clause of optimize may only use partition columns %s, not %s".formatted(table.name(), partitionColumns, column.name()));
                }
            }
        });
        String staging = table.location().appendPath(OrphanFiles.OPTIMIZE_STAGING_PREFIX + UUID.randomUUID()).toString();
        PaimonTableExecuteHandle begun = new PaimonTableExecuteHandle(handle.schemaTableName(), new PaimonOptimizeHandle(table, source.snapshotId(), Optional.of(staging)));
        return new BeginTableExecuteResult<>(begun, source.forOptimize(staging));
    }

    /** Marks the execution's staging folder open, before any worker runs. */
    public static void open(TrinoFileSystem fileSystem, PaimonOptimizeHandle handle)
    {
        Location marker = openMarker(Location.of(handle.stagingLocation().orElseThrow()));
        try {
            fileSystem.newOutputFile(marker).create().close();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to create the staging folder of an optimize execution: " + marker, e);
        }
    }

    /** Whether the execution whose staging folder this is was rolled back, so the workers' results are not wanted. */
    public static boolean isAbandoned(TrinoFileSystem fileSystem, Location staging)
    {
        Location marker = openMarker(staging);
        try {
            return !fileSystem.newInputFile(marker).exists();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to check the staging marker " + marker, e);
        }
    }

    /**
     * A new fragment file of a bucket: under fault-tolerant execution a bucket may be compacted by several task
     * attempts, each leaving its own fragment, of which the commit takes one.
     */
    public static Location fragmentLocation(Location staging, String bucketId)
    {
        return staging.appendPath(bucketId + "." + UUID.randomUUID() + FRAGMENT_SUFFIX);
    }

    private static Location openMarker(Location staging)
    {
        return staging.appendPath(OPEN_MARKER);
    }

    /**
     * The fragments of every bucket the split source planned; fails when one is missing. A bucket compacted by more
     * than one task attempt keeps one of their results, any being a compaction of the same files; the files of the
     * others are deleted.
     */
    public static List<CompactionFragment> fragments(TrinoFileSystem fileSystem, JsonCodec<CompactionFragment> codec, PaimonOptimizeHandle handle, List<Object> splitSourceInfo)
    {
        Location staging = Location.of(handle.stagingLocation().orElseThrow());
        Map<String, CompactionFragment> found = new HashMap<>();
        for (CompactionFragment fragment : stagedFragments(fileSystem, codec, staging)) {
            CompactionFragment kept = found.putIfAbsent(OptimizeSplit.bucketId(fragment.partition(), fragment.bucket()), fragment);
            if (kept != null) {
                deleteWrittenFiles(fileSystem, handle.table(), fragment);
            }
        }
        ImmutableList.Builder<CompactionFragment> fragments = ImmutableList.builder();
        for (String bucket : TableExecuteSplitManager.bucketIds(splitSourceInfo)) {
            CompactionFragment fragment = found.get(bucket);
            if (fragment == null) {
                throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: the compaction of bucket %s left no result in %s".formatted(handle.table().name(), bucket, staging));
            }
            fragments.add(fragment);
        }
        return fragments.build();
    }

    /**
     * Undoes an execution that never reached its commit (a worker failed, the query was cancelled): deletes the files
     * of the buckets whose compaction finished, as their fragments list them, then the staging folder. A bucket whose
     * compaction failed removed its own files when its sink was aborted.
     */
    public static void abandon(TrinoFileSystem fileSystem, JsonCodec<CompactionFragment> codec, PaimonOptimizeHandle handle)
    {
        PaimonTable table = handle.table();
        Location staging = Location.of(handle.stagingLocation().orElseThrow());
        try {
            fileSystem.deleteFile(openMarker(staging));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to close the staging folder " + staging, e);
        }
        for (CompactionFragment fragment : stagedFragments(fileSystem, codec, staging)) {
            deleteWrittenFiles(fileSystem, table, fragment);
        }
        removeStaging(fileSystem, handle);
    }

    private static void deleteWrittenFiles(TrinoFileSystem fileSystem, PaimonTable table, CompactionFragment fragment)
    {
        for (WrittenFile written : fragment.allWrittenFiles()) {
            ManifestEntry entry = written.toManifestEntry();
            Location file = table.bucketLocation(entry.partition(), entry.bucket()).appendPath(entry.file().fileName());
            try {
                fileSystem.deleteFile(file);
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Table %s: failed to delete compacted data file %s".formatted(table.name(), file), e);
            }
        }
    }

    private static List<CompactionFragment> stagedFragments(TrinoFileSystem fileSystem, JsonCodec<CompactionFragment> codec, Location staging)
    {
        ImmutableList.Builder<CompactionFragment> fragments = ImmutableList.builder();
        try {
            FileIterator files = fileSystem.listFiles(staging);
            while (files.hasNext()) {
                FileEntry file = files.next();
                if (!file.location().fileName().endsWith(FRAGMENT_SUFFIX)) {
                    continue;
                }
                TrinoInputFile input = fileSystem.newInputFile(file.location());
                try (InputStream stream = input.newStream()) {
                    fragments.add(codec.fromJson(stream.readAllBytes()));
                }
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to read the compaction fragments in " + staging, e);
        }
        return fragments.build();
    }

    /** Removes the staging folder of an execution, whatever became of it. */
    public static void removeStaging(TrinoFileSystem fileSystem, PaimonOptimizeHandle handle)
    {
        if (handle.stagingLocation().isEmpty()) {
            return;
        }
        try {
            fileSystem.deleteDirectory(Location.of(handle.stagingLocation().get()));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to remove the staging folder " + handle.stagingLocation().get(), e);
        }
    }
}
