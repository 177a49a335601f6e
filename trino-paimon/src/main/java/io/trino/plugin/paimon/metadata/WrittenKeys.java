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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.catalog.BucketConflictCheck.Bucket;
import io.trino.plugin.paimon.catalog.BucketConflictCheck.SharedKeys;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.read.KeyLookup;
import io.trino.plugin.paimon.read.PaimonDataFile;
import io.trino.plugin.paimon.table.PaimonTable;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.groupingBy;

/**
 * The keys a statement wrote, per bucket, checked against the files another writer added to the same buckets since
 * the statement read the table: first by key range, then by the keys themselves, reading only the key columns of
 * both sides' files (their own files of the same commit, level 0, the size of one statement's write). A side larger
 * than {@link #MAX_CHECKED_ROWS} is not read, and counts as sharing a key: so a write that lost a race costs the
 * committer a bounded read, never one that grows with the table.
 */
final class WrittenKeys
        implements SharedKeys
{
    static final long MAX_CHECKED_ROWS = 1_000_000;

    private final PaimonTable table;
    private final KeyLookup keyLookup;
    private final Map<Bucket, List<ManifestEntry>> written;

    WrittenKeys(PaimonTable table, KeyLookup keyLookup, List<ManifestEntry> written)
    {
        this.table = requireNonNull(table, "table is null");
        this.keyLookup = requireNonNull(keyLookup, "keyLookup is null");
        this.written = written.stream().collect(groupingBy(entry -> new Bucket(ByteBuffer.wrap(entry.partition().bytes()), entry.bucket())));
    }

    @Override
    public Optional<String> sharedKey(Bucket bucket, List<ManifestEntry> added)
    {
        List<PaimonDataFile> ours = dataFiles(written.getOrDefault(bucket, List.of()));
        List<PaimonDataFile> theirs = dataFiles(added);
        long ourRows = rows(ours);
        long theirRows = rows(theirs);
        if (Math.min(ourRows, theirRows) > MAX_CHECKED_ROWS) {
            return Optional.of("(not compared: both writes hold more than %s rows in the bucket)".formatted(MAX_CHECKED_ROWS));
        }
        // the keys of the smaller side are held in memory, the other side's streamed past them
        KeyLookup.Hits hits = ourRows <= theirRows ? keyLookup.find(ours, theirs) : keyLookup.find(theirs, ours);
        return hits.keys().stream().findFirst().map(Object::toString);
    }

    private List<PaimonDataFile> dataFiles(List<ManifestEntry> entries)
    {
        // files only added, by this statement or a rival APPEND: no deletion vector covers them yet
        return entries.stream()
                .map(entry -> PaimonDataFile.of(entry.file(), table.dataFileLocation(table.partitionPath(entry.partition()), entry.bucket(), entry.file()), Optional.empty()))
                .collect(toImmutableList());
    }

    private static long rows(List<PaimonDataFile> files)
    {
        return files.stream().mapToLong(PaimonDataFile::rowCount).sum();
    }
}
