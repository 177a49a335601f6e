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

import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One manifest file as a manifest list describes it, with the statistics readers prune it by: partition stats,
 * bucket and level range.
 */
public record ManifestFileMeta(
        String fileName,
        long fileSize,
        long numAddedFiles,
        long numDeletedFiles,
        SimpleStats partitionStats,
        long schemaId,
        OptionalInt minBucket,
        OptionalInt maxBucket,
        OptionalInt minLevel,
        OptionalInt maxLevel,
        OptionalLong minRowId,
        OptionalLong maxRowId)
{
    public static final int VERSION = 2;

    public ManifestFileMeta
    {
        requireNonNull(fileName, "fileName is null");
        requireNonNull(partitionStats, "partitionStats is null");
        requireNonNull(minBucket, "minBucket is null");
        requireNonNull(maxBucket, "maxBucket is null");
        requireNonNull(minLevel, "minLevel is null");
        requireNonNull(maxLevel, "maxLevel is null");
        requireNonNull(minRowId, "minRowId is null");
        requireNonNull(maxRowId, "maxRowId is null");
    }
}
