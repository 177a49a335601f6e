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
import io.trino.plugin.paimon.table.CompactionOptions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

/**
 * Which sorted runs of a bucket a compaction rewrites, by Paimon's rules (mergetree {@code Levels},
 * {@code UniversalCompaction}, {@code CompactStrategy.pickFullCompaction}, {@code MergeTreeCompactManager}): the runs
 * are the level-0 files one by one, newest (largest max sequence number) first, then each non-empty level as one run;
 * a pick takes the first runs of that list and names the level they are written to.
 */
public final class UniversalCompaction
{
    private UniversalCompaction() {}

    /** One sorted run: a level-0 file, or all files of a level above 0. */
    public record LevelRun(int level, List<DataFileMeta> files)
    {
        public LevelRun
        {
            files = ImmutableList.copyOf(files);
        }

        long totalSize()
        {
            return files.stream().mapToLong(DataFileMeta::fileSize).sum();
        }
    }

    /** The runs to rewrite into one run at {@code outputLevel}, and whether retractions may be dropped there. */
    public record Unit(int outputLevel, List<LevelRun> runs, boolean dropRetracts)
    {
        public Unit
        {
            runs = ImmutableList.copyOf(runs);
        }

        public List<DataFileMeta> files()
        {
            return runs.stream().flatMap(run -> run.files().stream()).collect(toImmutableList());
        }
    }

    /** The runs of a bucket's live files, in Paimon's order. */
    public static List<LevelRun> levelSortedRuns(List<DataFileMeta> files)
    {
        List<LevelRun> runs = new ArrayList<>();
        files.stream()
                .filter(file -> file.level() == 0)
                .sorted(Comparator.comparingLong(DataFileMeta::maxSequenceNumber).reversed()
                        .thenComparingLong(DataFileMeta::minSequenceNumber)
                        .thenComparingLong(file -> file.creationTimeMillis().orElse(0))
                        .thenComparing(DataFileMeta::fileName))
                .forEach(file -> runs.add(new LevelRun(0, List.of(file))));
        Map<Integer, List<DataFileMeta>> levels = new TreeMap<>();
        for (DataFileMeta file : files) {
            if (file.level() > 0) {
                levels.computeIfAbsent(file.level(), _ -> new ArrayList<>()).add(file);
            }
        }
        levels.forEach((level, levelFiles) -> runs.add(new LevelRun(level, levelFiles)));
        return runs;
    }

    /** The number of levels of a bucket: the table's, or more when a file lies deeper (as Paimon restores its levels). */
    public static int numLevels(CompactionOptions options, List<DataFileMeta> files)
    {
        return Math.max(options.numLevels(), files.stream().mapToInt(DataFileMeta::level).max().orElse(-1) + 1);
    }

    /**
     * A full compaction ({@code optimize}): every run to the highest level, unless the bucket is a single run there
     * already. Retractions are dropped: the output is all the bucket holds.
     */
    public static Optional<Unit> pickFull(int numLevels, List<LevelRun> runs)
    {
        int maxLevel = numLevels - 1;
        if (runs.isEmpty() || (runs.size() == 1 && runs.getFirst().level() == maxLevel)) {
            return Optional.empty();
        }
        return Optional.of(new Unit(maxLevel, runs, true));
    }

    /**
     * The compaction a writer starts after writing: by size amplification, by size ratio, or when there are more runs
     * than the trigger. Retractions are dropped when the output level is at least the highest non-empty one.
     */
    public static Optional<Unit> pick(CompactionOptions options, int numLevels, List<LevelRun> runs)
    {
        requireNonNull(options, "options is null");
        int maxLevel = numLevels - 1;
        int trigger = options.sortedRunCompactionTrigger();
        Optional<Unit> unit = Optional.empty();
        if (runs.size() >= trigger) {
            // size amplification: all runs but the oldest, against the oldest
            long candidateSize = 0;
            for (int i = 0; i < runs.size() - 1; i++) {
                candidateSize += runs.get(i).totalSize();
            }
            if (candidateSize * 100 > (long) options.maxSizeAmplificationPercent() * runs.getLast().totalSize()) {
                unit = Optional.of(new Unit(maxLevel, runs, false));
            }
            else {
                unit = pickForSizeRatio(options, maxLevel, runs, 1, false);
            }
        }
        if (unit.isEmpty() && runs.size() > trigger) {
            unit = pickForSizeRatio(options, maxLevel, runs, runs.size() - trigger + 1, false);
        }
        int highest = runs.isEmpty() ? -1 : runs.getLast().level();
        return unit
                .filter(picked -> picked.files().size() > 1 || picked.files().getFirst().level() != picked.outputLevel())
                .map(picked -> new Unit(picked.outputLevel(), picked.runs(), picked.outputLevel() != 0 && picked.outputLevel() >= highest));
    }

    /**
     * The compaction of a writer whose readers skip level 0 (deletion-vector and first-row tables; Paimon's
     * {@code ForceUpLevel0Compaction}): what {@link #pick} picks, else every level-0 run, with the runs after them the
     * size ratio lets in, to the level below the first run left out, so that level 0 is left empty.
     */
    public static Optional<Unit> pickLevelZero(CompactionOptions options, int numLevels, List<LevelRun> runs)
    {
        Optional<Unit> picked = pick(options, numLevels, runs);
        if (picked.isPresent()) {
            return picked;
        }
        int levelZeroRuns = 0;
        while (levelZeroRuns < runs.size() && runs.get(levelZeroRuns).level() == 0) {
            levelZeroRuns++;
        }
        if (levelZeroRuns == 0) {
            return Optional.empty();
        }
        int highest = runs.getLast().level();
        return pickForSizeRatio(options, numLevels - 1, runs, levelZeroRuns, true)
                .map(unit -> new Unit(unit.outputLevel(), unit.runs(), unit.outputLevel() != 0 && unit.outputLevel() >= highest));
    }

    private static Optional<Unit> pickForSizeRatio(CompactionOptions options, int maxLevel, List<LevelRun> runs, int candidateCount, boolean forcePick)
    {
        long candidateSize = 0;
        for (int i = 0; i < candidateCount; i++) {
            candidateSize += runs.get(i).totalSize();
        }
        for (int i = candidateCount; i < runs.size(); i++) {
            LevelRun next = runs.get(i);
            if (candidateSize * (100.0 + options.sizeRatio()) / 100.0 < next.totalSize()) {
                break;
            }
            candidateSize += next.totalSize();
            candidateCount++;
        }
        if (candidateCount <= 1 && !forcePick) {
            return Optional.empty();
        }
        return Optional.of(unit(runs, maxLevel, candidateCount));
    }

    // the output level: the level below the first run not taken, moving past level-0 runs; all runs: the highest level
    private static Unit unit(List<LevelRun> runs, int maxLevel, int runCount)
    {
        int outputLevel = runCount == runs.size() ? maxLevel : Math.max(0, runs.get(runCount).level() - 1);
        if (outputLevel == 0) {
            for (int i = runCount; i < runs.size(); i++) {
                LevelRun next = runs.get(i);
                runCount++;
                if (next.level() != 0) {
                    outputLevel = next.level();
                    break;
                }
            }
        }
        if (runCount == runs.size()) {
            outputLevel = maxLevel;
        }
        return new Unit(outputLevel, runs.subList(0, runCount), false);
    }
}
