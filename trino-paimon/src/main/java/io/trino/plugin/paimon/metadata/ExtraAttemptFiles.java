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
package io.trino.plugin.paimon.metadata;

import io.airlift.log.Logger;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.index.HashIndexFile;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.write.CompactionFragment;
import io.trino.plugin.paimon.write.DeletionVectorFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Under fault-tolerant execution a write task may run more than once (a failed attempt, a speculative one), and the
 * engine hands the commit the fragments of one successful attempt per task. The files of the other attempts carry
 * the statement's part in their names (see {@link MetadataFileNames#ofStatement}); this deletes those of them that
 * lie beside the files being committed, in their bucket folders and the key index folder. A folder that only a
 * discarded attempt wrote to is not listed (an attempt's input, and so its buckets, is the one of its task);
 * {@code remove_orphan_files} removes what may remain there.
 * <p>
 * Where the page sinks compact the buckets they wrote, their compactions' files are named after the statement too:
 * those of the committed attempts' compactions are kept (their commit, or their discard when a concurrent commit
 * changed the bucket, follows the statement's), the other attempts' are deleted with their data files, and their
 * deletion-vector index files from the key index folder.
 */
final class ExtraAttemptFiles
{
    private static final Logger log = Logger.get(ExtraAttemptFiles.class);

    private ExtraAttemptFiles() {}

    /**
     * Deletes the statement's files that are not committed; returns how many. A file that cannot be deleted is logged.
     *
     * @param compactions the compactions of the committed attempts' page sinks
     * @param sinksCompacted whether the statement's page sinks compact the buckets they write
     */
    static int delete(TrinoFileSystem fileSystem, PaimonTable table, String commitIdentifier, List<ManifestEntry> files, List<IndexManifestEntry> indexFiles, List<CompactionFragment> compactions, boolean sinksCompacted)
    {
        // names are unique (a UUID per writer), and listings may spell a folder otherwise than the table does
        Set<String> committed = new HashSet<>();
        Set<Location> folders = new LinkedHashSet<>();
        for (ManifestEntry entry : files) {
            Location location = table.dataFileLocation(table.partitionPath(entry.partition()), entry.bucket(), entry.file());
            committed.add(location.fileName());
            folders.add(location.parentDirectory());
        }
        indexFiles.forEach(entry -> committed.add(entry.fileName()));
        for (CompactionFragment compaction : compactions) {
            compaction.allWrittenFiles().forEach(file -> committed.add(file.toManifestEntry().file().fileName()));
            compaction.deletionVectors().filter(DeletionVectorFile::written).ifPresent(vectors -> committed.add(vectors.fileName()));
        }
        // an attempt may have written key index files though the committed attempt changed no bucket's keys, and an
        // attempt's compaction a deletion-vector index file though the committed attempt's wrote none
        if ((table.hasPrimaryKey() && table.options().bucket() == TableOptions.DYNAMIC_BUCKET) || (sinksCompacted && table.options().deletionVectorsEnabled())) {
            folders.add(table.location().appendPath(HashIndexFile.INDEX_DIRECTORY));
        }
        List<Location> extra = new ArrayList<>();
        for (Location folder : folders) {
            try {
                FileIterator listed = fileSystem.listFiles(folder);
                while (listed.hasNext()) {
                    Location location = listed.next().location();
                    if (MetadataFileNames.isOfStatement(location.fileName(), commitIdentifier) && !committed.contains(location.fileName())) {
                        extra.add(location);
                    }
                }
            }
            catch (IOException e) {
                log.warn(e, "Table %s: could not list %s for the files of discarded task attempts", table.name(), folder);
            }
        }
        int deleted = 0;
        for (Location location : extra) {
            try {
                fileSystem.deleteFile(location);
                deleted++;
            }
            catch (IOException e) {
                log.warn(e, "Table %s: could not delete %s, written by a discarded task attempt", table.name(), location);
            }
        }
        return deleted;
    }
}
