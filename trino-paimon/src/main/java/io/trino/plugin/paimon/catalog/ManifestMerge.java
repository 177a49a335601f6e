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

import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.Identifier;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestWriter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.table.ManifestOptions;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The base manifests of a new snapshot: the previous snapshot's base and delta manifests, merged by the rules Paimon's
 * own commits follow (its {@code ManifestFileMerger}), so that the manifests a query plans from stay few however many
 * small commits a table takes.
 * <ul>
 * <li>Full compaction, when the manifests that would gain from it (any with DELETE entries, or below
 * {@code manifest.target-file-size}) add up to {@code manifest.full-compaction-threshold-size}: every live file is
 * listed once in new manifests of about the target size, DELETE entries and the files they delete dropped; a large
 * manifest none of whose files was deleted stays as it is.</li>
 * <li>Otherwise minor compaction: consecutive manifests are merged whenever they reach the target size together, and
 * the small ones left at the end once there are {@code manifest.merge-min-count} of them. Within a merge an ADD and a
 * later DELETE of the same file cancel out; a DELETE of a file added in an older manifest is kept.</li>
 * </ul>
 * Merging only rewrites what the input lists: the snapshot's live files stay the same.
 */
final class ManifestMerge
{
    private final SnapshotScan scan;
    private final ManifestWriter writer;
    private final ManifestOptions options;
    private final List<DataType> partitionTypes;
    private final long schemaId;

    ManifestMerge(SnapshotScan scan, ManifestWriter writer, ManifestOptions options, List<DataType> partitionTypes, long schemaId)
    {
        this.scan = requireNonNull(scan, "scan is null");
        this.writer = requireNonNull(writer, "writer is null");
        this.options = requireNonNull(options, "options is null");
        this.partitionTypes = List.copyOf(partitionTypes);
        this.schemaId = schemaId;
    }

    /**
     * @param input the previous snapshot's manifests, base list first
     * @param written told the name of each manifest this writes, as soon as it is written
     */
    List<ManifestFileMeta> merge(List<ManifestFileMeta> input, Consumer<String> written)
    {
        long gainingSize = input.stream()
                .filter(this::gainsFromRewrite)
                .mapToLong(ManifestFileMeta::fileSize)
                .sum();
        if (gainingSize >= options.fullCompactionThresholdSize() && input.size() > 1) {
            return fullCompaction(input, written);
        }
        return minorCompaction(input, written);
    }

    private boolean gainsFromRewrite(ManifestFileMeta manifest)
    {
        return manifest.numDeletedFiles() > 0 || manifest.fileSize() < options.targetFileSize();
    }

    private List<ManifestFileMeta> minorCompaction(List<ManifestFileMeta> input, Consumer<String> written)
    {
        List<ManifestFileMeta> result = new ArrayList<>();
        List<ManifestFileMeta> candidates = new ArrayList<>();
        long candidateSize = 0;
        for (ManifestFileMeta manifest : input) {
            candidates.add(manifest);
            candidateSize += manifest.fileSize();
            if (candidateSize >= options.targetFileSize()) {
                result.addAll(mergeInOrder(candidates, written));
                candidates.clear();
                candidateSize = 0;
            }
        }
        if (candidates.size() >= options.mergeMinCount()) {
            result.addAll(mergeInOrder(candidates, written));
        }
        else {
            result.addAll(candidates);
        }
        return result;
    }

    private List<ManifestFileMeta> mergeInOrder(List<ManifestFileMeta> manifests, Consumer<String> written)
    {
        if (manifests.size() == 1) {
            return List.of(manifests.getFirst());
        }
        Map<Identifier, ManifestEntry> entries = new LinkedHashMap<>();
        for (ManifestFileMeta manifest : manifests) {
            for (ManifestEntry entry : scan.readManifest(manifest)) {
                Identifier identifier = entry.identifier();
                if (entry.kind() == FileKind.DELETE && entries.remove(identifier) != null) {
                    continue;
                }
                entries.put(identifier, entry);
            }
        }
        return write(List.copyOf(entries.values()), written);
    }

    private List<ManifestFileMeta> fullCompaction(List<ManifestFileMeta> input, Consumer<String> written)
    {
        Map<ManifestFileMeta, List<ManifestEntry>> contents = new LinkedHashMap<>();
        Set<Identifier> deleted = new HashSet<>();
        for (ManifestFileMeta manifest : input) {
            List<ManifestEntry> entries = scan.readManifest(manifest);
            contents.put(manifest, entries);
            entries.stream()
                    .filter(entry -> entry.kind() == FileKind.DELETE)
                    .forEach(entry -> deleted.add(entry.identifier()));
        }
        List<ManifestFileMeta> kept = new ArrayList<>();
        List<ManifestEntry> live = new ArrayList<>();
        contents.forEach((manifest, entries) -> {
            boolean untouched = !gainsFromRewrite(manifest) && entries.stream().noneMatch(entry -> deleted.contains(entry.identifier()));
            if (untouched) {
                kept.add(manifest);
                return;
            }
            entries.stream()
                    .filter(entry -> entry.kind() == FileKind.ADD && !deleted.contains(entry.identifier()))
                    .forEach(live::add);
        });
        long rewrittenSize = contents.keySet().stream()
                .filter(manifest -> !kept.contains(manifest))
                .mapToLong(ManifestFileMeta::fileSize)
                .sum();
        List<ManifestFileMeta> result = new ArrayList<>(kept);
        if (!live.isEmpty()) {
            // manifests of about the target size: as many entries per manifest as the input held per target size
            int entriesPerManifest = (int) Math.clamp((double) options.targetFileSize() * live.size() / Math.max(1, rewrittenSize), 1, live.size());
            for (int start = 0; start < live.size(); start += entriesPerManifest) {
                result.addAll(write(live.subList(start, Math.min(live.size(), start + entriesPerManifest)), written));
            }
        }
        return List.copyOf(result);
    }

    private List<ManifestFileMeta> write(List<ManifestEntry> entries, Consumer<String> written)
    {
        if (entries.isEmpty()) {
            return List.of();
        }
        ManifestFileMeta manifest = writer.writeManifest(entries, partitionTypes, schemaId);
        written.accept(manifest.fileName());
        return List.of(manifest);
    }
}
