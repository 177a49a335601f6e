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
package io.trino.plugin.paimon.format.manifest;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.avro.AvroFiles;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.format.manifest.SnapshotScan.MANIFEST_DIRECTORY;
import static java.util.Objects.requireNonNull;

/**
 * Writes manifests, manifest lists and index manifests of one table, each under a fresh name, with the statistics
 * Paimon's readers prune by (partition stats, bucket and level ranges).
 */
public final class ManifestWriter
{
    private final TrinoFileSystem fileSystem;
    private final Location manifestDirectory;
    private final MetadataFileNames names;

    public ManifestWriter(TrinoFileSystem fileSystem, Location tableLocation, MetadataFileNames names)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.manifestDirectory = requireNonNull(tableLocation, "tableLocation is null").appendPath(MANIFEST_DIRECTORY);
        this.names = requireNonNull(names, "names is null");
    }

    /** Writes the entries as one manifest and describes it for a manifest list. */
    public ManifestFileMeta writeManifest(List<ManifestEntry> entries, List<DataType> partitionTypes, long schemaId)
    {
        checkArgument(!entries.isEmpty(), "a manifest needs at least one entry");
        SimpleStatsCollector partitionStats = new SimpleStatsCollector(partitionTypes);
        long added = 0;
        long deleted = 0;
        long maxSchemaId = Long.MIN_VALUE;
        int minBucket = Integer.MAX_VALUE;
        int maxBucket = Integer.MIN_VALUE;
        int minLevel = Integer.MAX_VALUE;
        int maxLevel = Integer.MIN_VALUE;
        for (ManifestEntry entry : entries) {
            partitionStats.add(entry.partition());
            if (entry.kind() == ManifestEntry.FileKind.ADD) {
                added++;
            }
            else {
                deleted++;
            }
            maxSchemaId = Math.max(maxSchemaId, entry.file().schemaId());
            minBucket = Math.min(minBucket, entry.bucket());
            maxBucket = Math.max(maxBucket, entry.bucket());
            minLevel = Math.min(minLevel, entry.file().level());
            maxLevel = Math.max(maxLevel, entry.file().level());
        }
        String name = names.manifest();
        long size = write(name, AvroFiles.write(ManifestAvro.MANIFEST_SCHEMA, entries, ManifestAvro::encodeManifestEntry));
        return new ManifestFileMeta(
                name,
                size,
                added,
                deleted,
                partitionStats.build(),
                Math.max(maxSchemaId, schemaId),
                OptionalInt.of(minBucket),
                OptionalInt.of(maxBucket),
                OptionalInt.of(minLevel),
                OptionalInt.of(maxLevel),
                OptionalLong.empty(),
                OptionalLong.empty());
    }

    public WrittenFile writeManifestList(List<ManifestFileMeta> manifests)
    {
        String name = names.manifestList();
        return new WrittenFile(name, write(name, AvroFiles.write(ManifestAvro.MANIFEST_LIST_SCHEMA, manifests, ManifestAvro::encodeManifestFileMeta)));
    }

    public WrittenFile writeIndexManifest(List<IndexManifestEntry> entries)
    {
        String name = names.indexManifest();
        return new WrittenFile(name, write(name, AvroFiles.write(ManifestAvro.INDEX_MANIFEST_SCHEMA, entries, ManifestAvro::encodeIndexManifestEntry)));
    }

    /** Removes a file this writer created, after a failed commit. */
    public void delete(String name)
    {
        try {
            fileSystem.deleteFile(manifestDirectory.appendPath(name));
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to delete " + manifestDirectory.appendPath(name), e);
        }
    }

    private long write(String name, byte[] content)
    {
        Location location = manifestDirectory.appendPath(name);
        try {
            // fresh unique names: a plain create is enough, nobody else writes this file
            fileSystem.newOutputFile(location).createOrOverwrite(content);
        }
        catch (IOException e) {
            TrinoException failure = new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write " + location, e);
            // the file may exist although the write failed; nothing refers to it yet
            try {
                fileSystem.deleteFile(location);
            }
            catch (IOException | RuntimeException deleteFailure) {
                failure.addSuppressed(deleteFailure);
            }
            throw failure;
        }
        return content.length;
    }

    public record WrittenFile(String name, long size)
    {
        public WrittenFile
        {
            requireNonNull(name, "name is null");
        }
    }
}
