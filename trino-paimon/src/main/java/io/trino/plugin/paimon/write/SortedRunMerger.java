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
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorSession;

import java.util.List;

/**
 * Merges the sorted runs one bucket writer flushed during a statement into a single sorted run of level 0, as Paimon's
 * spillable write buffer does: a statement whose rows overflow the write buffer still leaves one run per bucket, so a
 * key lookup reads one page per column instead of one per run. Reading the runs back takes the read path's merge, so
 * the implementation lives beside compaction, outside this package.
 */
public interface SortedRunMerger
{
    /**
     * @param runs the files of the runs, all in {@code bucketDirectory} at level 0; they are left in place
     * @param names the names of the merged run's files: the statement's, as those of the runs (under fault-tolerant
     * execution the coordinator tells a discarded task attempt's files by them)
     * @return the files of the merged run, in key order, at level 0 with file source APPEND
     */
    List<DataFileMeta> merge(ConnectorSession session, PaimonTable table, Location bucketDirectory, List<DataFileMeta> runs, MetadataFileNames names);
}
