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
package io.trino.plugin.paimon.format.stats;

import io.trino.plugin.paimon.format.stats.AnalyzedStatistics.ColumnStats;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

final class TestWrittenStatistics
{
    private static final ColumnStats BEFORE = new ColumnStats(1, OptionalLong.of(10), Optional.of("-3.5"), Optional.of("20"), OptionalLong.of(2), OptionalLong.of(8), OptionalLong.of(8));
    private static final AnalyzedStatistics INHERITED = new AnalyzedStatistics(4, 0, OptionalLong.of(12), OptionalLong.of(999), Map.of("x", BEFORE));

    @Test
    void firstWriteDescribesTheTable()
    {
        ColumnStats added = new ColumnStats(1, OptionalLong.of(3), Optional.of("1"), Optional.of("2"), OptionalLong.of(0), OptionalLong.of(8), OptionalLong.of(8));
        AnalyzedStatistics append = new WrittenStatistics(0, 3, true, Map.of("x", added)).describe(7, 0, true, Optional.of(INHERITED), 4096).orElseThrow();
        assertThat(append).isEqualTo(new AnalyzedStatistics(7, 0, OptionalLong.of(3), OptionalLong.of(4096), Map.of("x", added)));
        AnalyzedStatistics primaryKey = new WrittenStatistics(0, 3, false, Map.of("x", added)).describe(7, 0, true, Optional.empty(), 4096).orElseThrow();
        assertThat(primaryKey.mergedRecordCount()).isEmpty();
        assertThat(primaryKey.mergedRecordSize()).isEmpty();
    }

    @Test
    void laterWritesMergeIntoWhatTheSnapshotInherits()
    {
        // 10 values before (12 rows, 2 null) averaging 8 bytes; 5 values added (6 rows, 1 null) averaging 2
        ColumnStats added = new ColumnStats(1, OptionalLong.of(4), Optional.of("NaN"), Optional.of("100"), OptionalLong.of(1), OptionalLong.of(2), OptionalLong.of(30));
        AnalyzedStatistics merged = new WrittenStatistics(0, 6, true, Map.of("x", added)).describe(5, 0, false, Optional.of(INHERITED), 100).orElseThrow();
        assertThat(merged.snapshotId()).isEqualTo(5);
        assertThat(merged.mergedRecordCount()).isEmpty();
        // (8 × 10 + 2 × 5) / 15 = 6; no bound compares with NaN, so none is kept for the minimum
        assertThat(merged.columns()).isEqualTo(Map.of("x", new ColumnStats(1, OptionalLong.of(10), Optional.empty(), Optional.of("100"), OptionalLong.of(3), OptionalLong.of(6), OptionalLong.of(30))));
    }

    @Test
    void nothingWhereTheWriteCannotBeMerged()
    {
        ColumnStats added = new ColumnStats(1, OptionalLong.of(1), Optional.empty(), Optional.empty(), OptionalLong.of(0), OptionalLong.empty(), OptionalLong.empty());
        WrittenStatistics written = new WrittenStatistics(0, 1, true, Map.of("x", added));
        // rows before that nothing describes
        assertThat(written.describe(5, 0, false, Optional.empty(), 1)).isEmpty();
        // a schema that changed while the write ran
        assertThat(written.describe(5, 1, true, Optional.empty(), 1)).isEmpty();
        // statistics of another schema
        assertThat(written.describe(5, 0, false, Optional.of(new AnalyzedStatistics(4, 1, OptionalLong.empty(), OptionalLong.empty(), Map.of())), 1)).isEmpty();
        // a column renamed onto another's name: its field id differs, so it is not merged
        ColumnStats other = new ColumnStats(2, OptionalLong.of(1), Optional.empty(), Optional.empty(), OptionalLong.of(0), OptionalLong.empty(), OptionalLong.empty());
        assertThat(new WrittenStatistics(0, 1, true, Map.of("x", other)).describe(5, 0, false, Optional.of(INHERITED), 1).orElseThrow().columns()).isEmpty();
    }
}
