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
package io.trino.plugin.paimon.write;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Creates the data files of one page sink or compaction, named as Paimon names them ({@code data-<uuid>-<n>.<format>},
 * one uuid per writer; changelog files {@code changelog-<uuid>-<n>.<format>}), in the format of the level they are
 * written at and the changelog format, and remembers every file it created so that an abort
 * deletes exactly those. Knows the table's target file size, at which a sorted run rolls over to its next file, and
 * whether the input is also written as changelog ({@code changelog-producer} = {@code input}).
 */
final class DataFiles
{
    private final TrinoFileSystem fileSystem;
    private final DataFileLayout layout;
    private final long schemaId;
    private final FileWriteFormat dataFormat;
    private final FileWriteFormat changelogFormat;
    private final long targetFileSize;
    private final boolean inputChangelog;
    private final MetadataFileNames names;
    private final List<Location> created = new ArrayList<>();
    private final List<KeyValueFileWriter> writers = new ArrayList<>();

    /**
     * @param dataFormat the format of the level the data files are written at
     * @param names how the files are named: a statement's page sinks name them as the statement's (see
     * {@link MetadataFileNames#ofStatement})
     */
    DataFiles(TrinoFileSystem fileSystem, DataFileLayout layout, long schemaId, FileWriteFormat dataFormat, FileWriteFormat changelogFormat, long targetFileSize, boolean inputChangelog, MetadataFileNames names)
    {
        this.names = requireNonNull(names, "names is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.schemaId = schemaId;
        this.dataFormat = requireNonNull(dataFormat, "dataFormat is null");
        this.changelogFormat = requireNonNull(changelogFormat, "changelogFormat is null");
        this.targetFileSize = targetFileSize;
        this.inputChangelog = inputChangelog;
    }

    synchronized KeyValueFileWriter create(Location bucketDirectory)
    {
        Location location = bucketDirectory.appendPath(names.dataFile(dataFormat.format().extension()));
        created.add(location);
        return track(new KeyValueFileWriter(fileSystem, location, layout, schemaId, dataFormat));
    }

    synchronized KeyValueFileWriter createChangelog(Location bucketDirectory)
    {
        Location location = bucketDirectory.appendPath(names.changelogFile(changelogFormat.format().extension()));
        created.add(location);
        return track(new KeyValueFileWriter(fileSystem, location, layout, schemaId, changelogFormat));
    }

    /** The name of a new key index file, from the same writer UUID as the data files. */
    String indexFileName()
    {
        return names.indexFile();
    }

    /** A writer of one sorted run into files of the target size in the bucket's directory. */
    RollingFileWriter rollingDataFiles(Location bucketDirectory)
    {
        return new RollingFileWriter(() -> create(bucketDirectory), targetFileSize);
    }

    /** A writer of the changelog of one flush into files of the target size in the bucket's directory. */
    RollingFileWriter rollingChangelogFiles(Location bucketDirectory)
    {
        return new RollingFileWriter(() -> createChangelog(bucketDirectory), targetFileSize);
    }

    long targetFileSize()
    {
        return targetFileSize;
    }

    /** Whether the input of a primary-key table is written as changelog files beside its data files. */
    boolean inputChangelog()
    {
        return inputChangelog;
    }

    /** Bytes the files of this sink hold in storage so far: the closed files whole, the open ones' flushed row groups. */
    synchronized long writtenBytes()
    {
        long bytes = 0;
        for (KeyValueFileWriter writer : writers) {
            bytes += writer.writtenBytes();
        }
        return bytes;
    }

    private KeyValueFileWriter track(KeyValueFileWriter writer)
    {
        writers.add(writer);
        return writer;
    }

    synchronized List<Location> created()
    {
        return List.copyOf(created);
    }

    TrinoFileSystem fileSystem()
    {
        return fileSystem;
    }
}
