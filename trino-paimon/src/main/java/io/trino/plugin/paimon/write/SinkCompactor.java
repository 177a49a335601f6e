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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.PaimonInsertTableHandle;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.spi.connector.ConnectorSession;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Compaction on write in the page sink: once a sink has written its files, it compacts the buckets it wrote, as
 * Paimon's writers compact the buckets they own, and reports the results in its fragments. Compaction reads through
 * the read path, so the implementation lives beside compaction, outside this package.
 */
public interface SinkCompactor
{
    /**
     * @param buckets the buckets the sink wrote, each with the data files it wrote there
     * @param outputBufferLimit the most bytes an output file may buffer (a Parquet row group, an ORC stripe): the
     * compaction runs where Trino no longer reads the sink's memory, so its output stays within what the sink reserved
     * @return the compactions done, at most one per bucket; a bucket left out is compacted by the coordinator
     */
    List<SinkCompaction> compact(ConnectorSession session, PaimonInsertTableHandle handle, List<WrittenBucket> buckets, long outputBufferLimit);

    /** A bucket a page sink wrote, and the level-0 data files it wrote there. */
    record WrittenBucket(BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files)
    {
        public WrittenBucket
        {
            requireNonNull(partition, "partition is null");
            files = ImmutableList.copyOf(files);
        }
    }
}
