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

import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * What a page sink hands the coordinator's commit: one data file, one changelog file or one dynamic-bucket index file
 * it wrote, or the compaction of one bucket it did after writing it.
 */
public record WriteFragment(Optional<WrittenFile> dataFile, Optional<WrittenIndexFile> indexFile, Optional<WrittenFile> changelogFile, Optional<SinkCompaction> compaction)
{
    public WriteFragment
    {
        int present = (dataFile.isPresent() ? 1 : 0) + (indexFile.isPresent() ? 1 : 0) + (changelogFile.isPresent() ? 1 : 0) + (compaction.isPresent() ? 1 : 0);
        checkArgument(present == 1, "a fragment is one data file, one changelog file, one index file or one compaction");
    }

    public static WriteFragment of(WrittenFile file)
    {
        return new WriteFragment(Optional.of(file), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public static WriteFragment of(WrittenIndexFile file)
    {
        return new WriteFragment(Optional.empty(), Optional.of(file), Optional.empty(), Optional.empty());
    }

    public static WriteFragment ofChangelog(WrittenFile file)
    {
        return new WriteFragment(Optional.empty(), Optional.empty(), Optional.of(file), Optional.empty());
    }

    public static WriteFragment of(SinkCompaction compaction)
    {
        return new WriteFragment(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(compaction));
    }
}
