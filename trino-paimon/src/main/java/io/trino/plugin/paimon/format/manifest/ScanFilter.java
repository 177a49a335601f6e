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

import io.trino.plugin.paimon.format.row.BinaryRow;

/**
 * What part of a snapshot a scan needs, so that manifests and entries outside it are skipped while reading.
 * Both checks may answer true when unsure; neither may answer false for something that can match.
 */
public interface ScanFilter
{
    ScanFilter ALL = new ScanFilter() {};

    /** Whether a manifest can hold matching entries, judged by its partition stats and bucket and level ranges. */
    default boolean mayMatch(ManifestFileMeta manifest)
    {
        return true;
    }

    /** Whether files of this partition are needed. */
    default boolean matchesPartition(BinaryRow partition)
    {
        return true;
    }

    /** Whether files of this bucket, written when the table had totalBuckets buckets, are needed. */
    default boolean matchesBucket(int bucket, int totalBuckets)
    {
        return true;
    }
}
