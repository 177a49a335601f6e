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

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The compaction of a bucket that a page sink did after writing it, with what it read: the bucket's live files (those
 * of the statement's base snapshot and the sink's own) and its deletion-vector index file. The coordinator commits the
 * result only where the bucket holds exactly those files after the statement's commit; where a concurrent commit
 * changed the bucket meanwhile, the result is discarded and the coordinator compacts the bucket itself.
 */
public record SinkCompaction(CompactionFragment result, List<String> bucketFiles, Optional<String> vectorIndexFile)
{
    public SinkCompaction
    {
        requireNonNull(result, "result is null");
        bucketFiles = ImmutableList.copyOf(bucketFiles);
        requireNonNull(vectorIndexFile, "vectorIndexFile is null");
    }
}
