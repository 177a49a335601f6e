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
package io.trino.plugin.paimon.compaction;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.table.AppendCompactionOptions;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

import static com.google.common.collect.ImmutableList.toImmutableList;

/**
 * Which files of an append table (no primary key) a compaction rewrites, by Paimon's rules: files are rewritten, in
 * the order of their sequence numbers, into new files of the target size; records are not merged. Three pickers: the
 * full compaction of a fixed bucket ({@code optimize}, Paimon's {@code BucketedAppendCompactManager} full task), the
 * compaction a writer of a fixed bucket triggers once the bucket has {@code compaction.min.file-num} small files (its
 * best-effort task), and the batch plan of Paimon's {@code AppendCompactCoordinator} for a partition of a
 * bucket-unaware table ({@code optimize}). Pure rules on file descriptions; the rewrite and the commit are the callers'.
 */
public final class AppendCompaction
{
    // Paimon's full compaction of a bucket without deletion vectors needs at least this many files
    private static final int FULL_COMPACTION_MIN_FILES = 3;

    private AppendCompaction() {}

    /**
     * The full compaction of a fixed bucket: the files from the first small one on, in sequence order, when small
     * files are the majority of them and they are at least three; on a deletion-vector table whatever follows the
     * leading large files without a vector, always, so that the vectors are applied and dropped.
     *
     * @param hasDeletionVector whether a file (by name) has a deletion vector
     * @return the files to rewrite, in sequence order; empty when the bucket stays as it is
     */
    public static List<DataFileMeta> pickFull(AppendCompactionOptions options, boolean deletionVectorsEnabled, List<DataFileMeta> files, Predicate<String> hasDeletionVector)
    {
        boolean vectors = deletionVectorsEnabled || files.stream().map(DataFileMeta::fileName).anyMatch(hasDeletionVector);
        if (!options.forceRewriteAllFiles() && (files.isEmpty() || (!vectors && files.size() < FULL_COMPACTION_MIN_FILES))) {
            return ImmutableList.of();
        }
        Deque<DataFileMeta> picked = new ArrayDeque<>(bySequence(files));
        while (!options.forceRewriteAllFiles() && !picked.isEmpty()) {
            DataFileMeta first = picked.peekFirst();
            if (first.fileSize() < options.compactionFileSize() || hasDeletionVector.test(first.fileName())) {
                break;
            }
            picked.pollFirst();
        }
        if (vectors || options.forceRewriteAllFiles()) {
            return ImmutableList.copyOf(picked);
        }
        long small = picked.stream().filter(file -> file.fileSize() < options.compactionFileSize()).count();
        long large = picked.size() - small;
        if (small > large && picked.size() >= FULL_COMPACTION_MIN_FILES) {
            return ImmutableList.copyOf(picked);
        }
        return ImmutableList.of();
    }

    /**
     * The compaction a writer of a fixed bucket starts after it flushed new files: in sequence order, the first
     * {@code compaction.min.file-num} consecutive files whose sizes add up to less than twice the target size (a
     * window that slides past large files).
     *
     * @return the files to rewrite, in sequence order; empty when the bucket has too few small files
     */
    public static List<DataFileMeta> pickOnWrite(AppendCompactionOptions options, List<DataFileMeta> files)
    {
        Deque<DataFileMeta> window = new ArrayDeque<>();
        long windowSize = 0;
        for (DataFileMeta file : bySequence(files)) {
            window.addLast(file);
            windowSize += file.fileSize();
            if (window.size() >= options.minFileNum()) {
                return ImmutableList.copyOf(window);
            }
            if (windowSize >= options.targetFileSize() * 2) {
                windowSize -= window.pollFirst().fileSize();
            }
        }
        return ImmutableList.of();
    }

    /**
     * The batch compaction plan of one partition of a bucket-unaware table. The small files are packed smallest
     * first, each file weighing its size plus the open-file cost: a pack is cut whenever it holds two files or more
     * weighing at least twice the target size, and the last pack is kept only with {@code compaction.min.file-num}
     * files or more. Every file with a deletion vector is rewritten, whatever its size, so that the partition's
     * vectors are applied and dropped (Paimon leaves large files whose vector deletes at most
     * {@code compaction.delete-ratio-threshold} of their rows, rewriting the vector index instead).
     *
     * @return the files to rewrite, in sequence order; empty when the partition stays as it is
     */
    public static List<DataFileMeta> pickUnaware(AppendCompactionOptions options, List<DataFileMeta> files, Predicate<String> hasDeletionVector)
    {
        List<DataFileMeta> picked = new ArrayList<>();
        List<DataFileMeta> small = new ArrayList<>();
        for (DataFileMeta file : files) {
            if (hasDeletionVector.test(file.fileName())) {
                picked.add(file);
            }
            else if (file.fileSize() < options.compactionFileSize()) {
                small.add(file);
            }
        }
        // Paimon packs the files without vectors of a deletion-vector partition only when there are two or more
        if (picked.isEmpty() || small.size() > 1) {
            picked.addAll(pack(options, small));
        }
        return bySequence(picked);
    }

    private static List<DataFileMeta> pack(AppendCompactionOptions options, List<DataFileMeta> small)
    {
        List<DataFileMeta> packed = new ArrayList<>();
        List<DataFileMeta> pack = new ArrayList<>();
        long weight = 0;
        for (DataFileMeta file : small.stream().sorted(Comparator.comparingLong(DataFileMeta::fileSize)).toList()) {
            pack.add(file);
            weight += file.fileSize() + options.openFileCost();
            if (pack.size() > 1 && weight >= options.targetFileSize() * 2) {
                packed.addAll(pack);
                pack.clear();
                weight = 0;
            }
        }
        if (pack.size() >= options.minFileNum()) {
            packed.addAll(pack);
        }
        return packed;
    }

    private static List<DataFileMeta> bySequence(List<DataFileMeta> files)
    {
        return files.stream()
                .sorted(Comparator.comparingLong(DataFileMeta::minSequenceNumber).thenComparing(DataFileMeta::fileName))
                .collect(toImmutableList());
    }
}
