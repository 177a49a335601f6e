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
package io.trino.plugin.paimon.format.snapshot;

import com.google.common.collect.ImmutableMap;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * One committed version of a table ({@code snapshot/snapshot-<id>}): the manifest lists that hold its files and
 * what the commit did. Fields Paimon leaves out when null are empty here and left out again when written.
 * {@code uuid} names the snapshot (Paimon 2.0 gives every snapshot a random one); members this connector does not
 * know (e.g. Paimon 2.0's {@code writerVersion} and {@code operation}) are kept as their JSON text, so a snapshot
 * written again keeps them.
 */
public record Snapshot(
        int version,
        Optional<String> uuid,
        long id,
        long schemaId,
        String baseManifestList,
        OptionalLong baseManifestListSize,
        String deltaManifestList,
        OptionalLong deltaManifestListSize,
        Optional<String> changelogManifestList,
        OptionalLong changelogManifestListSize,
        Optional<String> indexManifest,
        String commitUser,
        long commitIdentifier,
        CommitKind commitKind,
        long timeMillis,
        Optional<Map<Integer, Long>> logOffsets,
        OptionalLong totalRecordCount,
        OptionalLong deltaRecordCount,
        OptionalLong changelogRecordCount,
        OptionalLong watermark,
        Optional<String> statistics,
        Optional<Map<String, String>> properties,
        OptionalLong nextRowId,
        Map<String, String> unknownMembers)
{
    public static final int CURRENT_VERSION = 3;
    /** The commit identifier of batch writers. */
    public static final long BATCH_COMMIT_IDENTIFIER = Long.MAX_VALUE;
    // properties of the snapshots Trino commits: the statement's commit identifier, by which a commit whose outcome
    // was lost is recognised, and the query that committed
    public static final String TRINO_COMMIT_ID_PROPERTY = "trino.commit-id";
    public static final String TRINO_QUERY_ID_PROPERTY = "trino.query-id";

    public Snapshot
    {
        requireNonNull(uuid, "uuid is null");
        checkArgument(id > 0, "snapshot id must be positive: %s", id);
        requireNonNull(baseManifestList, "baseManifestList is null");
        requireNonNull(baseManifestListSize, "baseManifestListSize is null");
        requireNonNull(deltaManifestList, "deltaManifestList is null");
        requireNonNull(deltaManifestListSize, "deltaManifestListSize is null");
        requireNonNull(changelogManifestList, "changelogManifestList is null");
        requireNonNull(changelogManifestListSize, "changelogManifestListSize is null");
        requireNonNull(indexManifest, "indexManifest is null");
        requireNonNull(commitUser, "commitUser is null");
        requireNonNull(commitKind, "commitKind is null");
        logOffsets = requireNonNull(logOffsets, "logOffsets is null").map(ImmutableMap::copyOf);
        requireNonNull(totalRecordCount, "totalRecordCount is null");
        requireNonNull(deltaRecordCount, "deltaRecordCount is null");
        requireNonNull(changelogRecordCount, "changelogRecordCount is null");
        requireNonNull(watermark, "watermark is null");
        requireNonNull(statistics, "statistics is null");
        properties = requireNonNull(properties, "properties is null").map(ImmutableMap::copyOf);
        requireNonNull(nextRowId, "nextRowId is null");
        unknownMembers = ImmutableMap.copyOf(unknownMembers);
    }

    public enum CommitKind
    {
        APPEND, COMPACT, OVERWRITE, ANALYZE
    }
}
