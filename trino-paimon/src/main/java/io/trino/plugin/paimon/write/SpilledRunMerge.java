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

import static java.util.Objects.requireNonNull;

/** The {@link SortedRunMerger} of one statement's page sink, bound to its session, table and the statement's file names. */
record SpilledRunMerge(SortedRunMerger merger, ConnectorSession session, PaimonTable table, MetadataFileNames names)
{
    SpilledRunMerge
    {
        requireNonNull(merger, "merger is null");
        requireNonNull(session, "session is null");
        requireNonNull(table, "table is null");
        requireNonNull(names, "names is null");
    }

    /**
     * The bucket's runs merged into one.
     *
     * @param outputBufferLimit the most the merged run's open file may buffer ({@link OutputBufferLimit})
     */
    List<DataFileMeta> merge(Location bucketDirectory, List<DataFileMeta> runs, long outputBufferLimit)
    {
        return merger.merge(session, OutputBufferLimit.apply(table, outputBufferLimit), bucketDirectory, runs, names);
    }
}
