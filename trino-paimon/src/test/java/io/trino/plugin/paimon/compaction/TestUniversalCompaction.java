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

import io.trino.plugin.paimon.compaction.UniversalCompaction.LevelRun;
import io.trino.plugin.paimon.compaction.UniversalCompaction.Unit;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.SimpleStats;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.table.CompactionOptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon's universal compaction picks, worked out by hand from its rules (size amplification, size ratio, run count)
 * with the default options: trigger 5, 6 levels, 200 % amplification, size ratio 1 %.
 */
final class TestUniversalCompaction
{
    private static final CompactionOptions DEFAULTS = CompactionOptions.of("t", Map.of());

    @Test
    void defaults()
    {
        assertThat(DEFAULTS).isEqualTo(new CompactionOptions(5, 6, 200, 1, false));
        assertThat(CompactionOptions.of("t", Map.of("num-sorted-run.compaction-trigger", "3")).numLevels()).isEqualTo(4);
    }

    @Test
    void runsOrderLevelZeroNewestFirstThenLevels()
    {
        List<DataFileMeta> files = List.of(file("a", 0, 1, 1, 10), file("b", 0, 1, 11, 20), file("c", 5, 100, 0, 0), file("d", 5, 100, 0, 0), file("e", 3, 10, 0, 0));
        List<LevelRun> runs = UniversalCompaction.levelSortedRuns(files);
        assertThat(runs.stream().map(run -> run.level() + ":" + run.files().stream().map(DataFileMeta::fileName).toList()).toList())
                .containsExactly("0:[b]", "0:[a]", "3:[e]", "5:[c, d]");
    }

    @Test
    void fewerRunsThanTheTriggerAreLeft()
    {
        assertThat(pick(levelZero(1, 1, 1, 1))).isEmpty();
    }

    @Test
    void sizeAmplificationCompactsEverythingToTheHighestLevel()
    {
        // four runs of 1 against an oldest run of 1: 400 % > 200 %
        Unit unit = pick(levelZero(1, 1, 1, 1, 1)).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(5);
        assertThat(unit.runs()).hasSize(5);
        assertThat(unit.dropRetracts()).isTrue();
    }

    @Test
    void sizeRatioTakesTheSmallRunsAboveALargeOne()
    {
        // 1+1+1+1 = 4 against 100 at level 5: amplification 4 % is low; the four small runs pass the size ratio one by
        // one, the large one does not, and the output goes just above it, keeping retractions (older data lies below)
        List<LevelRun> runs = new ArrayList<>(levelZero(1, 1, 1, 1));
        runs.add(new LevelRun(5, List.of(file("big", 5, 100, 0, 0))));
        Unit unit = pick(runs).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(4);
        assertThat(unit.runs()).hasSize(4);
        assertThat(unit.dropRetracts()).isFalse();
    }

    @Test
    void runCountForcesAPickWhenTheSizesDoNot()
    {
        // sizes grow tenfold (the oldest is 1000000), so neither amplification nor ratio picks; 6 runs > 5: the first
        // 6 - 5 + 1 = 2 are taken; the next run is at level 0, so the pick takes runs until one above level 0, and
        // with every run at level 0 it takes them all and writes to the highest level
        List<LevelRun> runs = levelZero(1, 10, 100, 1000, 10000, 1000000);
        Unit unit = pick(runs).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(5);
        assertThat(unit.runs()).hasSize(6);
    }

    @Test
    void fullCompactionSkipsABucketThatIsOneRunAtTheHighestLevel()
    {
        assertThat(UniversalCompaction.pickFull(6, List.of(new LevelRun(5, List.of(file("c", 5, 100, 0, 0)))))).isEmpty();
        assertThat(UniversalCompaction.pickFull(6, List.of(new LevelRun(4, List.of(file("c", 4, 100, 0, 0)))))).isPresent();
        Unit unit = UniversalCompaction.pickFull(6, List.of(new LevelRun(0, List.of(file("a", 0, 1, 5, 5))), new LevelRun(5, List.of(file("c", 5, 100, 0, 0))))).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(5);
        assertThat(unit.files()).hasSize(2);
        assertThat(unit.dropRetracts()).isTrue();
    }

    @Test
    void levelZeroIsMovedUpWhenNothingElseIsPicked()
    {
        // one small level-0 run over a large run at level 5: no pick; level 0 goes just below level 5 and keeps its
        // retractions, since older data lies below
        List<LevelRun> runs = new ArrayList<>(levelZero(1));
        runs.add(new LevelRun(5, List.of(file("big", 5, 100, 0, 0))));
        assertThat(pick(runs)).isEmpty();
        Unit unit = UniversalCompaction.pickLevelZero(DEFAULTS, 6, runs).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(4);
        assertThat(unit.files()).extracting(DataFileMeta::fileName).containsExactly("l0-0");
        assertThat(unit.dropRetracts()).isFalse();

        // two level-0 runs of 1 and 2, then level 3 of size 3 (1 + 2 passes the size ratio against it) and level 5 of
        // 100: the level-0 runs and level 3 go to level 4
        runs = new ArrayList<>(levelZero(1, 2));
        runs.add(new LevelRun(3, List.of(file("mid", 3, 3, 0, 0))));
        runs.add(new LevelRun(5, List.of(file("big", 5, 100, 0, 0))));
        assertThat(pick(runs)).isEmpty();
        unit = UniversalCompaction.pickLevelZero(DEFAULTS, 6, runs).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(4);
        assertThat(unit.files()).extracting(DataFileMeta::fileName).containsExactly("l0-0", "l0-1", "mid");

        // level 0 alone: to the highest level, retractions dropped
        unit = UniversalCompaction.pickLevelZero(DEFAULTS, 6, levelZero(5)).orElseThrow();
        assertThat(unit.outputLevel()).isEqualTo(5);
        assertThat(unit.dropRetracts()).isTrue();

        // no level 0: nothing
        assertThat(UniversalCompaction.pickLevelZero(DEFAULTS, 6, List.of(new LevelRun(5, List.of(file("big", 5, 100, 0, 0)))))).isEmpty();
    }

    private static Optional<Unit> pick(List<LevelRun> runs)
    {
        return UniversalCompaction.pick(DEFAULTS, 6, runs);
    }

    // level-0 runs, newest first, of the given sizes
    private static List<LevelRun> levelZero(long... sizes)
    {
        List<LevelRun> runs = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            long sequence = 100 - i;
            runs.add(new LevelRun(0, List.of(file("l0-" + i, 0, sizes[i], sequence, sequence))));
        }
        return runs;
    }

    private static DataFileMeta file(String name, int level, long size, long minSequence, long maxSequence)
    {
        return new DataFileMeta(name, size, 1, BinaryRow.EMPTY, BinaryRow.EMPTY, SimpleStats.EMPTY, SimpleStats.EMPTY, minSequence, maxSequence, 0, level,
                List.of(), OptionalLong.of(0), OptionalLong.of(0), Optional.empty(), OptionalInt.of(0), Optional.empty(), Optional.empty(), OptionalLong.empty(), Optional.empty());
    }
}
