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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The live files of one bucket of one partition: the unit a read split covers, since a bucket's sorted runs overlap
 * and must be merged together.
 */
public record BucketFiles(BinaryRow partition, int bucket, List<ManifestEntry> files)
{
    public BucketFiles
    {
        requireNonNull(partition, "partition is null");
        files = ImmutableList.copyOf(files);
    }
}
