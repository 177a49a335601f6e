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
 * What the compaction of one bucket did, for the commit: the files it replaced (by name) and the files it wrote.
 *
 * @param deletionVectors the bucket's deletion-vector index after a lookup compaction, which marks rows of files it
 * leaves in place; empty when the compaction read the bucket's vectors into its output, so they are dropped
 * @param changelogFiles the changelog the compaction produced ({@code changelog-producer} = {@code full-compaction})
 */
public record CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles, Optional<DeletionVectorFile> deletionVectors, List<WrittenFile> changelogFiles)
{
    public CompactionFragment
    {
        requireNonNull(partition, "partition is null");
        compactedFiles = ImmutableList.copyOf(compactedFiles);
        writtenFiles = ImmutableList.copyOf(writtenFiles);
        requireNonNull(deletionVectors, "deletionVectors is null");
        // fragments staged before compactions wrote changelog have none
        changelogFiles = changelogFiles == null ? ImmutableList.of() : ImmutableList.copyOf(changelogFiles);
    }

    public CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles, Optional<DeletionVectorFile> deletionVectors)
    {
        this(partition, bucket, compactedFiles, writtenFiles, deletionVectors, List.of());
    }

    public CompactionFragment(byte[] partition, int bucket, List<String> compactedFiles, List<WrittenFile> writtenFiles)
    {
        this(partition, bucket, compactedFiles, writtenFiles, Optional.empty());
    }

    /** The data and changelog files the compaction wrote. */
    public List<WrittenFile> allWrittenFiles()
    {
        return ImmutableList.<WrittenFile>builder().addAll(writtenFiles).addAll(changelogFiles).build();
    }
}
