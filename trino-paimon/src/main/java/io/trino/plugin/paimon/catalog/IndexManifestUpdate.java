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
package io.trino.plugin.paimon.catalog;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.spi.TrinoException;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * What a commit does to the table's index manifest, which holds the full index state (paimon-format.md §4.5): nothing
 * (the snapshot keeps the previous index manifest), a complete new state, or bucketed changes applied to the state of
 * the snapshot the commit lands on, as Paimon combines them: the entry of a (partition, bucket, index type) is removed
 * by a DELETE and replaced by an ADD.
 */
public sealed interface IndexManifestUpdate
{
    IndexManifestUpdate NONE = new Unchanged();

    static IndexManifestUpdate replaceAll(List<IndexManifestEntry> entries)
    {
        return new ReplaceAll(entries);
    }

    static IndexManifestUpdate bucketed(List<IndexManifestEntry> changes)
    {
        return changes.isEmpty() ? NONE : new Bucketed(changes);
    }

    /** The index state after the update of the given previous state, or empty when the index manifest is unchanged. */
    Optional<List<IndexManifestEntry>> apply(List<IndexManifestEntry> previous);

    /** Whether {@link #apply} needs the previous state. */
    default boolean readsPrevious()
    {
        return false;
    }

    record Unchanged()
            implements IndexManifestUpdate
    {
        @Override
        public Optional<List<IndexManifestEntry>> apply(List<IndexManifestEntry> previous)
        {
            return Optional.empty();
        }
    }

    record ReplaceAll(List<IndexManifestEntry> entries)
            implements IndexManifestUpdate
    {
        public ReplaceAll
        {
            entries = ImmutableList.copyOf(entries);
        }

        @Override
        public Optional<List<IndexManifestEntry>> apply(List<IndexManifestEntry> previous)
        {
            return Optional.of(entries);
        }
    }

    record Bucketed(List<IndexManifestEntry> changes)
            implements IndexManifestUpdate
    {
        public Bucketed
        {
            changes = ImmutableList.copyOf(changes);
        }

        @Override
        public boolean readsPrevious()
        {
            return true;
        }

        @Override
        public Optional<List<IndexManifestEntry>> apply(List<IndexManifestEntry> previous)
        {
            Map<Identifier, IndexManifestEntry> state = new LinkedHashMap<>();
            for (IndexManifestEntry entry : previous) {
                IndexManifestEntry other = state.put(Identifier.of(entry), entry);
                if (other != null) {
                    // Paimon keeps several deletion-vector index files in one partition of a bucket-unaware table
                    // (one per delete that marked files without vectors); replacing them by bucket would lose all but one
                    throw new TrinoException(NOT_SUPPORTED, "Bucket %s of a partition has several %s index files (%s, %s), as Paimon writes them for bucket-unaware tables; the connector cannot yet commit changes to such an index"
                            .formatted(entry.bucket(), entry.indexType(), other.fileName(), entry.fileName()));
                }
            }
            // deletions first, so that a bucket's new file is never removed by the deletion of its old one
            changes.stream().filter(entry -> entry.kind() == FileKind.DELETE).forEach(entry -> state.remove(Identifier.of(entry)));
            changes.stream().filter(entry -> entry.kind() == FileKind.ADD).forEach(entry -> state.put(Identifier.of(entry), entry));
            return Optional.of(ImmutableList.copyOf(state.values()));
        }
    }

    record Identifier(ByteBuffer partition, int bucket, String indexType)
    {
        public Identifier
        {
            requireNonNull(partition, "partition is null");
            requireNonNull(indexType, "indexType is null");
        }

        static Identifier of(IndexManifestEntry entry)
        {
            return new Identifier(ByteBuffer.wrap(entry.partition().bytes()), entry.bucket(), entry.indexType());
        }
    }
}
